/**
 * Browser mode: the built renderer and the TunebookApi over HTTP on 127.0.0.1, for machines where
 * no window can open and for the UI tests. Like Jupyter, every API request needs a random token
 * (printed with the URL); requests from another Origin or for another Host are refused, which
 * keeps other web pages and DNS-rebinding attacks away from the notebook.
 *   POST /api/<method>   {"args": [...]}  →  {"result": …} | {"error": {code, message}}
 *   POST /api/upload?name=FILE  raw bytes  →  {"result": {"upload": id}}  (then importCaptures({ upload: id }))
 *   GET  /api/download/<id>     an exported report or bundle (exportStudy without a path gives the id)
 *   GET  /api/events?token=…  Server-Sent Events (ApiEvents)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { API_EVENTS, isApiMethod } from '../../shared/api';
import { MAX_CAPTURE_TEXT, type Backend } from '../services/backend';
import { toErrorBody } from '../services/errors';
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
}

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
const STATUS: Record<string, number> = { invalid: 400, 'not-found': 404, conflict: 409, refused: 403, cancelled: 409, internal: 500, unauthorized: 401, forbidden: 403 };

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, JSON.stringify(body), headers);
}

function sendJson(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, code: string, message: string): void {
  send(res, STATUS[code] ?? 500, { error: { code, message } });
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
  let port = 0;
  const sse = new Set<ServerResponse>();

  /** Host must name this server (DNS rebinding); Origin, when sent, must be this server. */
  function allowedOrigin(req: IncomingMessage): boolean {
    const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${host}:${port}`]);
    if (!req.headers.host || !names.has(req.headers.host.toLowerCase())) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    return [...names].some((n) => origin === `http://${n}`);
  }

  function authorized(req: IncomingMessage, url: URL): boolean {
    const given = (req.headers['x-tunebook-token'] as string | undefined) ?? url.searchParams.get('token') ?? '';
    return sameToken(given, token);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!allowedOrigin(req)) return sendError(res, 'forbidden', 'requests from another origin are refused');
    if (!authorized(req, url)) return sendError(res, 'unauthorized', 'missing or wrong token: open the URL printed by `tunebook serve`');
    const name = url.pathname.slice('/api/'.length);
    if (name === 'events' && req.method === 'GET') return openEvents(req, res);
    if (name === 'upload' && req.method === 'POST') return receiveUpload(req, res, url);
    if (name.startsWith('download/') && req.method === 'GET') return sendDownload(res, name.slice('download/'.length));
    if (req.method !== 'POST') return sendError(res, 'invalid', 'use POST for API calls');
    if (!isApiMethod(name)) return sendError(res, 'not-found', `unknown method "${name}"`);
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return sendError(res, 'invalid', 'send the arguments as application/json');
    let args: unknown;
    try {
      const body = JSON.parse((await readBody(req)) || '{}') as { args?: unknown };
      args = body.args ?? [];
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        // answer, then drop the connection rather than read the rest of an oversized upload
        send(res, 413, { error: { code: 'invalid', message: `request too large (at most ${Math.round(MAX_BODY / 1024 / 1024)} MiB); for big captures use \`tunebook parse FILE\` or the desktop app, which stream from disk` } }, { Connection: 'close' });
        res.on('finish', () => req.destroy());
        return;
      }
      return sendError(res, 'invalid', `bad request body: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!Array.isArray(args)) return sendError(res, 'invalid', '"args" must be a list');
    // a browser may not choose where the server writes: an export comes back as a download
    if (name === 'exportStudy' && typeof args[1] === 'object' && args[1] !== null && (args[1] as { path?: unknown }).path != null) {
      return sendError(res, 'forbidden', 'in browser mode an export is downloaded; it cannot be written to a path on the server');
    }
    try {
      const result = await backend.call(name, args);
      if (result instanceof JsonText) sendJson(res, 200, `{"result":${result.json}}`); // serialised by the read worker
      else send(res, 200, result === undefined ? {} : { result });
    } catch (e) {
      const body = toErrorBody(e);
      if (body.code === 'internal') log(e);
      sendError(res, body.code, body.message);
    }
  }

  /** Stream an uploaded capture to a file of the back end, within the size limit, and hand it over. */
  async function receiveUpload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const fileName = (url.searchParams.get('name') ?? '').trim().slice(0, 1000) || 'upload.txt';
    const tooLarge = () => {
      send(res, 413, { error: { code: 'invalid', message: `${fileName} is larger than this server accepts (${Math.round(maxUpload / 1024 ** 2).toLocaleString('en-US')} MiB); start it with \`tunebook serve --max-upload SIZE\`, or use \`tunebook import\`` } }, { Connection: 'close' });
      res.on('finish', () => req.destroy());
    };
    if (Number(req.headers['content-length'] ?? 0) > maxUpload) return tooLarge();
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
    send(res, 200, { result: { upload: backend.registerUpload(file, fileName) } });
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
      handleApi(req, res, url).catch((e: unknown) => { log(e); if (!res.headersSent) sendError(res, 'internal', 'internal error'); });
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
