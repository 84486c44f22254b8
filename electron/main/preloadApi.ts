/**
 * The object the preload exposes as `window.tunebook`, built from API_METHODS so it cannot drift
 * from the contract. Electron modules are passed in (only `import type` here), so the shape is
 * unit-tested without Electron; preload.ts is the three-line entry that wires the real ones.
 *
 * Errors: main answers with an envelope (ipc.ts). A failed call rejects with an Error whose `code`
 * is the TunebookError code and whose message starts with `[<code>] `. The prefix is there because
 * contextBridge rebuilds errors that cross into the page from their message alone (custom
 * properties such as `code` are dropped: electron/electron#25596); `reviveBridgeError` reads it back.
 */
import type { IpcRendererEvent } from 'electron';
import type { ApiEvents, TunebookApi } from '../../shared/api';
import { API_EVENTS, API_METHODS, decodeErrorMessage, encodeErrorMessage, isErrorCode, type ErrorCode, type TunebookError } from '../../shared/api';
import { resultOf } from '../../shared/envelope';
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

export type PreloadApi = TunebookApi & {
  /** absolute path of a dropped or picked File ('' when it has none, e.g. a pasted blob) */
  getPathForFile(file: File): string;
};

export interface BridgeError extends Error {
  code: ErrorCode;
}

/** Builds the error a failed call rejects with (see the module comment for the message prefix). */
export function bridgeError(code: string, message: string): BridgeError {
  const known: ErrorCode = isErrorCode(code) ? code : 'internal';
  const err = new Error(encodeErrorMessage(known, message)) as BridgeError;
  err.name = 'TunebookError';
  err.code = known;
  return err;
}

/**
 * Reads `code` and the clean message back from an error that crossed the contextBridge.
 * (The renderer's API client does the same with decodeErrorMessage.)
 */
export function reviveBridgeError(err: unknown): { code: ErrorCode; message: string } | null {
  const msg = err instanceof Error ? err.message : typeof err === 'string' ? err : null;
  return msg === null ? null : decodeErrorMessage(msg);
}

/** The result of a reply from main (shared/envelope.ts), or the error it reports, made to survive the contextBridge. */
export function unwrapEnvelope(envelope: unknown): unknown {
  const env = envelope as IpcEnvelope | null;
  if (env !== null && typeof env === 'object' && env.ok === true && 'json' in env) return JSON.parse(env.json) as unknown;
  try {
    return resultOf(envelope, 'the Tunebook main process');
  } catch (e) {
    const err = e as TunebookError;
    throw bridgeError(err.code, err.message);
  }
}

export function isApiEvent(name: unknown): name is keyof ApiEvents {
  return typeof name === 'string' && (API_EVENTS as readonly string[]).includes(name);
}

export function buildPreloadApi(ipcRenderer: IpcRendererLike, webUtils: WebUtilsLike): PreloadApi {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of API_METHODS) {
    const channel = methodChannel(name);
    methods[name] = async (...args: unknown[]) => unwrapEnvelope(await ipcRenderer.invoke(channel, ...args));
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
    ...(methods as unknown as Omit<TunebookApi, 'on'>),
    on,
    getPathForFile,
  } satisfies PreloadApi;
  return Object.freeze(api);
}
