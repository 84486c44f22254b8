/**
 * The `tunebook` command line: the same services as the app, from a terminal or a script.
 *   tunebook serve | parse | diff | import | show | cat | report | import-bundle | reparse | vacuum   (see HELP)
 * parse, diff and kit are here; the commands on a notebook are in notebook.ts, loaded only for them.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APP_VERSION, defaultNotebookPath } from '../services/appInfo';
import { parseFiles, parsePaths, readProblem } from '../services/captureFiles';
import { userDataDir } from '../services/paths';
import { isDiskFull } from '../db/diskFull';
import { exportError } from '../services/errors';
import { PARSERS } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { summarizeSeries } from '../../shared/capture/series';
import type { ParsedCapture } from '../../shared/capture/types';
import { TunebookError } from '../../shared/api';
import { compareSnapshots } from '../../shared/snapshotDiff';
import { checkKind, oneLine } from './common';
import type * as NotebookCommands from './notebook';

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
                                      hover) with plotly.js, written inline (about 1.1 MB more);
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

/** `tunebook kit`: the capture kit's script on stdout, or saved as an executable file with -o. */
async function kit(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { output: { type: 'string', short: 'o' } } });
  if (positionals.length) throw new TunebookError('invalid', 'tunebook kit takes no arguments: tunebook kit > collect.sh, or tunebook kit -o collect.sh');
  // the script (~25 KB of text) only for this command
  const { kitScript, saveKit } = await import('../services/kit/kit');
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

/** The commands on a notebook: their module (and SQLite, the HTTP host, the report writers) loaded on first use. */
const notebook = (): Promise<typeof NotebookCommands> => import('./notebook');

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
      await (await notebook()).serve(rest);
      return -1; // keeps running
    case 'parse':
      return parse(rest);
    case 'diff':
      return diff(rest);
    case 'import':
      return (await notebook()).importCommand(rest);
    case 'show':
      return (await notebook()).show(rest);
    case 'cat':
      return (await notebook()).cat(rest);
    case 'report':
      return (await notebook()).report(rest);
    case 'import-bundle':
      return (await notebook()).importBundleCommand(rest);
    case 'reparse':
      return (await notebook()).maintenance(rest, 'reparse');
    case 'vacuum':
      return (await notebook()).maintenance(rest, 'vacuum');
    case 'kit':
      return kit(rest);
    case 'example':
      return (await notebook()).example(rest);
    default:
      throw new TunebookError('invalid', `unknown command "${cmd}" (see tunebook --help)`);
  }
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
