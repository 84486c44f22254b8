import path from 'node:path';

/**
 * Map a URL path to a file under `root`, or null when it would leave the root (../, encoded
 * traversal, absolute paths, NUL bytes). "/" and unknown extension-less routes serve index.html.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try { decoded = decodeURIComponent(urlPath.split(/[?#]/)[0] ?? '/'); } catch { return null; }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const rel = decoded.replace(/^\/+/, '');
  if (rel.split('/').some((seg) => seg === '..')) return null;
  if (rel === '' || !path.posix.extname(rel)) return path.join(root, 'index.html');
  const abs = path.resolve(root, rel);
  const base = path.resolve(root);
  return abs.startsWith(base + path.sep) ? abs : null;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The renderer's Content-Security-Policy: the same one the Electron app sends. */
export { CONTENT_SECURITY_POLICY as RENDERER_CSP } from '../services/csp';
