/**
 * Browser mode: the built renderer and the TunebookApi over HTTP on 127.0.0.1, for machines where
 * no window can open and for the UI tests. Like Jupyter, every API request needs a random token
 * (printed with the URL); requests from another Origin or for another Host are refused, which
 * keeps other web pages and DNS-rebinding attacks away from the notebook. Bound to another address
 * (--host), the names of this machine are accepted as Host too (hostNames).
 * Every answer is the API's envelope (shared/envelope.ts), with an HTTP status that matches its code:
 *   POST /api/<method>   {"args": [...]}  →  {"ok": true, "result": …} | {"ok": false, "error": {code, message}}
 *   POST /api/upload?name=FILE  raw bytes  →  {"ok": true, "result": {"upload": id}}  (then importCaptures({ upload: id }))
 *        at most MAX_UPLOADS large bodies are received at a time; a few more wait, the rest are refused (503)
 *   GET  /api/download/<id>     an exported report or bundle (exportStudy without a path gives the id)
 *   GET  /api/events?token=…  Server-Sent Events (ApiEvents)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { API_EVENTS, isApiMethod } from '../../shared/api';
import { MAX_CAPTURE_TEXT, type Backend } from '../services/backend';
import { failureOf, success, type ApiFailure } from '../../shared/envelope';
import type { ErrorCode } from '../../shared/api';
import { JsonText } from '../services/workerReads';
import { contentType, RENDERER_CSP, resolveStaticPath } from './staticFiles';

export interface HttpHostOptions {
  backend: Backend;
  /** folder with the built renderer (index.html) */
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
  log?: (e: unknown) => void;
  /** largest capture upload accepted (default DEFAULT_MAX_UPLOAD; `tunebook serve --max-upload` raises it) */
  maxUploadBytes?: number;
  /** more names a request may give as its Host (`tunebook serve --allow-host NAME`: a DNS name of this machine) */
  allowHosts?: readonly string[];
  /** large request bodies received at the same time (default MAX_UPLOADS), and how many more may wait (default MAX_WAITING_UPLOADS) */
  maxUploads?: number;
  maxWaitingUploads?: number;
}

/** Large bodies (uploads, pasted captures) received at once: each holds memory or a file; more wait, then are refused. */
export const MAX_UPLOADS = 2;
export const MAX_WAITING_UPLOADS = 8;
/** A JSON body larger than this counts as a large body. */
const LARGE_BODY = 1024 * 1024;

/** Uploads are streamed to disk, so the limit is about disk space, not memory. */
export const DEFAULT_MAX_UPLOAD = 2 * 1024 ** 3;

export interface HttpHost {
  url: string;
  /** url with ?token=…, what a user opens */
  openUrl: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

/** Room for the largest pasted capture the API takes, JSON-escaped (control characters grow 6×; text mostly not). */
const MAX_BODY = MAX_CAPTURE_TEXT + 16 * 1024 * 1024;

class BodyTooLarge extends Error {}
const STATUS: Record<ErrorCode, number> = { invalid: 400, 'not-found': 404, conflict: 409, refused: 403, cancelled: 409, internal: 500 };

/**
 * At most `limit` holders at a time; up to `queue` more wait their turn (in order); beyond that
 * `enter` answers null and the caller refuses the request.
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number, private readonly queue: number) {}

  enter(): Promise<() => void> | null {
    if (this.active < this.limit) { this.active++; return Promise.resolve(this.releaser()); }
    if (this.waiting.length >= this.queue) return null;
    return new Promise((resolve) => this.waiting.push(() => resolve(this.releaser())));
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next(); else this.active--;
    };
  }
}

/** Is this address a loopback one (only this machine can reach it)? */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The names a request may give as Host: loopback ones always; the bound address; when bound to
 * another address, this machine's host name (and name.local); when bound to every address
 * (0.0.0.0, ::), each address of each network interface; and names the user allowed.
 */
export function hostNames(host: string, port: number, extra: readonly string[] = []): Set<string> {
  const bare = new Set(['127.0.0.1', 'localhost', '::1', host, ...extra]);
  if (!isLoopback(host)) {
    const name = os.hostname();
    if (name) { bare.add(name); bare.add(`${name}.local`); }
  }
  if (host === '0.0.0.0' || host === '::') {
    for (const list of Object.values(os.networkInterfaces())) {
      for (const a of list ?? []) bare.add(a.address.replace(/%.*$/, ''));
    }
  }
  const names = new Set<string>();
  for (const b of bare) {
    const n = b.toLowerCase().replace(/^\[|\]$/g, '');
    const shown = n.includes(':') ? `[${n}]` : n;
    names.add(`${shown}:${port}`);
    if (port === 80) names.add(shown);
  }
  return names;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, JSON.stringify(body), headers);
}

