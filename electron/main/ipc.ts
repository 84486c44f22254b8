/**
 * The one bridge from the renderer to the back end: every TunebookApi method is registered on
 * `tunebook:<method>` through a single wrapper around `ipcMain.handle`, which
 *   1. checks the channel prefix and that the method is in API_METHODS,
 *   2. checks the sender (security checklist item 17): the main frame of our window, showing
 *      tunebook://app/…,
 *   3. answers with an envelope `{ ok: true, result }` / `{ ok: false, error: { code, message } }`
 *      — Electron keeps only `message` of an error thrown from a handler, so TunebookError's `code`
 *      would be lost; the preload turns the envelope back into an Error with `code`.
 * Back-end events are forwarded with `webContents.send('tunebook:event:<name>', payload)`.
 * Electron objects are passed in (structural types), so this module runs under vitest.
 */
import type { ApiEvents, ApiMethodName } from '../../shared/api';
import { API_EVENTS, API_METHODS, isApiMethod } from '../../shared/api';
import { failureOf } from '../../shared/envelope';
import { JsonText } from '../services/workerReads';
import type { IpcEnvelope } from './channels';
import { METHOD_CHANNEL_PREFIX, eventChannel, methodChannel } from './channels';
import { isAppUrl } from './security';

/** What ipc.ts needs of the lead's `Backend` (electron/services/backend.ts). */
export interface BackendLike {
  call(method: ApiMethodName, args: unknown[]): unknown;
  on<E extends keyof ApiEvents>(event: E, fn: (payload: ApiEvents[E]) => void): () => void;
}

/** The parts of IpcMainInvokeEvent the checks read. */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown; frameTreeNodeId: number } | null;
}

/** The parts of our window's WebContents the checks and the event forwarding use. */
export interface AppWebContentsLike {
  id: number;
  mainFrame: { frameTreeNodeId: number };
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type GetAppWebContents = () => AppWebContentsLike | null;

/**
 * Item 17: accept only the main frame of our own window while it shows our app. A sub-frame
 * (there should be none: frame-src 'none'), another window, a frame that navigated away, or a
 * frame that is already gone (senderFrame null) is refused.
 */
export function isTrustedSender(event: InvokeEventLike, getWebContents: GetAppWebContents): boolean {
  const wc = getWebContents();
  if (wc === null || wc.isDestroyed()) return false;
  const frame = event.senderFrame;
  if (frame === null || frame === undefined) return false;
  if (event.sender.id !== wc.id) return false;
  if (frame.parent !== null) return false;
  if (frame.frameTreeNodeId !== wc.mainFrame.frameTreeNodeId) return false;
  return isAppUrl(frame.url);
}

export interface HandleInvokeDeps {
  backend: BackendLike;
  getWebContents: GetAppWebContents;
  /** reports unexpected (non-TunebookError) failures and refused senders; console.error by default */
  log?: (message: string, err?: unknown) => void;
}

/** The body of every handler: channel and sender checks, the call, the envelope. */
export async function handleInvoke(channel: string, event: InvokeEventLike, args: unknown[], deps: HandleInvokeDeps): Promise<IpcEnvelope> {
  const log = deps.log ?? ((m: string, e?: unknown) => console.error(m, e ?? ''));
  if (!channel.startsWith(METHOD_CHANNEL_PREFIX)) {
    return { ok: false, error: { code: 'refused', message: `Unknown channel ${channel}` } };
  }
  const method = channel.slice(METHOD_CHANNEL_PREFIX.length);
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'refused', message: `Unknown method ${method}` } };
  }
  if (!isTrustedSender(event, deps.getWebContents)) {
    log(`tunebook: refused IPC ${channel} from an untrusted frame (${event.senderFrame?.url ?? 'gone'})`);
    return { ok: false, error: { code: 'refused', message: 'Refused: the request did not come from the Tunebook window' } };
  }
  if (!Array.isArray(args)) {
    return { ok: false, error: { code: 'invalid', message: 'Arguments must be an array' } };
  }
  try {
    const result = await deps.backend.call(method, args);
    return result instanceof JsonText ? { ok: true, json: result.json } : { ok: true, result };
  } catch (err) {
    const failure = failureOf(err);
    if (failure.error.code === 'internal') log(`tunebook: ${method} failed`, err);
    return failure;
  }
}

/** Registers every API method; returns a function that removes the handlers again. */
export function registerApiHandlers(ipcMain: IpcMainLike, deps: HandleInvokeDeps): () => void {
  const channels = API_METHODS.map((m) => methodChannel(m));
  for (const channel of channels) {
    ipcMain.handle(channel, (event, ...args) => handleInvoke(channel, event, args, deps));
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/** Forwards every back-end event to the window (when there is one); returns an unsubscribe. */
export function forwardEvents(backend: BackendLike, getWebContents: GetAppWebContents): () => void {
  const offs = API_EVENTS.map((name) =>
    backend.on(name, (payload: ApiEvents[typeof name]) => {
      const wc = getWebContents();
      if (wc !== null && !wc.isDestroyed()) wc.send(eventChannel(name), payload);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
