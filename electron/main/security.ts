/**
 * Security policy of the Electron host as plain functions (no electron import), so each rule is
 * unit-tested and main.ts only wires them to webContents/session events.
 * See electron/electron docs/tutorial/security.md; the item numbers below refer to its checklist.
 */
import { APP_HOST, APP_SCHEME } from './channels';

// Item 7: the Content-Security-Policy, one definition for the Electron protocol and browser mode.
import { CONTENT_SECURITY_POLICY } from '../services/csp';
export { CONTENT_SECURITY_POLICY, CSP_DIRECTIVES, buildCsp } from '../services/csp';

/** True for URLs of our own renderer: tunebook://app/… (exact scheme and host, no credentials or port). */
export function isAppUrl(raw: string): boolean {
  const url = parseUrl(raw);
  return url !== null && url.protocol === `${APP_SCHEME}:` && url.hostname.toLowerCase() === APP_HOST && url.port === ''
    && url.username === '' && url.password === '';
}

/**
 * Item 15: hosts `shell.openExternal` may open (https only, exact host or a subdomain of it).
 * Links in the UI point at documentation of the tools Tunebook reads and at the project itself.
 */
export const EXTERNAL_HOST_ALLOW_LIST: readonly string[] = [
  'tunebook.dev',
  'github.com',
  'www.electronjs.org',
  'fio.readthedocs.io',
  'man7.org',
  'www.kernel.org',
  'docs.kernel.org',
  'sysstat.github.io',
  'httpd.apache.org',
  'docs.locust.io',
  'redis.io',
  'dev.mysql.com',
  'nginx.org',
  'www.php.net',
  'perf.wiki.kernel.org',
  'www.brendangregg.com',
];

export function isAllowedExternalUrl(raw: string, allowList: readonly string[] = EXTERNAL_HOST_ALLOW_LIST): boolean {
  const url = parseUrl(raw);
  if (url === null || url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  if (url.port !== '' && url.port !== '443') return false;
  const host = url.hostname.toLowerCase();
  return allowList.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

export type NavigationDecision = 'allow' | 'deny' | 'open-external';

/**
 * Item 13 (will-navigate, will-redirect): the window only ever shows our own app. A full-page
 * navigation inside tunebook://app/ (location.reload, a route) is allowed; an allow-listed https
 * link goes to the system browser; everything else is dropped.
 */
export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return 'allow';
  if (isAllowedExternalUrl(url)) return 'open-external';
  return 'deny';
}

/**
 * A sub-frame may show only the Export dialog's report preview: a sandboxed frame whose document is
 * given inline (srcdoc), which runs no script. Anything it links to is treated like a navigation of
 * the window (an allow-listed https page opens in the system browser; nothing else goes anywhere).
 */
export function decideFrameNavigation(url: string): NavigationDecision {
  return url === 'about:srcdoc' ? 'allow' : decideNavigation(url);
}

/**
 * Item 14 (setWindowOpenHandler): no new Electron windows, ever. `window.open`/target=_blank on an
 * allow-listed https URL opens the system browser instead.
 */
export function decideWindowOpen(url: string): Exclude<NavigationDecision, 'allow'> {
  return isAllowedExternalUrl(url) ? 'open-external' : 'deny';
}

/**
 * Item 5: permission requests (notifications, media, geolocation, midi, …) are denied; the only
 * ones granted are clipboard writes (the UI's "copy" buttons) from our own origin.
 */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function decidePermission(permission: string, requestingUrl: string | undefined): boolean {
  return GRANTED_PERMISSIONS.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl);
}

/**
 * Item 1 ("only load secure content") taken further — no remote content at all: every request
 * the default session sees must be to our scheme, or an in-memory/devtools URL.
 */
const LOCAL_SCHEMES = new Set([`${APP_SCHEME}:`, 'data:', 'blob:', 'devtools:']);

export function isAllowedRequest(raw: string): boolean {
  const url = parseUrl(raw);
  if (url === null) return false;
  if (url.protocol === `${APP_SCHEME}:`) return isAppUrl(raw);
  return LOCAL_SCHEMES.has(url.protocol);
}

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * Item 7 again, for the session's onHeadersReceived hook: responses for our app get the CSP
 * header when they do not carry one already (protocol.ts sets it; this covers anything else
 * the app origin serves). Other responses are passed through untouched.
 */
export function withCspHeader(
  url: string,
  headers: Record<string, string[]> | undefined,
  csp: string = CONTENT_SECURITY_POLICY,
): Record<string, string[]> | undefined {
  if (!isAppUrl(url)) return headers;
  const out: Record<string, string[]> = { ...(headers ?? {}) };
  const has = Object.keys(out).some((k) => k.toLowerCase() === 'content-security-policy');
  if (!has) out['Content-Security-Policy'] = [csp];
  return out;
}
