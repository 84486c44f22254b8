/**
 * The CLI's commands on a notebook (serve, import, show, cat, report, import-bundle, reparse,
 * vacuum, example): main.ts loads this module only for them, so that `tunebook parse` and `--help`
 * start without the notebook layer (SQLite, the HTTP host, the report writers: ~40 ms of a start).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Backend, NOTEBOOK_EXTENSION, defaultNotebookPath } from '../services/backend';
import { writeExample } from '../services/example/example';
import { isLoopback, startHttpHost } from '../host/httpHost';
import { servedAccess } from '../services/hostPaths';
import { userDataDir } from '../services/paths';
import { isDiskFull } from '../db/diskFull';
import { TunebookError } from '../../shared/api';
import { REPORT_FORMATS } from '../../shared/model';
import type { BundleImportResult, ExportResult, ImportResult, ReportFormat, ResultMetric, StudySummary } from '../../shared/model';
import { showStudyJson } from '../../shared/showJson';
import { formatNumber, formatQuantity, parseQuantity } from '../../shared/units';
import { formatPercent, plural } from '../../shared/format';
import { checkKind, oneLine } from './common';

function rendererDir(): string {
  // dist/cli.cjs → dist/renderer
  return path.join(__dirname, 'renderer');
}

export async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: {
    notebook: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'no-open': { type: 'boolean' }, 'max-upload': { type: 'string' },
    'allow-dir': { type: 'string', multiple: true }, 'allow-host': { type: 'string', multiple: true },
  } });
  const maxUpload = values['max-upload'] === undefined ? undefined : parseQuantity(values['max-upload'], 'MiB');
  if (maxUpload === null || (maxUpload && (maxUpload.unit !== 'B' || !(maxUpload.value > 0)))) {
    throw new TunebookError('invalid', `--max-upload takes a size such as 8GiB or 500MiB, not "${values['max-upload']}"`);
  }
  const data = userDataDir();
  const notebookPath = path.resolve(values.notebook ?? defaultNotebookPath(data));
  const port = values.port === undefined ? 4750 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TunebookError('invalid', `--port must be a number from 0 to 65535, not "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  // the reads that grow with the notebook run in a worker: the server answers other requests meanwhile
  const allowDirs = (values['allow-dir'] ?? []).map((d) => path.resolve(d));
  for (const d of allowDirs) if (!existsSync(d) || !statSync(d).isDirectory()) throw new TunebookError('invalid', `--allow-dir ${d}: no such folder`);
  const backend = new Backend({
    notebookPath, userDataDir: data, readWorkerFile: path.join(__dirname, 'readWorker.cjs'), watchOtherWriters: true,
    // the page receives files by upload; it reads host paths only under folders the user names
    pathAccess: servedAccess(notebookPath, allowDirs),
  });
  const http = await startHttpHost({ backend, rendererDir: rendererDir(), host, port, allowHosts: values['allow-host'] ?? [], ...(maxUpload ? { maxUploadBytes: maxUpload.value } : {}) });
  if (!existsSync(path.join(rendererDir(), 'index.html'))) console.error('warning: the UI is not built (run `npm run build`); only the API is served');
  if (!isLoopback(host)) {
    console.error([
      '', `WARNING: listening on ${host}, not only on this machine.`,
      '  Anyone who can reach this address and has the token (it is in the URL below) can read and change',
      '  every study of this notebook. Share the URL only with people you trust, over a network you trust;',
      '  the connection is plain HTTP (not encrypted). Stop with Ctrl+C when done.', '',
    ].join('\n'));
  }
  if (allowDirs.length) console.error(`The page may read files under: ${allowDirs.join(', ')}`);
  console.log(`Notebook: ${notebookPath}`);
  console.log(`Tunebook is running at ${http.openUrl}`);
  console.log('Open that URL in a browser (the token in it is required). Press Ctrl+C to stop.');
  const stop = (): void => {
    void http.close().then(() => { backend.close(); process.exit(0); });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The notebook a command works on: --notebook, or the app's default one. */
