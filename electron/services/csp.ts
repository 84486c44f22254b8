/**
 * The Content-Security-Policy of every app document (sent as a header by the Electron
 * protocol and session hook, and by the browser-mode HTTP host).
 * - style-src needs 'unsafe-inline': plotly.js 3 injects <style> rules (Lib.addStyleRule) and sets
 *   `style` attributes (modebar, hover labels); without it charts lose their styling
 *   (plotly/plotly.js#2355, #7543). Scripts stay strict: no 'unsafe-inline', no 'unsafe-eval'
 *   (so WebGL traces that compile code with `new Function`, e.g. scattergl, are not usable —
 *   the renderer draws SVG `scatter` traces over downsampled series).
 * - img-src data:/blob: for plotly's icons and "download as PNG"; workers only from the app's own
 *   files (no blob: workers built from strings).
 */
export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, ...string[]]> = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'", "'unsafe-inline'"],
  ['img-src', "'self'", 'data:', 'blob:'],
  ['font-src', "'self'", 'data:'],
  ['connect-src', "'self'"],
  ['worker-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-src', "'none'"],
  ['frame-ancestors', "'none'"],
];

export function buildCsp(directives: ReadonlyArray<readonly string[]> = CSP_DIRECTIVES): string {
  return directives.map((d) => d.join(' ')).join('; ');
}

export const CONTENT_SECURITY_POLICY = buildCsp();
