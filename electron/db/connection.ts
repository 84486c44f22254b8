/**
 * The one owner of better-sqlite3 in Tunebook: opening a notebook file, checking it, migrating it.
 * Everything else receives a `Db` and runs queries on it.
 */
import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, mkdirSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { TunebookError } from '../../shared/api';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations/index';
import { isDiskFull, isReadOnlyError } from './diskFull';

export type Db = Database.Database;

const SQLITE_MAGIC = 'SQLite format 3\u0000';

function nativeBinding(): { nativeBinding?: string } {
  // In Electron the main process loads a better-sqlite3 build for Electron's ABI (scripts/start.mjs).
  const binding = process.env.TUNEBOOK_SQLITE_BINDING;
  return binding ? { nativeBinding: binding } : {};
}

function looksLikeSqlite(file: string): boolean {
  if (statSync(file).size === 0) return true; // an empty file becomes a new notebook
  const buf = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try { readSync(fd, buf, 0, 16, 0); } finally { closeSync(fd); }
  return buf.toString('latin1') === SQLITE_MAGIC;
}

/** Read the schema version without writing anything (WAL mode would otherwise touch the file). */
function peekVersion(file: string): { version: number; isTunebook: boolean; hasTables: boolean } {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...nativeBinding() });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[];
    let isTunebook = false;
    if (tables.some((t) => t.name === 'meta')) {
      const row = db.prepare(`SELECT value FROM meta WHERE key = 'application'`).get() as { value: string } | undefined;
      isTunebook = row?.value === 'tunebook';
    }
    return { version, isTunebook, hasTables: tables.length > 0 };
  } finally {
    db.close();
  }
}

