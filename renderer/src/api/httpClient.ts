/**
 * The browser-mode client of the TunebookApi contract: every method is `POST /api/<method>` with
 * `{"args": [...]}` and the session token in `X-Tunebook-Token`; events arrive over Server-Sent
 * Events from `GET /api/events?token=…`. Errors come back as TunebookError with the host's code.
 */
import { API_METHODS, TunebookError, isErrorCode } from '../../../shared/api';
import type { ApiEvents, ApiMethodName, ApiMethods, TunebookApi } from '../../../shared/api';

const TOKEN_KEY = 'tunebook.token';

export interface HttpClientOptions {
  /** origin + path prefix of the host; defaults to the page's origin */
  baseUrl?: string;
  /** session token; defaults to the one taken from the page URL (see takeTokenFromLocation) */
  token?: string | null;
  fetch?: typeof fetch;
}

/**
 * Reads `?token=` from the address bar, keeps it in sessionStorage (so a reload still works) and
 * removes it from the visible URL. Returns the token, or the stored one when the URL has none.
 */
export function takeTokenFromLocation(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try { sessionStorage.setItem(TOKEN_KEY, fromUrl); } catch { /* storage disabled: keep it in memory */ }
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}

function toError(status: number, body: unknown): TunebookError {
  const err = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (err && typeof err.message === 'string') {
    const code = isErrorCode(err.code) ? err.code
      : err.code === 'unauthorized' || err.code === 'forbidden' ? 'refused' : 'internal';
    return new TunebookError(code, err.message);
  }
  if (status === 401 || status === 403) {
    return new TunebookError('refused', 'The session token is missing or wrong. Open the address printed by `tunebook serve`.');
  }
  return new TunebookError('internal', `The Tunebook host answered ${status}.`);
}

export function createHttpClient(options: HttpClientOptions = {}): TunebookApi {
  const base = (options.baseUrl ?? window.location.origin).replace(/\/$/, '');
  const token = options.token === undefined ? takeTokenFromLocation() : options.token;
  const doFetch = options.fetch ?? window.fetch.bind(window);

  async function call<M extends ApiMethodName>(method: M, args: Parameters<ApiMethods[M]>): Promise<ReturnType<ApiMethods[M]>> {
    let res: Response;
    try {
      res = await doFetch(`${base}/api/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Tunebook-Token': token ?? '' },
        body: JSON.stringify({ args }),
      });
    } catch (e) {
      throw new TunebookError('internal', `Cannot reach the Tunebook host (${e instanceof Error ? e.message : String(e)}). Is \`tunebook serve\` still running?`);
    }
    let body: unknown = null;
    const text = await res.text();
    if (text) {
      try { body = JSON.parse(text); } catch { body = null; }
    }
    if (!res.ok) throw toError(res.status, body);
    return (body as { result?: ReturnType<ApiMethods[M]> } | null)?.result as ReturnType<ApiMethods[M]>;
  }

  // One function per contract method, generated from API_METHODS (which the contract keeps complete),
  // so a method added to TunebookApi needs no change here.
  const methods = {} as { [M in ApiMethodName]: (...args: Parameters<ApiMethods[M]>) => Promise<ReturnType<ApiMethods[M]>> };
  for (const name of API_METHODS) {
    (methods as Record<string, unknown>)[name] = (...args: unknown[]) => call(name, args as Parameters<ApiMethods[typeof name]>);
  }

  // One EventSource shared by every subscriber, opened on the first subscription.
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let source: EventSource | null = null;
  function ensureSource(name: string) {
    if (!source) {
      source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token ?? '')}`);
    }
    if (!listeners.has(name)) {
      const set = new Set<(payload: unknown) => void>();
      listeners.set(name, set);
      source.addEventListener(name, (ev) => {
        let payload: unknown;
        try { payload = JSON.parse((ev as MessageEvent<string>).data); } catch { return; }
        for (const l of [...set]) l(payload);
      });
    }
    return listeners.get(name)!;
  }

  const api = {
    ...methods,
    on<E extends keyof ApiEvents>(event: E, listener: (payload: ApiEvents[E]) => void): () => void {
      const set = ensureSource(event);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => {
        set.delete(l);
        if ([...listeners.values()].every((s) => s.size === 0) && source) {
          source.close();
          source = null;
          listeners.clear();
        }
      };
    },
  } satisfies TunebookApi;
  return api;
}