function notebookFile(value: string | undefined): string {
  return path.resolve(value ?? defaultNotebookPath(userDataDir()));
}

/**
 * Open the notebook (created when missing). What the notebook layer does not already say plainly
 * (a lock held by another program, a file SQLite cannot open such as /proc/self/environ, a full
 * disk) becomes one sentence naming the file.
 */
function openBackend(file: string): Backend {
  try {
    return new Backend({ notebookPath: file, userDataDir: userDataDir() });
  } catch (e) {
    // a full disk in the words storing uses ("The disk is full: …"), whichever layer noticed it
    const cause = (e as { cause?: unknown } | null)?.cause;
    if (isDiskFull(e) || (e instanceof TunebookError && cause !== undefined && isDiskFull(cause))) {
      throw new TunebookError('refused', `The disk is full: the notebook ${file} could not be opened and was left untouched. Free some space and try again.`);
    }
    if (e instanceof TunebookError) throw e;
    const code = String((e as { code?: unknown } | null)?.code ?? '');
    const detail = e instanceof Error ? e.message : String(e);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_')) throw new TunebookError('refused', `${file} is locked by another program; try again when it is done.`);
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code.startsWith('SQLITE_READONLY')) throw new TunebookError('refused', `${file} cannot be opened for writing (read-only or permission denied).`);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new TunebookError('refused', `${file} is not a Tunebook notebook, or it is damaged; it was left untouched.`);
    throw new TunebookError('refused', `${file} could not be opened as a notebook (${detail}).`);
  }
}

/** Open an existing notebook (commands that only read or tidy one never create it). */
function openExisting(file: string): Backend {
  if (!existsSync(file)) throw new TunebookError('not-found', `no notebook at ${file} (give one with --notebook FILE)`);
  return openBackend(file);
}

function findStudy(studies: StudySummary[], ref: string): StudySummary | undefined {
  if (/^\d+$/.test(ref)) {
    const byId = studies.find((s) => s.id === Number(ref));
    if (byId) return byId;
  }
  return studies.find((s) => s.title === ref.trim());
}

/** "2,197 IOPS (primary)" */
function resultText(m: ResultMetric): string {
  return `${m.name} = ${formatQuantity(m.value, m.unit, m.name)}${m.primary ? ' (primary)' : ''}`;
}

const bytesText = (n: number): string => formatQuantity(n, 'B');

/** Progress on a terminal only: one line, rewritten in place. */
function progressPrinter(backend: Backend): () => void {
  if (!process.stderr.isTTY) return () => {};
  const off = backend.on('onDidProgressStore', (p) => {
    const pct = p.total > 0 ? Math.floor((p.read / p.total) * 100) : 0;
    process.stderr.write(`\r\x1b[K${p.task} ${p.index + 1}/${p.count} ${p.file} ${pct} %`);
  });
  return () => { off(); process.stderr.write('\r\x1b[K'); };
}

