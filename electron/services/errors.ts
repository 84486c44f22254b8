/** Errors as they cross a boundary (IPC, HTTP, a worker), and the store's failures in words a user can act on. */
import { TunebookError } from '../../shared/api';
import { isDiskFull } from '../db/diskFull';

/**
 * Turn anything thrown into the wire form (ApiErrorBody['error']). A TunebookError keeps its code
 * (also one from another realm, recognised by name); anything else is an internal error, logged
 * by the caller, whose message is passed on so a user can report it.
 */
export function toErrorBody(e: unknown): { code: string; message: string } {
  if (e instanceof TunebookError) return { code: e.code, message: e.message };
  if (e instanceof Error && e.name === 'TunebookError' && typeof (e as { code?: unknown }).code === 'string') {
    return { code: (e as Error & { code: string }).code, message: e.message };
  }
  return { code: 'internal', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
}

/**
 * A failure while storing `what` into the notebook, said plainly: a full disk, a read-only file or
 * folder, a file that cannot be read. SQLite's and Node's codes both arrive here. Nothing of `what`
 * was written when this is thrown (the transaction rolled back), so the message says so.
 */
export function storeError(e: unknown, what: string): TunebookError {
  // a notebook that could not even be opened for the disk being full: the same words as a failed write
  const cause = (e as { cause?: unknown } | null)?.cause;
  if (e instanceof TunebookError && cause !== undefined && isDiskFull(cause)) return storeError(cause, what);
  if (e instanceof TunebookError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const detail = e instanceof Error ? e.message : String(e);
  if (isDiskFull(e)) {
    return new TunebookError('refused', `The disk is full: ${what} was not stored and the notebook is unchanged. Free some space and try again.`);
  }
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY') || /readonly|read-only/i.test(detail)) {
    return new TunebookError('refused', `The notebook cannot be written (read-only): ${what} was not stored.`);
  }
  if (code === 'ENOENT') return new TunebookError('not-found', `${what} does not exist (it may have been moved or deleted).`);
  if (code === 'EACCES' || code === 'EPERM') return new TunebookError('refused', `${what} cannot be read: permission denied.`);
  if (code === 'EISDIR') return new TunebookError('invalid', `${what} is a folder, not a file.`);
  if (code.startsWith('SQLITE_IOERR')) {
    return new TunebookError('refused', `The notebook could not be written (${detail}): ${what} was not stored and the notebook is unchanged.`);
  }
  return new TunebookError('internal', `${what} could not be stored: ${detail}`);
}

/** A failure while writing an export to `target`, said plainly; nothing is left behind when this is thrown. */
export function exportError(e: unknown, target: string): TunebookError {
  if (e instanceof TunebookError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const detail = e instanceof Error ? e.message : String(e);
  if (isDiskFull(e)) return new TunebookError('refused', `The disk is full: ${target} was not written. Free some space and try again.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new TunebookError('refused', `${target} cannot be written: permission denied.`);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new TunebookError('not-found', `${target} cannot be written: its folder does not exist.`);
  if (code === 'EISDIR') return new TunebookError('invalid', `${target} is a folder; choose a file name.`);
  return new TunebookError('internal', `${target} could not be written: ${detail}`);
}
