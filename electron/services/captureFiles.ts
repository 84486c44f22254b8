/**
 * Reading capture files from disk: streamed through the shared CaptureStream in chunks, so a
 * 1 GB iostat log never sits in memory whole. Folders are walked; unreadable files become a
 * `text` capture with a warning rather than an error, because a dropped file is never refused.
 */
import { readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
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

/** Read size: 1 MiB pieces, decoded and parsed 64 KiB at a time. */
const READ_BYTES = 1 << 20;
const DECODE_BYTES = 64 * 1024;

export async function parseFile(file: string, opts: ParseFileOptions = {}): Promise<ParsedCapture> {
  const stream = new CaptureStream({ ...(opts.kind ? { kind: opts.kind } : {}), file: path.basename(file) });
  const total = statSync(file).size;
  const decoder = new StringDecoder('utf8');
  let read = 0;
  const input = await open(file, 'r');
  // two buffers: the next piece is read (in the thread pool) while this one is parsed
  const bufs = [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)];
  let which = 0;
  let next: Promise<{ bytesRead: number; buffer: Buffer }> | null = null;
  try {
    next = input.read(bufs[0]!, 0, READ_BYTES, null);
    for (;;) {
      const { bytesRead, buffer } = await next;
      next = null;
      if (bytesRead === 0) break;
      if (opts.signal?.aborted) throw new Error('cancelled');
      which ^= 1;
      next = input.read(bufs[which]!, 0, READ_BYTES, null);
      read += bytesRead;
      // in 64 KiB strings: they die young, where 1 MiB ones would wait in the large-object space for a full GC
      for (let o = 0; o < bytesRead; o += DECODE_BYTES) stream.write(decoder.write(buffer.subarray(o, Math.min(bytesRead, o + DECODE_BYTES))));
      opts.onProgress?.(read, total);
    }
  } finally {
    if (next) await next.catch(() => undefined);
    await input.close();
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
