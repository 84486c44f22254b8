/**
 * A plain zip of a few files (browser mode downloads a Markdown report and its chart images as one
 * file), with yazl: the same well-kept library the bundle archive uses.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

export async function zipFiles(out: string, files: readonly { file: string; name: string }[]): Promise<void> {
  const zip = new ZipFile();
  for (const f of files) zip.addFile(f.file, f.name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
}
