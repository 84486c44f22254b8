/**
 * The `tunebook` command line: the same services as the app, from a terminal or a script.
 *   tunebook serve [--port N] [--host H] [--notebook FILE]
 *   tunebook parse FILE|DIR... [--json] [--series] [--tables] [--kind KIND]
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Backend, APP_VERSION, defaultNotebookPath } from '../services/backend';
import { expandPaths, parseFiles } from '../services/captureFiles';
import { startHttpHost } from '../host/httpHost';
import { userDataDir } from '../services/paths';
import { PARSERS } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { summarizeSeries } from '../../shared/capture/series';
import type { ParsedCapture } from '../../shared/capture/types';
import { TunebookError } from '../../shared/api';
import { diffSettings } from '../../shared/capture/parsers/settings/diff';

const HELP = `Tunebook ${APP_VERSION} — a lab notebook for performance tuning

Usage:
  tunebook serve [options]            browser mode: serve the app on 127.0.0.1 with a token
      --notebook FILE                 notebook file (default: ${defaultNotebookPath(userDataDir())})
      --port N                        port (default 4750; 0 picks a free one)
      --host H                        address to bind (default 127.0.0.1)
  tunebook parse FILE|DIR... [options]
                                      recognize and parse tool captures (ab, fio, iostat, …)
      --json                          print JSON (one object per file; an array for several)
      --series                        include every sample of every time series
      --tables                        include parser tables (process lists, per-syscall tables …)
      --kind KIND                     skip detection and use this parser (see --kinds)
      --kinds                         list the capture kinds Tunebook reads
  tunebook diff BEFORE AFTER [--json]  settings that differ between two snapshots (sysctl -a,
                                      ulimit -a, php.ini …): the config changes between them
  tunebook --version | --help

Environment: TUNEBOOK_USER_DATA sets the folder for the default notebook and the recent list.
`;

function rendererDir(): string {
  // dist/cli.cjs → dist/renderer
  return path.join(__dirname, 'renderer');
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: {
    notebook: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'no-open': { type: 'boolean' },
  } });
  const data = userDataDir();
  const notebookPath = path.resolve(values.notebook ?? defaultNotebookPath(data));
  const port = values.port === undefined ? 4750 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TunebookError('invalid', `--port must be a number from 0 to 65535, not "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  const backend = new Backend({ notebookPath, userDataDir: data });
  const http = await startHttpHost({ backend, rendererDir: rendererDir(), host, port });
  if (!existsSync(path.join(rendererDir(), 'index.html'))) console.error('warning: the UI is not built (run `npm run build`); only the API is served');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) console.error(`warning: listening on ${host}: anyone who can reach it and has the token can read and change the notebook`);
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

async function parse(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    json: { type: 'boolean' }, series: { type: 'boolean' }, tables: { type: 'boolean' }, kind: { type: 'string' }, kinds: { type: 'boolean' },
  } });
  if (values.kinds) {
    for (const p of PARSERS) console.log(`${p.id.padEnd(18)} ${p.title}`);
    return 0;
  }
  if (positionals.length === 0) throw new TunebookError('invalid', 'give one or more capture files or folders: tunebook parse FILE...');
  if (values.kind && values.kind !== 'text' && !PARSERS.some((p) => p.id === values.kind)) {
    throw new TunebookError('invalid', `unknown kind "${values.kind}"; see tunebook parse --kinds`);
  }
  for (const p of positionals) if (!existsSync(p)) throw new TunebookError('not-found', `no such file or folder: ${p}`);
  const files = expandPaths(positionals);
  if (files.length === 0) throw new TunebookError('invalid', 'no files found in the given folders');
  const parsed = await parseFiles(files, values.kind ? { kind: values.kind } : {});
  if (values.json) {
    const out = parsed.map((c) => toCaptureJson(c, { series: values.series === true, tables: values.tables === true }));
    process.stdout.write(JSON.stringify(out.length === 1 && positionals.length === 1 && files[0] === positionals[0] ? out[0] : out, null, 2) + '\n');
  } else {
    parsed.forEach(printHuman);
  }
  return 0;
}

/** The scope a settings capture's changes belong to: the tool, or the file name for config files. */
function settingsScope(c: ParsedCapture): string {
  return c.kind === 'ini' ? c.file ?? 'config file' : c.kind;
}

async function diff(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, kind: { type: 'string' } } });
  if (positionals.length !== 2) throw new TunebookError('invalid', 'give two settings snapshots: tunebook diff BEFORE AFTER');
  for (const p of positionals) if (!existsSync(p)) throw new TunebookError('not-found', `no such file: ${p}`);
  const [before, after] = await parseFiles(positionals, values.kind ? { kind: values.kind } : {});
  for (const c of [before!, after!]) {
    if (Object.keys(c.settings).length === 0) throw new TunebookError('invalid', `${c.file} holds no settings (read as ${c.kind}); diff takes sysctl, ulimit or ini-style captures`);
  }
  if (before!.kind !== after!.kind) throw new TunebookError('invalid', `the two files are different kinds (${before!.kind} and ${after!.kind})`);
  const changes = diffSettings(before!.settings, after!.settings, settingsScope(after!));
  if (values.json) {
    process.stdout.write(JSON.stringify(changes, null, 2) + '\n');
  } else if (changes.length === 0) {
    console.log('no differences');
  } else {
    for (const c of changes) console.log(`${c.key}: ${c.before ?? '(unset)'} → ${c.after ?? '(unset)'}`);
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
    default:
      console.error(`tunebook: unknown command "${cmd}"\n`);
      process.stderr.write(HELP);
      return 2;
  }
}

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exitCode = code; }, (e: unknown) => {
  if (e instanceof TunebookError || (e instanceof Error && (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) {
    console.error(`tunebook: ${e.message}`);
    process.exitCode = 2;
  } else {
    console.error(e);
    process.exitCode = 1;
  }
});
