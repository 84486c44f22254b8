/**
 * The `tunebook` command line: the same services as the app, from a terminal or a script.
 *   tunebook serve | parse | diff | import | show | cat | report | import-bundle | reparse | vacuum   (see HELP)
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Backend, APP_VERSION, NOTEBOOK_EXTENSION, defaultNotebookPath } from '../services/backend';
import { writeExample } from '../services/example/example';
import { parseFiles, parsePaths, readProblem } from '../services/captureFiles';
import { isLoopback, startHttpHost } from '../host/httpHost';
import { servedAccess } from '../services/hostPaths';
import { kitScript, saveKit } from '../services/kit/kit';
import { exportError } from '../services/errors';
import { userDataDir } from '../services/paths';
import { isDiskFull } from '../db/diskFull';
import { PARSERS } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { summarizeSeries } from '../../shared/capture/series';
import type { ParsedCapture } from '../../shared/capture/types';
import { TunebookError } from '../../shared/api';
import { REPORT_FORMATS } from '../../shared/model';
import type { BundleImportResult, ExportResult, ImportResult, ReportFormat, ResultMetric, StudySummary } from '../../shared/model';
import { compareSnapshots } from '../../shared/snapshotDiff';
import { showStudyJson } from '../../shared/showJson';
import { formatNumber, formatQuantity, parseQuantity } from '../../shared/units';
import { formatPercent, plural } from '../../shared/format';

const HELP = `Tunebook ${APP_VERSION} — a lab notebook for performance tuning

Usage:
  tunebook serve [options]            browser mode: serve the app on 127.0.0.1 with a token
      --notebook FILE                 notebook file (default: ${defaultNotebookPath(userDataDir())})
      --port N                        port (default 4750; 0 picks a free one)
      --host H                        address to bind (default 127.0.0.1)
      --max-upload SIZE               largest capture the page may upload (default 2GiB)
      --allow-dir DIR                 let the page read captures and bundles by path under DIR,
                                      and open notebooks there (repeatable; by default it only
                                      uploads, and opens notebooks beside --notebook)
      --allow-host NAME               accept NAME (a DNS name of this machine) as the Host of
                                      requests, with --host (repeatable)
  tunebook parse FILE|DIR... [options]
                                      recognize and parse tool captures (ab, fio, iostat, …)
      --json                          print JSON (one object per file; an array for several)
      --series                        include every sample of every time series
      --tables                        include parser tables (process lists, per-syscall tables …)
      --kind KIND                     skip detection and use this parser (see --kinds)
      --kinds                         list the capture kinds Tunebook reads
  tunebook diff BEFORE AFTER [--json]  settings that differ between two snapshots (sysctl -a,
                                      ulimit -a, php.ini …): the config changes between them
  tunebook import --study TITLE --experiment TITLE [options] FILE|DIR...
                                      store captures on an experiment (created when missing)
      --notebook FILE                 notebook file (default: the app's notebook)
      --kind KIND                     skip detection and use this parser
      --no-result                     do not make the headline figure (req/s, IOPS …) the
                                      experiment's primary result when it has none
      --json                          print what was stored as JSON
  tunebook show [STUDY] [--notebook FILE] [--json]
                                      a study (title or id), or every study: experiments,
                                      config changes, results, captures and the timeline
  tunebook cat CAPTURE_ID [--notebook FILE]
                                      write a stored capture's bytes to stdout, as imported
  tunebook report STUDY --format html|md|pdf|eln -o PATH [options]
                                      export a study (title or id): a self-contained HTML
                                      report, Markdown with its charts beside it (PATH-charts/),
                                      PDF (needs Chromium: TUNEBOOK_CHROMIUM), or a bundle
                                      (.eln) another Tunebook imports with nothing lost
      --notebook FILE                 notebook file (default: the app's notebook)
      --experiments ID,ID…            only these experiments (tunebook show --json lists ids)
      --interactive                   HTML: each chart can also be drawn interactively (zoom,
                                      hover) with plotly.js, written inline (about 4.9 MB more);
                                      still no request, only its two scripts may run
      --json                          print what was written as JSON
  tunebook import-bundle PATH [--notebook FILE] [--json]
                                      import a bundle (.eln): checked whole first, then all of
                                      it or nothing; what the notebook holds is left as it is
  tunebook reparse [--notebook FILE]  parse every stored capture again with this version's parsers
  tunebook vacuum [--notebook FILE] [--empty-trash]
                                      give the space of deleted captures back to the disk;
                                      --empty-trash first deletes what the trash holds for good
  tunebook example -o FILE            write the example notebook (the three case studies with their
                                      captures) to FILE, a new .tunebook file
  tunebook kit [-o FILE]              the capture kit for the server being tuned, a POSIX sh script:
                                      tunebook kit > collect.sh, then on the server sh collect.sh -h
  tunebook --version | --help

Environment: TUNEBOOK_USER_DATA sets the folder for the default notebook and the recent list;
TUNEBOOK_DEBUG=1 prints the stack of an internal error.

Exit status: 0 done; 1 something was not read or stored (each said on stderr), or an internal
error; 2 a mistake in the command (a missing file, a bad option, not a notebook …).
`;

function rendererDir(): string {
  // dist/cli.cjs → dist/renderer
  return path.join(__dirname, 'renderer');
}

async function serve(argv: string[]): Promise<void> {
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

function formatValue(v: number, unit: string): string {
  const n = Math.abs(v) >= 1000 || Number.isInteger(v) ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(Math.round(v * 1e6) / 1e6);
  return unit && unit !== 'count' ? `${n} ${unit}` : n;
}

function labelText(labels: Readonly<Record<string, string>> | undefined): string {
  if (!labels) return '';
  const parts = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  return parts.length ? ` {${parts.join(', ')}}` : '';
}

function printHuman(c: ParsedCapture): void {
  console.log(`${c.file ?? '(stdin)'}: ${c.kind} (confidence ${c.confidence})`);
  if (c.command) console.log(`  command: ${c.command}`);
  if (c.toolVersion) console.log(`  tool: ${c.toolVersion}`);
  for (const m of c.metrics.slice(0, 40)) console.log(`  ${m.name}${labelText(m.labels)} = ${formatValue(m.value, m.unit)}`);
  if (c.metrics.length > 40) console.log(`  … ${c.metrics.length - 40} more metrics (use --json)`);
  for (const s of c.series.slice(0, 20)) {
    const sum = summarizeSeries(s);
    console.log(`  ${s.column}${labelText(s.labels)}: ${sum.count} samples, mean ${sum.mean ?? '–'}, min ${sum.min ?? '–'}, max ${sum.max ?? '–'}${s.firstSampleSinceBoot ? ' (first sample since boot, left out)' : ''}`);
  }
  if (c.series.length > 20) console.log(`  … ${c.series.length - 20} more series (use --json)`);
  const facts = Object.entries(c.facts);
  if (facts.length) console.log(`  facts: ${facts.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  const settings = Object.entries(c.settings);
  if (settings.length) console.log(`  settings: ${settings.length} (use --json)`);
  for (const f of c.findings) console.log(`  [${f.severity}] ${f.id}: ${f.message}${f.evidence ? ` (${f.evidence})` : ''}`);
  for (const w of c.warnings.slice(0, 10)) console.log(`  warning: ${w}`);
  if (c.warnings.length > 10) console.log(`  … ${c.warnings.length - 10} more warnings`);
}

function checkKind(kind: string): void {
  if (kind !== 'text' && !PARSERS.some((p) => p.id === kind)) throw new TunebookError('invalid', `unknown kind "${kind}"; see tunebook parse --kinds`);
}

async function parse(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    json: { type: 'boolean' }, series: { type: 'boolean' }, tables: { type: 'boolean' }, kind: { type: 'string' }, kinds: { type: 'boolean' },
  } });
  if (values.kinds) {
    for (const p of PARSERS) console.log(`${p.id.padEnd(18)} ${p.title}`);
    return 0;
  }
  if (positionals.length === 0) throw new TunebookError('invalid', 'give one or more capture files or folders: tunebook parse FILE...');
  if (values.kind) checkKind(values.kind);
  for (const p of positionals) if (!existsSync(p)) throw new TunebookError('not-found', `no such file or folder: ${p}`);
  // one entry per file found, and one per entry that could not be read (a dangling link, a loop, a pipe in a folder …)
  const parsed = await parsePaths(positionals, values.kind ? { kind: values.kind } : {});
  if (parsed.length === 0) throw new TunebookError('invalid', 'no files found in the given folders');
  if (values.json) {
    const out = parsed.map((p) => ({
      ...toCaptureJson(p.capture, { series: values.series === true, tables: values.tables === true }),
      ...(p.skipped !== undefined ? { skipped: p.skipped } : {}),
    }));
    const oneFile = out.length === 1 && positionals.length === 1 && !isFolder(positionals[0]!);
    process.stdout.write(JSON.stringify(oneFile ? out[0] : out, null, 2) + '\n');
  } else {
    for (const p of parsed) if (p.skipped === undefined) printHuman(p.capture);
  }
  const skipped = parsed.filter((p) => p.skipped !== undefined);
  for (const p of skipped) console.error(`tunebook: skipped: ${oneLine(p.skipped!)}`);
  return skipped.length ? 1 : 0;
}

function isFolder(p: string): boolean {
  try { return statSync(p).isDirectory(); } catch { return false; }
}

async function diff(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, kind: { type: 'string' } } });
  if (positionals.length !== 2) throw new TunebookError('invalid', 'give two settings snapshots: tunebook diff BEFORE AFTER');
  for (const p of positionals) if (!existsSync(p)) throw new TunebookError('not-found', `no such file: ${p}`);
  if (values.kind) checkKind(values.kind);
  const [before, after] = await parseFiles(positionals, values.kind ? { kind: values.kind } : {});
  const result = compareSnapshots([{ name: before!.file ?? positionals[0]!, capture: toCaptureJson(before!) }], [{ name: after!.file ?? positionals[1]!, capture: toCaptureJson(after!) }]);
  if (!result.ok) throw new TunebookError('invalid', result.error);
  const changes = result.changes;
  if (values.json) {
    process.stdout.write(JSON.stringify(changes, null, 2) + '\n');
  } else if (changes.length === 0) {
    console.log('no differences');
  } else {
    for (const c of changes) console.log(`${c.key}: ${c.before ?? '(unset)'} → ${c.after ?? '(unset)'}`);
  }
  return 0;
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

async function importCommand(argv: string[]): Promise<number> {
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

async function show(argv: string[]): Promise<number> {
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

async function cat(argv: string[]): Promise<number> {
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

async function report(argv: string[]): Promise<number> {
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

async function importBundleCommand(argv: string[]): Promise<number> {
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

async function maintenance(argv: string[], task: 'reparse' | 'vacuum'): Promise<number> {
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
async function example(argv: string[]): Promise<number> {
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

/** `tunebook kit`: the capture kit's script on stdout, or saved as an executable file with -o. */
async function kit(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { output: { type: 'string', short: 'o' } } });
  if (positionals.length) throw new TunebookError('invalid', 'tunebook kit takes no arguments: tunebook kit > collect.sh, or tunebook kit -o collect.sh');
  if (values.output) {
    const file = path.resolve(values.output);
    try {
      await saveKit(file);
    } catch (e) {
      throw exportError(e, file);
    }
    console.error(`wrote ${file}; on the server: sh ${path.basename(file)} -h`);
  } else {
    process.stdout.write(kitScript());
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case undefined: case '--help': case '-h': case 'help':
      process.stdout.write(HELP);
      return 0;
    case '--version': case '-v':
      console.log(APP_VERSION);
      return 0;
    case 'serve':
      await serve(rest);
      return -1; // keeps running
    case 'parse':
      return parse(rest);
    case 'diff':
      return diff(rest);
    case 'import':
      return importCommand(rest);
    case 'show':
      return show(rest);
    case 'cat':
      return cat(rest);
    case 'report':
      return report(rest);
    case 'import-bundle':
      return importBundleCommand(rest);
    case 'reparse':
      return maintenance(rest, 'reparse');
    case 'vacuum':
      return maintenance(rest, 'vacuum');
    case 'kit':
      return kit(rest);
    case 'example':
      return example(rest);
    default:
      throw new TunebookError('invalid', `unknown command "${cmd}" (see tunebook --help)`);
  }
}

