/**
 * The browser-mode client of the TunebookApi contract: every method is `POST /api/<method>` with
 * `{"args": [...]}` and the session token in `X-Tunebook-Token`; events arrive over Server-Sent
 * Events from `GET /api/events?token=…`. Errors come back as TunebookError with the host's code.
 */
import { API_METHODS, TunebookError, isReadMethod } from '../../../shared/api';
import { resultOf } from '../../../shared/envelope';
import type { ApiEvents, ApiMethodName, ApiMethods, DataChange, TunebookApi } from '../../../shared/api';

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

/**
 * The result of an answer of the host (its envelope, shared/envelope.ts), or the TunebookError it
 * reports. An answer that is no envelope (a proxy's error page, an empty body) is said by its status.
 */
function resultOrThrow<T>(status: number, body: unknown): T {
  if (typeof body === 'object' && body !== null && 'ok' in body) return resultOf<T>(body);
  if (status === 401 || status === 403) {
    throw new TunebookError('refused', 'The session token is missing or wrong. Open the address printed by `tunebook serve`.');
  }
  throw new TunebookError('internal', `The Tunebook host answered ${status}.`);
}

export function createHttpClient(options: HttpClientOptions = {}): TunebookApi {
  const base = (options.baseUrl ?? window.location.origin).replace(/\/$/, '');
  const token = options.token === undefined ? takeTokenFromLocation() : options.token;
  const doFetch = options.fetch ?? window.fetch.bind(window);

  // Writes answered while the event stream was not open: their changes' events may have been sent
  // before it connected (or while it reconnected), so they are announced as one change to everything
  // when it opens (below) and the views load again instead of staying stale.
  let answeredUnheard = false;

  async function call<M extends ApiMethodName>(method: M, args: Parameters<ApiMethods[M]>): Promise<ReturnType<ApiMethods[M]>> {
    try {
      return await send(method, args);
    } finally {
      if (source?.readyState !== EventSource.OPEN && !isReadMethod(method)) answeredUnheard = true;
    }
  }

  async function send<M extends ApiMethodName>(method: M, args: Parameters<ApiMethods[M]>): Promise<ReturnType<ApiMethods[M]>> {
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
    return resultOrThrow<ReturnType<ApiMethods[M]>>(res.status, body);
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
      source.addEventListener('open', () => {
        if (!answeredUnheard) return;
        answeredUnheard = false;
        const missed: DataChange = { studyId: null, all: true };
        for (const l of [...(listeners.get('onDidChangeData') ?? [])]) l(missed);
      });
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

/**
 * Browser mode's upload of a capture file: the page streams the File's bytes to
 * `POST /api/upload?name=…` (no JSON body, nothing held whole in memory on either side) and gets
 * an upload id for importCaptures({ upload }). XMLHttpRequest, because fetch reports no upload
 * progress. Errors reject with a TunebookError carrying the host's code.
 */
export type Uploader = (file: File, onProgress?: (sent: number, total: number) => void, signal?: AbortSignal) => Promise<string>;

export function createUploader(options: Pick<HttpClientOptions, 'baseUrl' | 'token'> = {}): Uploader {
  const base = (options.baseUrl ?? window.location.origin).replace(/\/$/, '');
  const token = options.token === undefined ? takeTokenFromLocation() : options.token;
  return (file, onProgress, signal) => new Promise<string>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${base}/api/upload?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('X-Tunebook-Token', token ?? '');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown;
      try { body = JSON.parse(xhr.responseText); } catch { body = null; }
      try {
        const id = resultOrThrow<{ upload?: unknown } | null>(xhr.status, body)?.upload;
        if (typeof id === 'string') resolve(id);
        else reject(new TunebookError('internal', `The Tunebook host answered ${xhr.status} without an upload id.`));
      } catch (e) {
        reject(e as TunebookError);
      }
    };
    xhr.onerror = () => reject(new TunebookError('internal', `Could not send ${file.name} to the Tunebook host. Is \`tunebook serve\` still running?`));
    xhr.onabort = () => reject(new TunebookError('cancelled', 'the upload was cancelled'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * Browser mode's address of an exported file (exportStudy without a path answers with a download
 * id): the session token rides in the query, as for the event stream, since a download is a plain
 * navigation that cannot carry a header.
 */
export function downloadUrl(id: string, options: Pick<HttpClientOptions, 'baseUrl' | 'token'> = {}): string {
  const base = (options.baseUrl ?? window.location.origin).replace(/\/$/, '');
  const token = options.token === undefined ? takeTokenFromLocation() : options.token;
  return `${base}/api/download/${encodeURIComponent(id)}?token=${encodeURIComponent(token ?? '')}`;
}
