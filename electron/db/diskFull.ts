/**
 * Whether an error means the disk (or quota) is full. SQLite says so as SQLITE_FULL, and with less
 * than 32 KiB free it already fails to size its shared-memory file (SQLITE_IOERR_SHMSIZE); Node as
 * ENOSPC/EDQUOT. One rule for the notebook's opening and for storing captures.
 */
export function isDiskFull(e: unknown): boolean {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const message = e instanceof Error ? e.message : String(e);
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE'
    || /database or disk is full|no space left/i.test(message);
}

/**
 * Whether an error says the notebook cannot be written because it, or its file system, is
 * read-only (SQLite's SQLITE_READONLY*, Node's EROFS). One rule for opening a notebook and for
 * storing captures.
 */
export function isReadOnlyError(e: unknown): boolean {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const message = e instanceof Error ? e.message : String(e);
  return code === 'EROFS' || code.startsWith('SQLITE_READONLY') || /readonly database|read-only file system/i.test(message);
}