/** The refusal to open a notebook on a full disk; `cause` keeps the disk's error, so a caller can say it its own way. */
function diskFullRefusal(abs: string, cause: unknown): TunebookError {
  const err = new TunebookError('refused', `The disk holding ${abs} is full: the notebook could not be opened and was left untouched. Free some space and try again.`);
  (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

export interface OpenOptions {
  /** create the file when it does not exist (else: not-found) */
  create?: boolean;
  /** run migrations only up to this version (tests of upgrades) */
  targetVersion?: number;
  migrations?: readonly Migration[];
}

/**
 * Open a notebook. A missing file is created when `create`; a file written by a newer Tunebook, a
 * non-SQLite file or another application's database is refused with a clear message and left untouched.
 */
export function openNotebookDb(file: string, opts: OpenOptions = {}): Db {
  const migrations = opts.migrations ?? MIGRATIONS;
  const latest = opts.targetVersion ?? (migrations === MIGRATIONS ? LATEST_VERSION : migrations.length);
  const abs = path.resolve(file);
  if (existsSync(abs)) {
    if (!statSync(abs).isFile()) throw new TunebookError('invalid', `${abs} is not a file`);
    // /proc and /sys hold the kernel's files: never a notebook, whatever their size says
    if (/^\/(proc|sys)\//.test(abs)) throw new TunebookError('refused', `${abs} is a file of the kernel, not a Tunebook notebook; it was left untouched`);
    // an empty file (or one like /proc/self/environ that says it is) becomes a notebook only when asked to create one
    if (statSync(abs).size === 0 && !opts.create) throw new TunebookError('refused', `${abs} is empty, not a Tunebook notebook; it was left untouched`);
    if (!looksLikeSqlite(abs)) throw new TunebookError('refused', `${abs} is not a Tunebook notebook (not an SQLite database); it was left untouched`);
    if (statSync(abs).size > 0) {
      let peek;
      try { peek = peekVersion(abs); } catch (e) {
        if (isDiskFull(e)) throw diskFullRefusal(abs, e);
        if (isReadOnly(e, abs)) throw readOnlyRefusal(abs);
        throw new TunebookError('refused', `${abs} could not be read as a notebook (${e instanceof Error ? e.message : String(e)}); it was left untouched`);
      }
      if (peek.version > latest) {
        throw new TunebookError('refused', `${path.basename(abs)} was written by a newer version of Tunebook (notebook schema ${peek.version}; this app reads up to ${latest}). Update Tunebook to open it. The file was left untouched.`);
      }
      if (peek.hasTables && !peek.isTunebook) {
        throw new TunebookError('refused', `${abs} is an SQLite database of another application, not a Tunebook notebook; it was left untouched`);
      }
    }
  } else if (!opts.create) {
    throw new TunebookError('not-found', `no notebook at ${abs}`);
  } else {
    try {
      mkdirSync(path.dirname(abs), { recursive: true });
    } catch (e) {
      if (isDiskFull(e)) throw diskFullRefusal(abs, e);
      throw new TunebookError('refused', `the folder for ${abs} could not be made (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  let db: Db;
  try {
    db = new Database(abs, nativeBinding());
  } catch (e) {
    if (isDiskFull(e)) throw diskFullRefusal(abs, e);
    if (isReadOnly(e, abs)) throw readOnlyRefusal(abs);
    throw new TunebookError('refused', `${abs} could not be opened (${e instanceof Error ? e.message : String(e)})`);
  }
  let from = 0;
  let backup: string | null = null;
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    from = schemaVersion(db);
    // an upgrade of a notebook that holds data starts from a copy of it (kept: the way back)
    if (from > 0 && from < latest) backup = backupBeforeUpgrade(db, abs, from);
    migrate(db, migrations, latest);
  } catch (e) {
    db.close();
    if (e instanceof TunebookError) throw e;
    if (isReadOnly(e, abs)) throw readOnlyRefusal(abs);
    if (isDiskFull(e)) throw diskFullRefusal(abs, e);
    if (backup) {
      throw new TunebookError('internal', `upgrading ${path.basename(abs)} from notebook schema ${from} to ${latest} failed (${e instanceof Error ? e.message : String(e)}); it was left as it was, and the copy taken before the upgrade is at ${backup}`);
    }
    throw e;
  }
  return db;
}

function readOnlyRefusal(abs: string): TunebookError {
  return new TunebookError('refused', `${abs} is read-only (or its folder is): Tunebook writes to its notebook as you work. Make it writable, or copy it to a folder you can write to. It was left unchanged.`);
}

/** A failure to open or write that comes from the file or its folder being read-only (a read-only mount, no write permission). */
function isReadOnly(e: unknown, abs: string): boolean {
  if (isReadOnlyError(e)) return true;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (code !== 'SQLITE_CANTOPEN' && code !== 'EACCES' && code !== 'EPERM') return false;
  try {
    accessSync(path.dirname(abs), constants.W_OK);
    if (existsSync(abs)) accessSync(abs, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/**
 * A copy of the notebook as it is before an upgrade, beside it as `<file>.schema-<n>.bak`: written
 * whole to a temporary name first (VACUUM INTO: a consistent copy, also of what sits in the WAL),
 * then renamed, so a copy under that name is always complete. Refused, with nothing changed, when
 * the disk cannot hold it.
 */
export function backupBeforeUpgrade(db: Db, abs: string, from: number): string {
  const backup = `${abs}.schema-${from}.bak`;
  const partial = `${backup}.partial`;
  rmSync(partial, { force: true });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    renameSync(partial, backup);
  } catch (e) {
    rmSync(partial, { force: true });
    if (isDiskFull(e)) {
      throw new TunebookError('refused', `${path.basename(abs)} needs an upgrade, and a copy of it is taken first, but the disk is full. Free about ${Math.ceil(statSync(abs).size / 1024 / 1024)} MiB and open it again; it was left unchanged.`);
    }
    throw new TunebookError('refused', `${path.basename(abs)} needs an upgrade, and the copy taken first could not be written beside it (${e instanceof Error ? e.message : String(e)}); it was left unchanged.`);
  }
  return backup;
}

/**
 * Apply every pending migration, all in one transaction: the notebook is upgraded whole or, if any
 * step fails (or the process is killed), stays at the version it had. Returns the version reached.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS, target = migrations.length): number {
  return db.transaction(() => {
    let version = db.pragma('user_version', { simple: true }) as number;
    for (const m of migrations) {
      if (m.version <= version || m.version > target) continue;
      if (m.version !== version + 1) throw new Error(`cannot migrate from schema ${version} to ${m.version}`);
      db.exec(m.up);
      m.run?.(db);
      db.pragma(`user_version = ${m.version}`);
      version = m.version;
    }
    return version;
  }).immediate();
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}
