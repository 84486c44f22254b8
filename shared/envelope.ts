/**
 * The one wire form of an answer, wherever a call crosses a boundary — Electron IPC, browser mode's
 * HTTP, a worker thread — and the one pair of functions that turn a thrown error into it and back:
 *
 *   { "ok": true,  "result": … }
 *   { "ok": false, "error": { "code": <ErrorCode>, "message": "…" } }
 *
 * `code` is always one of ERROR_CODES. A TunebookError keeps its code (also one from another realm
 * — a worker, a vm context — recognised by its name); anything else is `internal`, and its message
 * is passed on so a user can report it.
 */
import { TunebookError, isErrorCode, type ApiMethodName, type ApiMethods, type ErrorCode, type TunebookApi } from './api';

export interface ApiSuccess<T = unknown> { ok: true; result: T }
export interface ApiFailure { ok: false; error: { code: ErrorCode; message: string } }
export type ApiEnvelope<T = unknown> = ApiSuccess<T> | ApiFailure;

/** What a host answers when `e` was thrown. */
export function failureOf(e: unknown): ApiFailure {
  if (e instanceof TunebookError) return { ok: false, error: { code: e.code, message: e.message } };
  if (e instanceof Error && e.name === 'TunebookError' && isErrorCode((e as { code?: unknown }).code)) {
    return { ok: false, error: { code: (e as Error & { code: ErrorCode }).code, message: e.message } };
  }
  return { ok: false, error: { code: 'internal', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
}

export function success<T>(result: T): ApiSuccess<T> {
  return { ok: true, result };
}

/**
 * The result an envelope carries, or the TunebookError it reports (thrown). Anything that is not an
 * envelope is a malformed answer from `from` (an internal error).
 */
export function resultOf<T = unknown>(envelope: unknown, from = 'the Tunebook host'): T {
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    const env = envelope as Partial<ApiSuccess<T> & { error: { code?: unknown; message?: unknown } }>;
    if (env.ok === true) return env.result as T;
    const err = env.error;
    if (typeof err === 'object' && err !== null) {
      return throwError(isErrorCode(err.code) ? err.code : 'internal', typeof err.message === 'string' ? err.message : 'Unknown error');
    }
  }
  return throwError('internal', `Malformed reply from ${from}`);
}

function throwError(code: ErrorCode, message: string): never {
  throw new TunebookError(code, message);
}

/**
 * What the Electron preload exposes as `window.tunebook`: each method answers with the envelope
 * itself, never a rejected Error — contextBridge copies a plain object whole but keeps only the
 * message of an Error (electron/electron#25596) — and the renderer reads it with resultOf.
 */
export type BridgeApi<FileT = unknown> = {
  [M in ApiMethodName]: (...args: Parameters<ApiMethods[M]>) => Promise<ApiEnvelope<ReturnType<ApiMethods[M]>>>
} & {
  on: TunebookApi['on'];
  /** absolute path of a dropped or chosen File ('' when it has none, e.g. a pasted blob) */
  getPathForFile(file: FileT): string;
};