export async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    notebook: { type: 'string' }, study: { type: 'string' }, experiment: { type: 'string' }, kind: { type: 'string' },
    'no-result': { type: 'boolean' }, json: { type: 'boolean' },
  } });
  if (!values.study?.trim()) throw new TunebookError('invalid', 'name the study: tunebook import --study TITLE --experiment TITLE FILE...');
  if (!values.experiment?.trim()) throw new TunebookError('invalid', 'name the experiment: tunebook import --study TITLE --experiment TITLE FILE...');
  if (positionals.length === 0) throw new TunebookError('invalid', 'give one or more capture files or folders to import');
  for (const p of positionals) if (!existsSync(p)) throw new TunebookError('not-found', `no such file or folder: ${p}`);
  if (values.kind) checkKind(values.kind);
  const backend = openBackend(notebookFile(values.notebook));
  const done = progressPrinter(backend);
  try {
    const api = backend.api;
    const studyTitle = values.study.trim();
    const foundStudy = findStudy(api.listStudies(), studyTitle);
    const study = foundStudy ?? api.createStudy({ title: studyTitle });
    const expTitle = values.experiment.trim();
    const foundExperiment = api.getStudy(study.id).experiments.find((e) => e.title === expTitle);
    const experiment = foundExperiment ?? api.createExperiment(study.id, { title: expTitle });
    // Ctrl+C (or a kill): the file being stored is left out, what was stored stays, the temporary
    // files go (backend.close); a second Ctrl+C stops at once
    let stopping = false;
    const stop = (): void => {
      if (stopping) process.exit(130);
      stopping = true;
      done();
      console.error('tunebook: stopping: the file being stored is left out (Ctrl+C again to quit at once)');
      api.cancelStoreTask();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    let result: ImportResult;
    try {
      result = await (api.importCaptures(experiment.id, positionals.map((p) => ({ path: path.resolve(p) })), {
        ...(values.kind ? { kind: values.kind } : {}), acceptResult: values['no-result'] !== true,
      }) as unknown as Promise<ImportResult>);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    // nothing stored (stopped, or every file refused): the study or experiment made for it goes again
    if (result.imported.length === 0) {
      if (!foundStudy) { api.deleteStudy(study.id); api.deleteForever({ kind: 'study', id: study.id }); }
      else if (!foundExperiment) { api.deleteExperiment(experiment.id); api.deleteForever({ kind: 'experiment', id: experiment.id }); }
    }
    done();
    if (values.json) {
      process.stdout.write(JSON.stringify({ study: { id: study.id, title: study.title }, experiment: { id: experiment.id, title: experiment.title }, ...result }, null, 2) + '\n');
    } else {
      console.log(`${study.title} › ${experiment.title}`);
      for (const c of result.imported) {
        const how = c.alreadyLinked ? 'already on this experiment' : c.deduplicated ? 'linked (same bytes already stored)' : 'stored';
        console.log(`  ${how}: ${c.name}  capture ${c.captureId}  ${c.kind}  ${bytesText(c.bytes)}, ${formatNumber(c.lines)} lines  sha256 ${c.sha256.slice(0, 12)}…`);
      }
      if (result.result) console.log(`  result: ${resultText(result.result)} from ${result.result.source?.captureName ?? 'a capture'}`);
      for (const r of result.runs ?? []) console.log(`  another run: ${resultText(r)} from ${r.source?.captureName ?? 'a capture'}`);
    }
    // the message names the file as a rule ("run1/fifo is a named pipe …"); the name is added when it does not
    for (const f of result.failed) console.error(`tunebook: not imported: ${f.message.includes(f.name) ? '' : `${f.name}: `}${oneLine(f.message)}`);
    if (stopping) return 130;
    return result.failed.length ? 1 : 0;
  } finally {
    done();
    backend.close();
  }
}

export async function show(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { notebook: { type: 'string' }, json: { type: 'boolean' } } });
  if (positionals.length > 1) throw new TunebookError('invalid', 'give at most one study (its title or id): tunebook show [STUDY]');
  const backend = openExisting(notebookFile(values.notebook));
  try {
    const api = backend.api;
    const studies = api.listStudies();
    const chosen = positionals.length ? [findStudy(studies, positionals[0]!) ?? (() => { throw new TunebookError('not-found', `no study "${positionals[0]}" (tunebook show lists them)`); })()] : studies;
    const profiles = api.listProfiles();
    const out = chosen.map((s) => showStudyJson(api.getStudy(s.id), api.timeline(s.id), profiles));
    if (values.json) {
      process.stdout.write(JSON.stringify(positionals.length ? out[0] : out, null, 2) + '\n');
      return 0;
    }
    for (const s of out) {
      console.log(`${s.title}  (study ${s.id}, ${s.experiments.length} experiments)`);
      for (const r of s.timeline) {
        const value = r.value === null ? '—' : formatQuantity(r.value, r.unit ?? '', r.metric ?? undefined);
        // the percentages as the app writes them (+10.0 %, a real minus), the step's and the whole way's
        const step = r.stepNotComparable ? 'not comparable' : r.stepChangePercent === null ? '' : `step ${formatPercent(r.stepChangePercent)}`;
        const total = r.cumulativeNotComparable || r.cumulativeChangePercent === null || r.position === 0 ? '' : `total ${formatPercent(r.cumulativeChangePercent)}`;
        const e = s.experiments.find((x) => x.id === r.experimentId)!;
        console.log(`  ${r.position === 0 ? 'B' : r.position}. ${r.title} [${r.status}]  ${r.metric ?? ''} ${value}  ${[step, total].filter(Boolean).join(', ')}  ${e.captures.length ? plural(e.captures.length, 'capture') : ''}`.trimEnd());
      }
    }
    return 0;
  } finally {
    backend.close();
  }
}

