/**
 * The one TunebookApi the renderer uses: the preload's `window.tunebook` inside Electron, the HTTP
 * client in browser mode (`tunebook serve`). The UI never knows which host it has; with either,
 * a failed call rejects with a TunebookError carrying the host's code and message.
 */
import { API_METHODS, TunebookError } from '../../../shared/api';
import type { TunebookApi } from '../../../shared/api';
import { resultOf, type BridgeApi } from '../../../shared/envelope';
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

/** Anything a call threw, as a TunebookError (a failure outside the contract, such as a bug, is `internal`). */
export function toTunebookError(e: unknown): TunebookError {
  if (e instanceof TunebookError) return e;
  return new TunebookError('internal', e instanceof Error ? e.message : String(e));
}

/** The preload's methods answer with the envelope (shared/envelope.ts); the UI gets the result or a TunebookError. */
function fromBridge(bridge: BridgeApi<File>): TunebookApi {
  const api: Record<string, unknown> = { on: ((event, listener) => bridge.on(event, listener)) satisfies TunebookApi['on'] };
  for (const name of API_METHODS) {
    const fn = bridge[name] as (...args: unknown[]) => Promise<unknown>;
    api[name] = async (...args: unknown[]) => resultOf(await fn(...args), 'the Tunebook main process');
  }
  return api as unknown as TunebookApi;
}

/** Message and code of anything a call threw, for display. */
export function describeError(e: unknown): { code: string; message: string } {
  const err = toTunebookError(e);
  return { code: err.code, message: err.message };
}
