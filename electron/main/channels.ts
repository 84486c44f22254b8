/**
 * IPC channel names shared by the main-process wrapper (ipc.ts) and the preload (preloadApi.ts).
 * Every contract method travels on `tunebook:<method>`, every event on `tunebook:event:<name>`.
 * Results come back as an envelope because Electron drops custom properties (like `code`) of
 * errors thrown from an `ipcMain.handle` handler.
 */
import type { ApiEnvelope } from '../../shared/envelope';

export const METHOD_CHANNEL_PREFIX = 'tunebook:';
export const EVENT_CHANNEL_PREFIX = 'tunebook:event:';

/** The origin the renderer is served from (protocol.ts). */
export const APP_SCHEME = 'tunebook';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export function methodChannel(method: string): string {
  return METHOD_CHANNEL_PREFIX + method;
}

export function eventChannel(event: string): string {
  return EVENT_CHANNEL_PREFIX + event;
}

/** The API's envelope (shared/envelope.ts), or a result the read worker serialised, which the preload parses (off the main process). */
export type IpcEnvelope<T = unknown> = ApiEnvelope<T> | { ok: true; json: string };
