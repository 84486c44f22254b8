/**
 * Which paths on the host a client may name. The desktop app and the CLI act for the person at the
 * machine and may name any file. Browser mode serves a page that receives files by upload: over
 * HTTP, a method that takes a path reads or opens only under folders the user allowed when starting
 * `tunebook serve` (--allow-dir), and notebooks are opened or created only beside the one it serves.
 * Paths are compared after symlinks are resolved, so a link inside an allowed folder cannot lead out.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { TunebookError } from '../../shared/api';

export interface PathAccess {
  /** folders whose files (and subfolders) a client may read: captures, bundles; none by default */
  readDirs: readonly string[];
  /** folders where a client may open or create a notebook: the served notebook's own folder, and readDirs */
  notebookDirs: readonly string[];
}

/**
 * Where the path really points: symlinks resolved; for a file not yet made, its folder resolved;
 * a link to nowhere (yet), where it would lead once written through.
 */
function realTarget(p: string, hops = 0): string {
  try {
    return realpathSync.native(p);
  } catch {
    if (hops > 40) return p; // a loop of links: refused below unless it lies inside an allowed folder
    try {
      if (lstatSync(p).isSymbolicLink()) return realTarget(path.resolve(path.dirname(p), readlinkSync(p)), hops + 1);
    } catch {
      // does not exist: resolve its folder
    }
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(realTarget(parent, hops + 1), path.basename(p));
  }
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The access `tunebook serve` gives: reads under `allowDirs`, notebooks beside `notebook` or under `allowDirs`. */
export function servedAccess(notebook: string, allowDirs: readonly string[]): PathAccess {
  const readDirs = allowDirs.map((d) => realTarget(path.resolve(d)));
  return { readDirs, notebookDirs: [realTarget(path.dirname(path.resolve(notebook))), ...readDirs] };
}

/**
 * Check that a client may use `file` (absolute) for `purpose`; returns it. Refused: a path outside
 * the allowed folders (or any path, when none are allowed), with a message that says how to allow it.
 */
export function allowedPath(access: PathAccess | null, file: string, purpose: 'read' | 'notebook'): string {
  if (!access) return file;
  const dirs = purpose === 'read' ? access.readDirs : access.notebookDirs;
  const real = realTarget(file);
  if (dirs.some((d) => isInside(real, d))) return file;
  if (purpose === 'notebook') {
    throw new TunebookError('refused', `browser mode opens notebooks only in ${dirs.join(' or ')}; ${file} is outside (start \`tunebook serve --allow-dir DIR\` to allow another folder)`);
  }
  throw new TunebookError('refused', dirs.length
    ? `browser mode reads files only under ${dirs.join(', ')}; ${file} is outside. Upload the file instead, or start \`tunebook serve --allow-dir DIR\``
    : `browser mode does not read files on the server by path: upload ${path.basename(file)} instead (or start \`tunebook serve --allow-dir DIR\` to allow a folder)`);
}
