/**
 * The one TunebookApi the renderer uses: the preload's `window.tunebook` inside Electron, the HTTP
 * client in browser mode (`tunebook serve`). The UI never knows which host it has; with either,
 * a failed call rejects with a TunebookError carrying the host's code and message.
 */
import { API_METHODS, TunebookError, decodeErrorMessage, isErrorCode } from '../../../shared/api';
import type { ApiMethodName, ErrorCode, TunebookApi } from '../../../shared/api';
import { createHttpClient, createUploader, downloadUrl } from './httpClient';
import type { Uploader } from './httpClient';

let instance: TunebookApi | null = null;

export function getApi(): TunebookApi {
  instance ??= window.tunebook ? fromBridge(window.tunebook) : createHttpClient();
  return instance;
}

let uploader: Uploader | null | undefined;

/**
 * How a dropped File reaches the back end: null inside Electron (the preload gives its path and the
 * back end reads it from disk), an HTTP upload in browser mode.
 */
export function getUploader(): Uploader | null {
  if (uploader === undefined) uploader = window.tunebook ? null : createUploader();
  return uploader;
}

/** Start the browser's download of an exported file (browser mode). */
export function startDownload(id: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = downloadUrl(id);
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Errors that cross Electron's contextBridge keep only their message (custom properties and the
 * class are dropped), so the preload writes the code into it as "[code] message"; read it back.
 */
export function toTunebookError(e: unknown): TunebookError {
  if (e instanceof TunebookError) return e;
  const raw = e && typeof e === 'object' ? e as { code?: unknown; message?: unknown } : { message: String(e) };
  let message = typeof raw.message === 'string' && raw.message ? raw.message : String(e);
  // ipcRenderer.invoke, if an error ever escapes the envelope: "Error invoking remote method 'x': Error: …"
  message = message.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, '');
  let code: ErrorCode = isErrorCode(raw.code) ? raw.code : 'internal';
  const prefixed = decodeErrorMessage(message);
  if (prefixed) ({ code, message } = prefixed);
  return new TunebookError(code, message);
}

function fromBridge(bridge: TunebookApi): TunebookApi {
  const api: Record<string, unknown> = { on: ((event, listener) => bridge.on(event, listener)) satisfies TunebookApi['on'] };
  for (const name of API_METHODS) {
    const fn = (bridge as unknown as Record<ApiMethodName, (...args: unknown[]) => Promise<unknown>>)[name];
    api[name] = async (...args: unknown[]) => {
      try { return await fn(...args); } catch (e) { throw toTunebookError(e); }
    };
  }
  return api as unknown as TunebookApi;
}

/** Message and code of anything a call threw, for display. */
export function describeError(e: unknown): { code: string; message: string } {
  const err = toTunebookError(e);
  return { code: err.code, message: err.message };
}