export async function cat(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { notebook: { type: 'string' } } });
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]!)) throw new TunebookError('invalid', 'give one capture id: tunebook cat CAPTURE_ID (tunebook show --json lists them)');
  const backend = openExisting(notebookFile(values.notebook));
  try {
    for (const bytes of backend.captureBytes(Number(positionals[0]))) {
      if (!process.stdout.write(bytes)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    }
    return 0;
  } finally {
    backend.close();
  }
}

export async function report(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    notebook: { type: 'string' }, format: { type: 'string' }, output: { type: 'string', short: 'o' }, experiments: { type: 'string' }, json: { type: 'boolean' },
    interactive: { type: 'boolean' },
  } });
  if (positionals.length !== 1) throw new TunebookError('invalid', 'give one study (its title or id): tunebook report STUDY --format html|md|pdf|eln -o PATH');
  const format = values.format as ReportFormat | undefined;
  if (!format || !REPORT_FORMATS.includes(format)) throw new TunebookError('invalid', `--format must be one of ${REPORT_FORMATS.join(', ')}`);
  if (!values.output) throw new TunebookError('invalid', 'say where to write it: -o PATH');
  if (values.interactive && format !== 'html') throw new TunebookError('invalid', '--interactive is an option of --format html');
  const experimentIds = values.experiments === undefined ? null : values.experiments.split(',').map((x) => {
    if (!/^\s*\d+\s*$/.test(x)) throw new TunebookError('invalid', `--experiments takes experiment ids separated by commas, not "${values.experiments}"`);
    return Number(x);
  });
  const backend = openExisting(notebookFile(values.notebook));
  const done = progressPrinter(backend);
  try {
    const api = backend.api;
    const study = findStudy(api.listStudies(), positionals[0]!) ?? (() => { throw new TunebookError('not-found', `no study "${positionals[0]}" (tunebook show lists them)`); })();
    const r = await (api.exportStudy(study.id, { format, experimentIds, path: path.resolve(values.output), ...(values.interactive ? { interactive: true } : {}) }) as unknown as Promise<ExportResult>);
    done();
    if (values.json) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    else for (const f of r.files) console.log(f);
    return 0;
  } finally {
    done();
    backend.close();
  }
}

