/**
 * Sending dropped, chosen or pasted captures to the back end's parser (a worker thread there).
 *  - Electron: dropped/chosen files have host paths (`window.tunebook.getPathForFile`), so they go
 *    to parseCaptureFiles in one call: the back end streams them from disk (any size, folders too)
 *    and evaluates findings across the files dropped together (e.g. fio + iostat).
 *  - Browser mode: a page never sees paths, so each file's text is read here and sent with
 *    parseCaptureText, one call per file. Findings are then evaluated per file, not across the
 *    files dropped together — accepted for now (storing captures on an experiment will
 *    evaluate them together on the back end).
 */
import type { TunebookApi } from '../../../../shared/api';
import type { CaptureJson } from '../../../../shared/capture/json';
import { describeError } from '../../api';
import type { Intake } from '../evidence/useImport';

/** parseCaptureText refuses more than this (the back end's MAX_CAPTURE_TEXT). */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

export interface CaptureEntry {
  key: string;
  /** file name (or the name given to pasted text) */
  name: string;
  source: 'file' | 'paste';
  /** the kind the user forced, when not auto-detected */
  forcedKind?: string;
  capture?: CaptureJson;
  error?: string;
  /** the user cancelled the parse this entry was part of */
  cancelled?: boolean;
  /** where its bytes are, to store it on an experiment (absent when a dropped folder's files cannot be told apart) */
  origin?: Intake;
  /** set when `origin` is the whole drop (a folder's files in Electron): entries of one drop share it */
  shared?: string;
}

let nextKey = 1;
const newKey = (): string => `capture-${nextKey++}`;

/** The preload's getPathForFile when running inside Electron, else null (browser mode). */
export function pathResolver(): ((file: File) => string) | null {
  const fn = window.tunebook?.getPathForFile;
  if (typeof fn !== 'function') return null;
  return (file) => {
    try { return fn(file) || ''; } catch { return ''; }
  };
}

function entriesFrom(captures: CaptureJson[], fallbackName: string, source: CaptureEntry['source'], kind: string | undefined): CaptureEntry[] {
  // an entry the back end could not read (a dangling link, a pipe in a folder …) shows why, as an error
  return captures.map((capture) => (capture.skipped ? errorEntry(capture.file || fallbackName, source, capture.skipped, kind) : {
    key: newKey(),
    name: capture.file || fallbackName,
    source,
    ...(kind ? { forcedKind: kind } : {}),
    capture,
  }));
}

function errorEntry(name: string, source: CaptureEntry['source'], error: string, kind: string | undefined): CaptureEntry {
  return { key: newKey(), name, source, error, ...(kind ? { forcedKind: kind } : {}) };
}

export interface ParseProgress { done: number; total: number }

/** Parses files; never throws: a file that cannot be read or parsed becomes an entry with `error`. */
export async function parseFiles(
  api: TunebookApi,
  files: readonly File[],
  kind: string | undefined,
  onProgress?: (p: ParseProgress) => void,
): Promise<CaptureEntry[]> {
  const resolve = pathResolver();
  const withPath: { file: File; path: string }[] = [];
  const withoutPath: File[] = [];
  for (const file of files) {
    const p = resolve ? resolve(file) : '';
    if (p) withPath.push({ file, path: p }); else withoutPath.push(file);
  }
  const total = files.length;
  let done = 0;
  const out: CaptureEntry[] = [];

  if (withPath.length) {
    try {
      const captures = await api.parseCaptureFiles(withPath.map((f) => f.path), kind);
      const entries = entriesFrom(captures, withPath[0]!.file.name, 'file', kind);
      // one capture per path given: each entry knows its file (a folder gives several per path)
      if (entries.length === withPath.length) entries.forEach((e, i) => { e.origin = { paths: [withPath[i]!.path] }; });
      out.push(...entries);
    } catch (e) {
      const err = describeError(e);
      const cancelled = err.code === 'cancelled';
      for (const f of withPath) out.push({ ...errorEntry(f.file.name, 'file', cancelled ? CANCELLED : err.message, kind), ...(cancelled ? { cancelled } : {}) });
    }
    done += withPath.length;
    onProgress?.({ done, total });
  }

  // Browser mode (or a File with no path): one parseCaptureText per file, so findings are not
  // cross-evaluated between files dropped together (see the module comment).
  for (const [i, file] of withoutPath.entries()) {
    const entries = await parseOneFileAsText(api, file, kind);
    out.push(...entries);
    done++;
    onProgress?.({ done, total });
    if (entries.some((e) => e.cancelled)) {
      // the user cancelled: the files not parsed yet are not started
      for (const rest of withoutPath.slice(i + 1)) out.push({ ...errorEntry(rest.name, 'file', CANCELLED, kind), cancelled: true });
      break;
    }
  }
  return out;
}

const CANCELLED = 'Parsing was cancelled.';

async function parseOneFileAsText(api: TunebookApi, file: File, kind: string | undefined): Promise<CaptureEntry[]> {
  if (file.size > MAX_TEXT_BYTES) {
    return [errorEntry(file.name, 'file', `${file.name} is ${(file.size / 2 ** 20).toFixed(1)} MiB; in the browser a capture can be at most 64 MiB. Use the desktop app or \`tunebook parse\` for larger files.`, kind)];
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    return [errorEntry(file.name, 'file', `Could not read ${file.name} (is it a folder? Drop the files inside it, or the folder itself onto the drop zone).`, kind)];
  }
  try {
    return entriesFrom(await api.parseCaptureText(file.name, text, kind), file.name, 'file', kind).map((e) => ({ ...e, origin: { files: [file] } }));
  } catch (e) {
    const err = describeError(e);
    if (err.code === 'cancelled') return [{ ...errorEntry(file.name, 'file', CANCELLED, kind), cancelled: true }];
    return [errorEntry(file.name, 'file', err.message, kind)];
  }
}

/** Parses pasted text; never throws. */
export async function parsePasted(api: TunebookApi, name: string, text: string, kind: string | undefined): Promise<CaptureEntry[]> {
  try {
    return entriesFrom(await api.parseCaptureText(name, text, kind), name, 'paste', kind).map((e) => ({ ...e, origin: { text, name } }));
  } catch (e) {
    return [errorEntry(name, 'paste', describeError(e).message, kind)];
  }
}

/**
 * The files of a drop. Inside Electron the dropped Files themselves are used (a folder's File has a
 * path, and the back end walks it). In a browser, folders are walked here through the entries API
 * (dot-files skipped, as the back end does), since a folder's File cannot be read.
 */
export async function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const plain = Array.from(dt.files);
  if (pathResolver()) return plain;
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
  }
  if (!entries.length || !entries.some((e) => e.isDirectory)) return plain;
  const out: File[] = [];
  for (const entry of entries) await walkEntry(entry, out);
  return out;
}

async function walkEntry(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.name.startsWith('.')) return;
  if (entry.isFile) {
    const file = await new Promise<File | null>((resolve) => (entry as FileSystemFileEntry).file(resolve, () => resolve(null)));
    if (file) out.push(file);
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (!batch.length) break;
    children.push(...batch);
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const child of children) await walkEntry(child, out);
}
