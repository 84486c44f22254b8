/** The store's and the exports' failures in words a user can act on (errors cross boundaries in shared/envelope.ts). */
import { TunebookError } from '../../shared/api';
import { isDiskFull, isReadOnlyError } from '../db/diskFull';

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
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new TunebookError('refused', `The notebook is busy: another program has held its write lock for more than 5 s. ${what} was not stored; try again.`);
  }
  if (isDiskFull(e)) {
    return new TunebookError('refused', `The disk is full: ${what} was not stored and the notebook is unchanged. Free some space and try again.`);
  }
  if (isReadOnlyError(e) || /readonly|read-only/i.test(detail)) {
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
