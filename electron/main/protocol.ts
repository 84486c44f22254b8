/**
 * The `tunebook://app/…` protocol that serves the built renderer (dist/renderer) instead of
 * `file://` (security checklist item 18). `resolveAppPath` is the pure part — URL to a file under
 * the root, refusing anything that could escape it — and `createAppProtocolHandler` adds the file
 * system and the response headers (the CSP travels with every document). Neither imports electron:
 * main.ts passes the handler to `protocol.handle`.
 */
import path from 'node:path';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { APP_HOST, APP_SCHEME } from './channels';

export type AppPathResolution =
  | { ok: true; filePath: string; fallback: boolean }
  | { ok: false; status: 400 | 403 | 404; reason: string };

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function mimeTypeFor(filePath: string): string {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps `tunebook://app/<path>` to an absolute file path under `root`.
 * - only our scheme and host; query string and fragment are ignored;
 * - `/` → index.html; an extension-less path (a client-side route) → index.html (`fallback`);
 * - every segment is percent-decoded once and must not be `.`, `..`, empty-after-decoding tricks,
 *   or contain `/`, `\`, `:` or NUL — so `%2e%2e%2f`, `..%5c`, `C:` and friends are refused;
 * - the joined path must still lie inside root (belt and braces).
 * Pure: it does not touch the file system (the handler checks existence and symlinks).
 */
export function resolveAppPath(rawUrl: string, root: string): AppPathResolution {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, status: 400, reason: 'malformed URL' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname.toLowerCase() !== APP_HOST || url.port !== '' || url.username !== '' || url.password !== '') {
    return { ok: false, status: 403, reason: 'not an app URL' };
  }
  const segments: string[] = [];
  for (const raw of url.pathname.split('/')) {
    if (raw === '') continue; // leading slash, doubled slashes
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400, reason: 'bad percent-encoding' };
    }
    if (seg === '.' || seg === '..' || /[/\\:\0]/.test(seg) || seg.trim() === '') {
      return { ok: false, status: 403, reason: 'path segment not allowed' };
    }
    segments.push(seg);
  }
  const rootAbs = path.resolve(root);
  let fallback = false;
  if (segments.length === 0) {
    segments.push('index.html');
  } else if (path.extname(segments[segments.length - 1] ?? '') === '') {
    // a client-side route such as /studies/3: serve the app shell
    segments.length = 0;
    segments.push('index.html');
    fallback = true;
  }
  const filePath = path.resolve(rootAbs, ...segments);
  if (!isInside(rootAbs, filePath)) {
    return { ok: false, status: 403, reason: 'outside the app root' };
  }
  return { ok: true, filePath, fallback };
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export interface AppProtocolOptions {
  /** absolute path of dist/renderer */
  root: string;
  /** the Content-Security-Policy header value sent with every response */
  csp: string;
  /** file system, replaceable in tests */
  fs?: {
    realpath(p: string): Promise<string>;
    readFile(p: string): Promise<Uint8Array>;
    stat(p: string): Promise<{ isFile(): boolean }>;
  };
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  };
}

function errorResponse(status: number, csp: string): Response {
  const text = status === 404 ? 'Not found' : status === 405 ? 'Method not allowed' : status === 400 ? 'Bad request' : 'Forbidden';
  return new Response(text, { status, headers: { ...securityHeaders(csp), 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The handler main.ts passes to `protocol.handle('tunebook', …)`. */
export function createAppProtocolHandler(opts: AppProtocolOptions): (request: Request) => Promise<Response> {
  // callback APIs, promisified: those are the ones Electron's asar support patches for sure
  const io = opts.fs ?? {
    realpath: promisify(fs.realpath) as (p: string) => Promise<string>,
    readFile: promisify(fs.readFile) as (p: string) => Promise<Uint8Array>,
    stat: promisify(fs.stat) as (p: string) => Promise<fs.Stats>,
  };
  let realRoot: string | undefined;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return errorResponse(405, opts.csp);
    const resolved = resolveAppPath(request.url, opts.root);
    if (!resolved.ok) return errorResponse(resolved.status, opts.csp);
    try {
      realRoot ??= await io.realpath(path.resolve(opts.root));
      const real = await io.realpath(resolved.filePath);
      // a symlink inside dist/renderer must not lead outside it
      if (!isInside(realRoot, real)) return errorResponse(403, opts.csp);
      if (!(await io.stat(real)).isFile()) return errorResponse(404, opts.csp);
      // copied into a fresh ArrayBuffer-backed view (what BodyInit accepts in every lib typing)
      const body = request.method === 'HEAD' ? null : new Uint8Array(await io.readFile(real));
      return new Response(body, {
        status: 200,
        headers: { ...securityHeaders(opts.csp), 'Content-Type': mimeTypeFor(real) },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return errorResponse(code === 'ENOENT' || code === 'ENOTDIR' ? 404 : 403, opts.csp);
    }
  };
}