export async function importBundleCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { notebook: { type: 'string' }, json: { type: 'boolean' } } });
  if (positionals.length !== 1) throw new TunebookError('invalid', 'give one bundle: tunebook import-bundle PATH');
  const file = path.resolve(positionals[0]!);
  if (!existsSync(file)) throw new TunebookError('not-found', `no such file: ${positionals[0]}`);
  const notebook = notebookFile(values.notebook);
  const created = !existsSync(notebook);
  const backend = openBackend(notebook);
  const done = progressPrinter(backend);
  try {
    let r: BundleImportResult;
    try {
      r = await (backend.api.importBundle({ path: file }) as unknown as Promise<BundleImportResult>);
    } catch (err) {
      // a rejected bundle writes nothing: not even the notebook this run would have made for it
      if (created) {
        backend.close();
        for (const f of [notebook, `${notebook}-wal`, `${notebook}-shm`]) rmSync(f, { force: true });
      }
      throw err;
    }
    done();
    if (values.json) {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      return 0;
    }
    for (const s of r.studies) {
      const what = s.created ? 'added' : `${s.restored ? 'back from the trash' : 'already here'}${s.experimentsAdded ? '; added its new experiments' : ''}`;
      console.log(`${s.title}  (study ${s.id}): ${what}, ${formatNumber(s.experimentsAdded)} experiments added${s.experimentsAlreadyHere ? `, ${formatNumber(s.experimentsAlreadyHere)} already here` : ''}`);
    }
    console.log(`captures: ${formatNumber(r.capturesAdded)} stored, ${formatNumber(r.capturesAlreadyHere)} already here; hardware profiles: ${formatNumber(r.profilesAdded)} added`);
    return 0;
  } finally {
    done();
    backend.close();
  }
}

export async function maintenance(argv: string[], task: 'reparse' | 'vacuum'): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { notebook: { type: 'string' }, ...(task === 'vacuum' ? { 'empty-trash': { type: 'boolean' as const } } : {}) } });
  const backend = openExisting(notebookFile(values.notebook));
  const done = progressPrinter(backend);
  try {
    if (task === 'reparse') {
      const r = await (backend.api.reparseCaptures() as unknown as Promise<{ captures: number; changedKind: number }>);
      done();
      console.log(`re-parsed ${formatNumber(r.captures)} captures${r.changedKind ? ` (${formatNumber(r.changedKind)} now read as another kind)` : ''}`);
    } else {
      // the trash keeps removed captures (and what else was deleted) until it is emptied, as in the app
      if ((values as { 'empty-trash'?: boolean })['empty-trash']) {
        const t = backend.api.emptyTrash();
        console.log(`emptied the trash: ${plural(t.studies, 'study', 'studies')}, ${plural(t.experiments, 'experiment')}, ${plural(t.captures, 'removed capture')}`);
      }
      const r = await (backend.api.compactNotebook() as unknown as Promise<{ bytesBefore: number; bytesAfter: number; capturesRemoved: number }>);
      done();
      console.log(`${bytesText(r.bytesBefore)} → ${bytesText(r.bytesAfter)}${r.capturesRemoved ? ` (${formatNumber(r.capturesRemoved)} removed captures deleted)` : ''}`);
      const held = backend.api.listTrash().length;
      if (held) console.log(`the trash still holds ${plural(held, 'deleted item')}; tunebook vacuum --empty-trash deletes them for good and gives their space back`);
    }
    return 0;
  } finally {
    done();
    backend.close();
  }
}

/** `tunebook example -o FILE`: the example notebook, for scripts and tests. */
export async function example(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { output: { type: 'string', short: 'o' } } });
  if (positionals.length || !values.output) throw new TunebookError('invalid', 'give the file to write: tunebook example -o FILE.tunebook');
  const file = path.resolve(values.output);
  if (path.extname(file).toLowerCase() !== NOTEBOOK_EXTENSION) throw new TunebookError('invalid', `the example notebook needs a file name ending in ${NOTEBOOK_EXTENSION}`);
  if (existsSync(file)) throw new TunebookError('invalid', `${file} already exists; choose another name (it was left untouched)`);
  if (!existsSync(path.dirname(file))) throw new TunebookError('not-found', `${path.dirname(file)} does not exist`);
  await writeExample(file, (notebook) => new Backend({ notebookPath: notebook, userDataDir: userDataDir(), remember: false }));
  console.error(`wrote ${file}: the three case studies, with their profiles, changes, results and captures`);
  return 0;
}
