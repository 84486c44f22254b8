/**
 * The example notebook: the three case studies Tunebook was shaped by, with their hardware
 * profiles, config changes, results and real captures (EXAMPLE_CAPTURES, recorded with the real
 * tools; case C's are the original write-up's own output). `tunebook example -o FILE` writes it;
 * the app opens a copy in its own folder (Backend.openExample), never touching the user's notebook.
 */
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ImportSource } from '../../../shared/model';
import type { BackendApi } from '../backend';
import { openNotebookDb } from '../../db/connection';
import { EXAMPLE_CAPTURES, type ExampleCaptureName } from './captures';
import { buildCaseA, buildCaseB, buildCaseC, type AnyApi } from './caseStudies';

export const EXAMPLE_FILE_NAME = 'Example notebook.tunebook';

const capture = (name: ExampleCaptureName): ImportSource => ({ text: EXAMPLE_CAPTURES[name].text, name });

/** Store `names` on the experiment titled `title` of `studyId`, each with a note that says where it came from. */
async function attach(api: BackendApi, studyId: number, title: string, names: ExampleCaptureName[], note: string): Promise<void> {
  const e = api.studyOutline(studyId).experiments.find((x) => x.title === title);
  if (!e) throw new Error(`the example has no experiment "${title}"`);
  const r = await api.importCaptures(e.id, names.map(capture));
  if (r.failed.length) throw new Error(`the example's captures could not be stored: ${r.failed.map((f) => `${f.name}: ${f.message}`).join('; ')}`);
  for (const c of r.imported) api.updateCaptureLink(c.linkId, { note: `${note} Recorded with: ${EXAMPLE_CAPTURES[c.name as ExampleCaptureName].command}` });
}

/** Build the three case studies into the notebook `api` serves. Returns their ids (A, B, C). */
export async function buildExample(api: BackendApi): Promise<number[]> {
  const any = api as unknown as AnyApi;
  const a = await buildCaseA(any);
  await attach(api, a, 'Baseline', ['strace-c-f-python-stat-storm.txt', 'interrupts-two-snapshots-sched-messaging.txt'],
    'The same symptoms recorded on a test VM (the original server\'s output was not kept): a stat() storm in strace -c, rescheduling IPIs (RES) rising fastest in /proc/interrupts.');
  const b = await buildCaseB(any);
  await attach(api, b, 'TIME_WAIT: tw_reuse, port range, buckets', ['ss-state-tw.txt', 'ss-s.txt'],
    'TIME_WAIT sockets piling up under short connections, recorded on a test VM with ab against a local server.');
  const c = await buildCaseC(any, capture);
  for (const e of api.getStudy(c).experiments) {
    for (const l of e.captures) {
      const known = EXAMPLE_CAPTURES[l.name as ExampleCaptureName];
      if (known) api.updateCaptureLink(l.linkId, { note: `The original write-up's own output. Recorded with: ${known.command}` });
    }
  }
  await attach(api, c, 'random writes', ['fdisk-l-vda.txt', 'tune2fs-block-size.txt'], 'The disk of the case study: vda, 512-byte sectors, 4 KiB blocks.');
  return [a, b, c];
}

/**
 * Write the example notebook to `file`: built in a scratch notebook beside it, then copied whole
 * (VACUUM INTO, which reads through SQLite, so nothing still in a WAL is lost) to a temporary name
 * and renamed, so a failure or a kill never leaves a half-built example under `file`. `open` makes
 * a Backend on a notebook path.
 */
export async function writeExample(file: string, open: (notebook: string) => { api: BackendApi; close(): void }): Promise<void> {
  const scratch = path.join(path.dirname(file), `.${path.basename(file)}.build-${process.pid}`);
  const copy = `${scratch}.copy`;
  const clean = () => { for (const f of [scratch, `${scratch}-wal`, `${scratch}-shm`, copy]) rmSync(f, { force: true }); };
  clean();
  const backend = open(scratch);
  try {
    await buildExample(backend.api);
    backend.close();
    const db = openNotebookDb(scratch, { create: false });
    try { db.prepare('VACUUM INTO ?').run(copy); } finally { db.close(); }
    renameSync(copy, file);
  } catch (e) {
    backend.close();
    throw e;
  } finally {
    clean();
  }
}
