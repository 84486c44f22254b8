/**
 * Reading capture files from disk: streamed through the shared CaptureStream in chunks, so a
 * 1 GB iostat log never sits in memory whole. Folders are walked; unreadable files become a
 * `text` capture with a warning rather than an error, because a dropped file is never refused.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { CaptureStream, evaluateFindings } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

export interface ParseFileOptions {
  kind?: string;
  /** called with bytes read so far and the file size */
  onProgress?: (read: number, total: number) => void;
  signal?: AbortSignal;
}

export async function parseFile(file: string, opts: ParseFileOptions = {}): Promise<ParsedCapture> {
  const stream = new CaptureStream({ ...(opts.kind ? { kind: opts.kind } : {}), file: path.basename(file) });
  const total = statSync(file).size;
  const decoder = new StringDecoder('utf8');
  let read = 0;
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  for await (const chunk of input as AsyncIterable<Buffer>) {
    if (opts.signal?.aborted) { input.destroy(); throw new Error('cancelled'); }
    read += chunk.length;
    stream.write(decoder.write(chunk));
    opts.onProgress?.(read, total);
  }
  stream.write(decoder.end());
  return stream.end();
}

export interface FoundFile {
  path: string;
  /** the file's name, with the folders below the one given when it came from a folder (run1/iostat.txt) */
  name: string;
}

/**
 * Expand folders (recursively, skipping dot-files) into the files inside them, sorted. What cannot
 * be read (a missing path, an unreadable folder) is listed in `problems` instead of stopping the walk.
 */
export function walkPaths(paths: readonly string[]): { files: FoundFile[]; problems: { path: string; error: unknown }[] } {
  const files: FoundFile[] = [];
  const problems: { path: string; error: unknown }[] = [];
  // a folder given is the root of its files' names; a file given is named by its base name
  const walk = (p: string, name: string): void => {
    try {
      const st = statSync(p);
      if (st.isDirectory()) {
        for (const child of readdirSync(p).sort()) if (!child.startsWith('.')) walk(path.join(p, child), name ? `${name}/${child}` : child);
      } else if (st.isFile()) {
        files.push({ path: p, name: name || path.basename(p) });
      }
    } catch (error) {
      problems.push({ path: p, error });
    }
  };
  for (const p of paths) walk(p, '');
  return { files, problems };
}

/** Expand folders into the files inside them, sorted; throws on the first path that cannot be read. */
export function expandPaths(paths: readonly string[]): string[] {
  const { files, problems } = walkPaths(paths);
  if (problems.length) throw problems[0]!.error;
  return files.map((f) => f.path);
}

/** Parse several files that belong together; findings see all of them (e.g. sysctl + ss). */
export async function parseFiles(files: readonly string[], opts: ParseFileOptions = {}): Promise<ParsedCapture[]> {
  const parsed: ParsedCapture[] = [];
  for (const f of files) parsed.push(await parseFile(f, opts));
  const findings = evaluateFindings(parsed);
  parsed.forEach((p, i) => { p.findings = findings[i]!; });
  return parsed;
}
