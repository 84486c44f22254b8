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

/** Expand folders (recursively, skipping dot-files) into the files inside them, sorted. */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) if (!name.startsWith('.')) walk(path.join(p, name));
    } else if (st.isFile()) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p);
  return out;
}

/** Parse several files that belong together; findings see all of them (e.g. sysctl + ss). */
export async function parseFiles(files: readonly string[], opts: ParseFileOptions = {}): Promise<ParsedCapture[]> {
  const parsed: ParsedCapture[] = [];
  for (const f of files) parsed.push(await parseFile(f, opts));
  const findings = evaluateFindings(parsed);
  parsed.forEach((p, i) => { p.findings = findings[i]!; });
  return parsed;
}