function sendResult(res: ServerResponse, result: unknown): void {
  send(res, 200, success(result === undefined ? null : result));
}

function sendJson(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(text);
}

function sendFailure(res: ServerResponse, failure: ApiFailure, status = STATUS[failure.error.code], headers: Record<string, string> = {}): void {
  send(res, status, failure, headers);
}

function sendError(res: ServerResponse, code: ErrorCode, message: string, status = STATUS[code], headers: Record<string, string> = {}): void {
  sendFailure(res, { ok: false, error: { code, message } }, status, headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY) { reject(new BodyTooLarge()); return; }
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { chunks.length = 0; reject(new BodyTooLarge()); return; }
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startHttpHost(opts: HttpHostOptions): Promise<HttpHost> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? randomBytes(24).toString('hex');
  const log = opts.log ?? ((e: unknown) => console.error(e));
  const backend = opts.backend;
  const maxUpload = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;
  const gate = new Gate(opts.maxUploads ?? MAX_UPLOADS, opts.maxWaitingUploads ?? MAX_WAITING_UPLOADS);
  let port = 0;
  const sse = new Set<ServerResponse>();
  let names = new Set<string>();
  let namesAt = 0;

  /** Host must name this server (DNS rebinding); Origin, when sent, must be this server. */
  function allowedOrigin(req: IncomingMessage): boolean {
    const given = req.headers.host?.toLowerCase();
    if (!given) return false;
    // the machine's addresses may change (a new lease, a VPN): look again, at most once a second
    if (!names.has(given) && Date.now() - namesAt > 1000) { names = hostNames(host, port, opts.allowHosts); namesAt = Date.now(); }
    if (!names.has(given)) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    return origin.toLowerCase() === `http://${given}`;
  }

  /** Wait for a turn to receive a large body; false when too many wait already (the request is answered). */
  async function turn(res: ServerResponse, what: string): Promise<(() => void) | null> {
    const entered = gate.enter();
    if (entered) return entered;
    sendError(res, 'refused', `the server is receiving too many large files at once: ${what} was refused. Try again when the others have finished.`, 503, { 'Retry-After': '5', Connection: 'close' });
    return null;
  }

  function authorized(req: IncomingMessage, url: URL): boolean {
    const given = (req.headers['x-tunebook-token'] as string | undefined) ?? url.searchParams.get('token') ?? '';
    return sameToken(given, token);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!allowedOrigin(req)) return sendError(res, 'refused', `requests from another origin, or for a host name this server does not know (${req.headers.host ?? 'none'}), are refused`, 403);
    if (!authorized(req, url)) return sendError(res, 'refused', 'missing or wrong token: open the URL printed by `tunebook serve`', 401);
    const name = url.pathname.slice('/api/'.length);
    if (name === 'events' && req.method === 'GET') return openEvents(req, res);
    if (name === 'upload' && req.method === 'POST') return receiveUpload(req, res, url);
    if (name.startsWith('download/') && req.method === 'GET') return sendDownload(res, name.slice('download/'.length));
    if (req.method !== 'POST') return sendError(res, 'invalid', 'use POST for API calls');
    if (!isApiMethod(name)) return sendError(res, 'not-found', `unknown method "${name}"`);
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return sendError(res, 'invalid', 'send the arguments as application/json');
    let args: unknown;
    const declared = Number(req.headers['content-length'] ?? NaN);
    const release = declared <= LARGE_BODY ? () => undefined : await turn(res, `a request of ${Number.isFinite(declared) ? `${Math.round(declared / 1024 / 1024)} MiB` : 'unknown size'}`);
    if (!release) return;
    try {
      const body = JSON.parse((await readBody(req)) || '{}') as { args?: unknown };
      args = body.args ?? [];
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        // answer, then drop the connection rather than read the rest of an oversized upload
        sendError(res, 'invalid', `request too large (at most ${Math.round(MAX_BODY / 1024 / 1024)} MiB); for big captures use \`tunebook parse FILE\` or the desktop app, which stream from disk`, 413, { Connection: 'close' });
        res.on('finish', () => req.destroy());
        return;
      }
      return sendError(res, 'invalid', `bad request body: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      release();
    }
    if (!Array.isArray(args)) return sendError(res, 'invalid', '"args" must be a list');
    try {
      const result = await backend.call(name, args);
      if (result instanceof JsonText) sendJson(res, 200, `{"ok":true,"result":${result.json}}`); // serialised by the read worker
      else sendResult(res, result);
    } catch (e) {
      const failure = failureOf(e);
      if (failure.error.code === 'internal') log(e);
      sendFailure(res, failure);
    }
  }

  /** Stream an uploaded capture to a file of the back end, within the size limit, and hand it over. */
  async function receiveUpload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const fileName = (url.searchParams.get('name') ?? '').trim().slice(0, 1000) || 'upload.txt';
    const tooLarge = () => {
      sendError(res, 'invalid', `${fileName} is larger than this server accepts (${Math.round(maxUpload / 1024 ** 2).toLocaleString('en-US')} MiB); start it with \`tunebook serve --max-upload SIZE\`, or use \`tunebook import\``, 413, { Connection: 'close' });
      res.on('finish', () => req.destroy());
    };
    if (Number(req.headers['content-length'] ?? 0) > maxUpload) return tooLarge();
    const release = await turn(res, fileName);
    if (!release) { res.on('finish', () => req.destroy()); return; }
    try {
      await receiveFile(req, res, fileName, tooLarge);
    } finally {
      release();
    }
  }

  async function receiveFile(req: IncomingMessage, res: ServerResponse, fileName: string, tooLarge: () => void): Promise<void> {
    if (req.destroyed) return; // gone while it waited its turn
    const file = backend.uploadTarget();
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(size > maxUpload ? new BodyTooLarge() : null, chunk);
      },
    });
    const out = createWriteStream(file, { mode: 0o600 });
    try {
      await pipeline(req, limit, out);
    } catch (e) {
      // the file may still be opening: remove it once the stream has let go of it
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      rmSync(file, { force: true });
      if (e instanceof BodyTooLarge) return tooLarge();
      if (!res.headersSent && !req.destroyed) sendError(res, 'internal', `the upload of ${fileName} failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    sendResult(res, { upload: backend.registerUpload(file, fileName) });
  }

  /** An exported file, as an attachment under the name it was exported with. */
  function sendDownload(res: ServerResponse, id: string): void {
    const d = /^[0-9a-f]{24}$/.test(id) ? backend.download(id) : undefined;
    let size = -1;
    try { if (d) size = statSync(d.file).size; } catch { size = -1; }
    if (!d || size < 0) return sendError(res, 'not-found', 'this download is unknown or gone (export it again)');
    const ascii = d.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    res.writeHead(200, {
      'Content-Type': d.type,
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(d.name)}`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      // an HTML report opened from here still runs nothing
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    });
    createReadStream(d.file).pipe(res);
  }

  function openEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Content-Type-Options': 'nosniff' });
    res.write(': connected\n\n');
    sse.add(res);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), 25_000);
    req.on('close', () => { clearInterval(heartbeat); sse.delete(res); });
  }

  const unsubscribe = API_EVENTS.map((event) => backend.on(event, (payload) => {
    const msg = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of sse) res.write(msg);
  }));

  function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
    if (!allowedOrigin(req)) { res.writeHead(403).end('forbidden'); return; }
    const file = resolveStaticPath(opts.rendererDir, url.pathname);
    let size = -1;
    try { if (file) { const st = statSync(file); if (st.isFile()) size = st.size; } } catch { size = -1; }
    if (!file || size < 0) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(file && file.endsWith('index.html') ? 'The UI is not built: run `npm run build`.' : 'not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': contentType(file),
      'Content-Length': String(size),
      'Content-Security-Policy': RENDERER_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'max-age=300',
    });
    if (req.method === 'HEAD') { res.end(); return; }
    createReadStream(file).pipe(res);
  }

  const server: Server = createServer((req, res) => {
    let url: URL;
    try { url = new URL(req.url ?? '/', 'http://localhost'); } catch { res.writeHead(400).end(); return; }
    if (url.pathname.startsWith('/api/')) {
      handleApi(req, res, url).catch((e: unknown) => { log(e); if (!res.headersSent) sendFailure(res, failureOf(e)); });
    } else {
      serveStatic(req, res, url);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/`;
  return {
    url,
    openUrl: `${url}?token=${token}`,
    token,
    port,
    close: () => new Promise<void>((resolve) => {
      unsubscribe.forEach((u) => u());
      for (const res of sse) res.end();
      sse.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
