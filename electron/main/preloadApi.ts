/**
 * The object the preload exposes as `window.tunebook`, built from API_METHODS so it cannot drift
 * from the contract. Electron modules are passed in (only `import type` here), so the shape is
 * unit-tested without Electron; preload.ts is the three-line entry that wires the real ones.
 *
 * Each method answers with the API's envelope (shared/envelope.ts) as main sent it — a result the
 * read worker serialised is parsed here, off the main process — and never rejects: an Error that
 * crosses the contextBridge keeps only its message, an envelope arrives whole. The renderer reads
 * it with resultOf (renderer/src/api/index.ts).
 */
import type { IpcRendererEvent } from 'electron';
import type { ApiEvents } from '../../shared/api';
import { API_EVENTS, API_METHODS, isErrorCode } from '../../shared/api';
import { failureOf, type ApiEnvelope, type BridgeApi } from '../../shared/envelope';
import type { IpcEnvelope } from './channels';
import { eventChannel, methodChannel } from './channels';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}

export interface WebUtilsLike {
  getPathForFile(file: File): string;
}

export type PreloadApi = BridgeApi<File>;

/** Main's reply as the API's envelope: JSON text of the read worker parsed; anything malformed an internal failure. */
export function toEnvelope(reply: unknown): ApiEnvelope {
  const env = reply as IpcEnvelope | null;
  try {
    if (env !== null && typeof env === 'object') {
      if (env.ok === true) return 'json' in env ? { ok: true, result: JSON.parse(env.json) as unknown } : { ok: true, result: env.result };
      if (env.ok === false && typeof env.error === 'object' && env.error !== null) {
        return { ok: false, error: { code: isErrorCode(env.error.code) ? env.error.code : 'internal', message: String(env.error.message ?? 'Unknown error') } };
      }
    }
  } catch (e) {
    return failureOf(e);
  }
  return { ok: false, error: { code: 'internal', message: 'Malformed reply from the Tunebook main process' } };
}

export function isApiEvent(name: unknown): name is keyof ApiEvents {
  return typeof name === 'string' && (API_EVENTS as readonly string[]).includes(name);
}

export function buildPreloadApi(ipcRenderer: IpcRendererLike, webUtils: WebUtilsLike): PreloadApi {
  const methods: Record<string, (...args: unknown[]) => Promise<ApiEnvelope>> = {};
  for (const name of API_METHODS) {
    const channel = methodChannel(name);
    methods[name] = async (...args: unknown[]) => {
      try {
        return toEnvelope(await ipcRenderer.invoke(channel, ...args));
      } catch (e) {
        // the call never reached a handler (no handler, arguments that cannot be cloned)
        return failureOf(e);
      }
    };
  }

  const on = <E extends keyof ApiEvents>(event: E, listener: (payload: ApiEvents[E]) => void): (() => void) => {
    if (!isApiEvent(event)) throw new Error(`Unknown Tunebook event: ${String(event)}`);
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const channel = eventChannel(event);
    // never hand the IpcRendererEvent (it carries `sender`, i.e. ipcRenderer) to the page
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload as ApiEvents[E]);
    ipcRenderer.on(channel, wrapped as (event: IpcRendererEvent, ...args: unknown[]) => void);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipcRenderer.removeListener(channel, wrapped as (event: IpcRendererEvent, ...args: unknown[]) => void);
    };
  };

  const getPathForFile = (file: File): string => webUtils.getPathForFile(file);

  const api = {
    ...(methods as unknown as Omit<PreloadApi, 'on' | 'getPathForFile'>),
    on,
    getPathForFile,
  } satisfies PreloadApi;
  return Object.freeze(api);
}