/** A message on one line (an error from a library may hold several). */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

const DEBUG = /^(1|true|yes)$/i.test(process.env.TUNEBOOK_DEBUG ?? '');

/**
 * What the user sees when a command fails: one line on stderr and a non-zero status. A mistake of
 * the user's (a bad option, a missing or unreadable file, not a notebook, a full disk) is said as
 * it is; anything else is an internal error with a hint. The stack only with TUNEBOOK_DEBUG=1.
 */
function failure(e: unknown): { line: string; status: number } {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  // a TunebookError, also one rebuilt from a worker's message (recognised by name)
  const tunebook = e instanceof Error && e.name === 'TunebookError' && typeof (e as { code?: unknown }).code === 'string';
  if (tunebook && code !== 'internal') return { line: e.message, status: 2 };
  // node:util parseArgs: an unknown option, a missing value, a positional where none is taken
  if (code.startsWith('ERR_PARSE_ARGS_')) return { line: `${(e as Error).message} (see tunebook --help)`, status: 2 };
  if (isDiskFull(e)) return { line: 'The disk is full: nothing more was written. Free some space and try again.', status: 1 };
  if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || ((code === 'EACCES' || code === 'EPERM') && (e as { syscall?: unknown }).syscall === 'listen')) {
    const where = `${String((e as { address?: unknown }).address ?? '')}:${String((e as { port?: unknown }).port ?? '')}`;
    return { line: `cannot listen on ${where}: ${code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : 'permission denied'}; choose another with --port or --host`, status: 2 };
  }
  if (code === 'EPIPE') return { line: 'the output was closed before everything was written', status: 1 };
  const file = (e as { path?: unknown } | null)?.path;
  if (/^E[A-Z]+$/.test(code) && typeof file === 'string') return { line: readProblem(e, file).message, status: 2 };
  const message = e instanceof Error ? e.message : String(e);
  return { line: `internal error: ${message} (run with TUNEBOOK_DEBUG=1 for details)`, status: 1 };
}

function fail(e: unknown): void {
  const f = failure(e);
  process.stderr.write(`tunebook: ${oneLine(f.line)}\n`);
  if (DEBUG && e instanceof Error) process.stderr.write(`${e.stack ?? ''}\n`);
  process.exitCode = f.status;
}

// `tunebook parse --json DIR | head`: a reader that stops early is not an error of ours
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  fail(e);
  process.exit();
});
// a failure outside the command's promise (an event, a timer) is said the same way
process.on('uncaughtException', (e) => { fail(e); process.exit(); });

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exitCode = code; }, fail);
