#!/usr/bin/env node
/**
 * Parse and import throughput, memory, and the comparison at scale. Prints what it measures, PASS
 * or FAIL against each aim, and a summary table at the end; exits 1 when an aim is missed.
 *
 * Parsing (scripts/benchParse.mjs): logs made by repeating real samples from the committed fixtures
 * — iostat -x and vmstat of --mb MB (200), strace -f, perf script, pidstat, sar and top -b of
 * --other-mb MB (100) — each parsed by the built CLI end to end, `node dist/cli.cjs parse --json
 * FILE > /dev/null` (start-up, reading, decoding, parsing, findings, JSON; best of --runs, 3), beside
 * the same CLI with the no-op parser (`--kind text`: the stream's own ceiling), CaptureStream alone
 * in this process, jc on a slice of the same output (ours timed on that very slice, in the same
 * run), and two C programs on the same file (wc -w; awk adding up every field): what this machine
 * does at best with such text. Aim: iostat -x and vmstat at 200 MB/s or more end to end. Then the
 * retained heap after parsing iostat -x and vmstat logs of --mb and 2 × --mb MB: series are thinned to a point budget
 * (MAX_POINTS_PER_SERIES), so it must not grow with the file (at most 1.5×).
 *
 * Full import (scripts/benchImport.mjs): writes one ~1 GB iostat -x log the same way, parses it with
 * CaptureStream alone (the baseline: what storing costs on top of parsing), then runs the built CLI,
 * `node dist/cli.cjs import --notebook TMP/bench.tunebook … --json LOG`, as a child process and
 * reports MB/s (file MB / wall seconds), the peak RSS of that whole process (its worker threads
 * included), the notebook's size and compression ratio, and a second import of the same file
 * (deduplicated: read and hashed again, only linked). Aims: 100 MB/s, peak RSS under 300 MB.
 *
 * The notebook at scale (scripts/benchScale.mjs): a study of 10,000 experiments and 100,000
 * captures; study data, timeline, comparison, search, move/delete/restore, a 1,000,000-point
 * series, opening the notebook, the main thread's event-loop delay while the read worker serves
 * them and during an import, and browser mode from navigation to the chart drawn. Exits 1 when one
 * misses its target (issue 9).
 *
 * Fuzzing (scripts/benchFuzz.mjs): every parser fed --fuzz-runs (100,000) mutated real captures,
 * random bytes and lines, 10 MB single lines and UTF-16 files, in worker threads; FAIL on any throw,
 * non-finite number, silent empty parse, chunk-dependent parse or hang (issue 10).
 *
 *   node scripts/bench.mjs [--mb 200] [--other-mb 100] [--runs 3] [--import-mb 1024] [--fuzz-runs 100000] [--fuzz-seed N]
 *                          [--only parse|import|scale|fuzz] [--keep]
 *     --mb: iostat/vmstat logs (the heap check also parses twice that); --other-mb: the other
 *     formats; --import-mb: the imported log (0 skips it); --fuzz-runs: mutated captures per parser;
 *     --only: run one part
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCli, importBench } from './benchImport.mjs';
import { benchLogs, freshMemory, parseBench, writeLog as writeBenchLog } from './benchParse.mjs';
import { reportScale, scaleBench } from './benchScale.mjs';
import { BENCH_FUZZ_RUNS, BENCH_FUZZ_SEED, fuzzBench } from './benchFuzz.mjs';

// re-run with --expose-gc so heap figures are measured after a collection
if (typeof globalThis.gc !== 'function' && !process.env.TB_BENCH_CHILD) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, TB_BENCH_CHILD: '1' } });
  process.exit(r.status ?? 1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const numArg = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const TARGET_MB = numArg('--mb', 200);
const OTHER_MB = numArg('--other-mb', 100);
const RUNS = numArg('--runs', 3);
const KEEP = args.includes('--keep');
const IMPORT_MB = numArg('--import-mb', 1024);
const FUZZ_RUNS = numArg('--fuzz-runs', BENCH_FUZZ_RUNS);
const FUZZ_SEED = numArg('--fuzz-seed', BENCH_FUZZ_SEED);
const onlyArg = args.indexOf('--only');
const ONLY = onlyArg >= 0 ? args[onlyArg + 1] : null;
if (!(TARGET_MB > 0) || !(OTHER_MB > 0) || !(RUNS >= 1) || !(IMPORT_MB >= 0) || !(FUZZ_RUNS >= 1) || !Number.isInteger(FUZZ_SEED) || (ONLY !== null && !['parse', 'import', 'scale', 'fuzz'].includes(ONLY))) {
  console.error('usage: node scripts/bench.mjs [--mb 200] [--other-mb 100] [--runs 3] [--import-mb 1024] [--fuzz-runs 100000] [--fuzz-seed N] [--only parse|import|scale|fuzz] [--keep]');
  process.exit(2);
}
const part = (name) => ONLY === null || ONLY === name;
/** end to end through `tunebook parse --json`, for iostat -x and vmstat */
const PARSE_MIN_MBPS = 200;
const IMPORT_MIN_MBPS = 100;
const IMPORT_MAX_RSS = 300e6;
const CHUNK = 1 << 20;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tunebook-bench-'));
const bundle = path.join(tmp, 'registry.mjs');
await build({
  entryPoints: [path.join(root, 'shared/capture/registry.ts')],
  bundle: true, format: 'esm', platform: 'neutral', target: 'node20', outfile: bundle, logLevel: 'error',
});
const { CaptureStream } = await import(pathToFileURL(bundle).href);
const cli = (part('parse') || (part('import') && IMPORT_MB > 0)) ? ensureCli(root) : null;
const logs = benchLogs(root);
const [iostatLog, vmLog] = logs;
const writeLog = (file, log, bytes) => writeBenchLog(file, log, bytes);

const SIZES_MB = [TARGET_MB, 2 * TARGET_MB];
const MAX_RETAINED_RATIO = 1.5;

async function run(file, bytes) {
  globalThis.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const s = new CaptureStream({ file });
  let peak = 0;
  let n = 0;
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK })) {
    s.write(chunk);
    if ((++n & 31) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const out = s.end();
  const secs = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  const cpuSecs = (cu.user + cu.system) / 1e6;
  globalThis.gc();
  const heap1 = process.memoryUsage().heapUsed;
  let values = 0, stride = 1;
  for (const x of out.series) { values += x.values.length + (x.times ? x.times.length : 0); stride = Math.max(stride, x.stride ?? 1); }
  return { out, secs, cpuSecs, mbps: bytes / 1e6 / secs, cpuMbps: bytes / 1e6 / cpuSecs, heapGrowth: heap1 - heap0, peak: peak - heap0, values, stride };
}

const fmtMB = (b) => (b / 1e6).toFixed(1) + ' MB';
let failed = false;
/** the table printed at the end: [what, figure, aim, verdict] */
const summary = [];

if (part('parse')) {
  console.log(`parse      load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}`);
  const fresh = freshMemory();
  const freshText = fresh === null ? 'not measured' : `${fresh.mbps.toFixed(0)} MB/s first written (${fresh.usPerPage.toFixed(1)} µs a 4 KiB page)`;
  console.log(`${''.padEnd(10)} fresh memory: ${freshText} — the 226 × 50,000 points an iostat -x -p ALL log keeps are 90 MB`);
  summary.push(['fresh memory', freshText, '', 'info']);
  const rows = await parseBench({
    CaptureStream, cli, tmp, logs, runs: RUNS,
    sizeOf: (log) => (log === iostatLog || log === vmLog ? TARGET_MB : OTHER_MB) * 1e6,
  });
  for (const r of rows) {
    const aimed = r.log === iostatLog || r.log === vmLog;
    const pass = r.e2e >= PARSE_MIN_MBPS;
    if (aimed) {
      console.log(`${''.padEnd(13)} ${pass ? 'PASS' : 'FAIL'}: ${r.log.label} end to end ${r.e2e.toFixed(0)} MB/s (aim ≥ ${PARSE_MIN_MBPS} MB/s)`);
      if (!pass) failed = true;
    }
    const jc = typeof r.jc === 'string' ? r.jc : `${r.jc.ratio.toFixed(1)}× jc (${r.jc.mbps.toFixed(1)} MB/s)`;
    const wc = r.refs[0]?.mbps;
    const ref = wc ? `; ${(r.e2e / wc).toFixed(2)}× C wc -w (${wc.toFixed(0)} MB/s)` : '';
    const two = r.oneThread === null ? '' : ` in 2 threads, ${(r.e2e / r.oneThread).toFixed(2)}× one`;
    summary.push([`parse ${r.log.label}`, `${r.e2e.toFixed(0)} MB/s (${fmtMB(r.size)})${two}; ${(r.e2e / r.ceiling).toFixed(2)}× no-op ${r.ceiling.toFixed(0)} MB/s; ${jc}${ref}`,
      aimed ? `≥ ${PARSE_MIN_MBPS} MB/s` : '', aimed ? (pass ? 'PASS' : 'FAIL') : 'info']);
  }

  // memory: series are thinned to a point budget, so the retained heap must not grow with the log
  for (const [label, log, name] of [['iostat -x', iostatLog, 'iostat-x'], ['vmstat', vmLog, 'vmstat']]) {
    const runs = [];
    for (const mb of SIZES_MB) {
      const file = path.join(tmp, `${name}-${mb}.log`);
      const size = writeLog(file, log, mb * 1e6);
      const r = await run(file, size);
      if (!KEEP) fs.rmSync(file, { force: true });
      const numbers = r.values * 8;
      console.log(`${label.padEnd(13)} in process, ${fmtMB(size)} → ${r.out.series.length} series, ${r.values.toLocaleString('en-US')} points kept (stride ≤ ${r.stride}), ${r.mbps.toFixed(0)} MB/s; heap growth ${fmtMB(r.heapGrowth)} retained (series numbers ≈ ${fmtMB(numbers)}), peak +${fmtMB(r.peak)}`);
      r.out = null; // let the next run start with an empty heap
      runs.push({ size, ...r });
    }
    const [small, large] = runs;
    const ratio = large.heapGrowth / Math.max(small.heapGrowth, 1);
    const bad = ratio > MAX_RETAINED_RATIO;
    console.log(`${''.padEnd(13)} ${bad ? 'FAIL' : 'PASS'}: retained heap ${fmtMB(small.heapGrowth)} for ${fmtMB(small.size)}, ${fmtMB(large.heapGrowth)} for ${fmtMB(large.size)}: ${ratio.toFixed(2)}× for ${(large.size / small.size).toFixed(1)}× the log (aim ≤ ${MAX_RETAINED_RATIO}×)`);
    if (bad) failed = true;
    summary.push([`${label} heap`, `${ratio.toFixed(2)}× retained for 2× the log`, `≤ ${MAX_RETAINED_RATIO}×`, bad ? 'FAIL' : 'PASS']);
  }
}

// full import: parse + store one large log through the real CLI, against the parser alone on the same file
if (part('import') && IMPORT_MB > 0) {
  const file = path.join(tmp, `iostat-x-import-${IMPORT_MB}.log`);
  const size = writeLog(file, iostatLog, IMPORT_MB * 1e6);
  const parse = await run(file, size);
  parse.out = null;
  console.log(`import     parser alone (CaptureStream) on ${fmtMB(size)}: ${parse.secs.toFixed(2)} s, ${parse.mbps.toFixed(0)} MB/s wall clock, ${parse.cpuMbps.toFixed(0)} MB/s of CPU time`);
  let r;
  try {
    r = await importBench({ root, tmp, file, size });
  } catch (e) {
    console.log(`import     FAIL: ${e instanceof Error ? e.message : String(e)}`);
    summary.push(['import', 'did not complete', '', 'FAIL']);
    failed = true;
  }
  if (r) {
    const { first, second } = r;
    const rss = first.peakRss === null ? 'not measured' : fmtMB(first.peakRss);
    const cpu = (x) => (x.cpuSecs === null ? '' : `, ${x.cpuSecs.toFixed(2)} s CPU (${(x.cpuSecs / x.secs).toFixed(2)} cores)`);
    console.log(`import     tunebook import of ${fmtMB(size)} (${first.capture.lines.toLocaleString('en-US')} lines, kind ${first.capture.kind}): ${first.secs.toFixed(2)} s, ${first.mbps.toFixed(1)} MB/s wall clock${cpu(first)}; ${(first.secs / parse.secs).toFixed(2)}× the parser alone`);
    console.log(`${''.padEnd(10)} peak RSS of the CLI process ${rss} (${first.rssHow}); notebook ${fmtMB(r.notebookBytes)} (${(size / r.notebookBytes).toFixed(1)}× smaller than the log)`);
    console.log(`${''.padEnd(10)} second import of the same file (deduplicated, linked to another experiment): ${second.secs.toFixed(2)} s, ${second.mbps.toFixed(1)} MB/s${cpu(second)}, peak RSS ${second.peakRss === null ? 'not measured' : fmtMB(second.peakRss)}; notebook then ${fmtMB(r.notebookAfterSecond)}`);
    const slow = first.mbps < IMPORT_MIN_MBPS;
    const fat = first.peakRss !== null && first.peakRss >= IMPORT_MAX_RSS;
    console.log(`${''.padEnd(10)} ${slow ? 'FAIL' : 'PASS'}: import ${first.mbps.toFixed(1)} MB/s (aim ≥ ${IMPORT_MIN_MBPS} MB/s)`);
    if (first.peakRss !== null) console.log(`${''.padEnd(10)} ${fat ? 'FAIL' : 'PASS'}: import peak RSS ${fmtMB(first.peakRss)} (aim under ${fmtMB(IMPORT_MAX_RSS)})`);
    if (slow || fat) failed = true;
    summary.push(
      ['parse alone', `${parse.mbps.toFixed(0)} MB/s (${fmtMB(size)}, ${parse.secs.toFixed(2)} s)`, 'baseline', 'info'],
      ['import', `${first.mbps.toFixed(1)} MB/s (${first.secs.toFixed(2)} s, ${(first.secs / parse.secs).toFixed(2)}× parse)`, `≥ ${IMPORT_MIN_MBPS} MB/s`, slow ? 'FAIL' : 'PASS'],
      ['import RSS', `${rss} peak`, `< ${fmtMB(IMPORT_MAX_RSS)}`, first.peakRss === null ? 'n/a' : fat ? 'FAIL' : 'PASS'],
      ['notebook', `${fmtMB(r.notebookBytes)} (${(size / r.notebookBytes).toFixed(1)}× compression)`, '', 'info'],
      ['import again', `${second.secs.toFixed(2)} s, ${second.mbps.toFixed(1)} MB/s (deduplicated)`, '', 'info'],
    );
  }
  if (!KEEP) fs.rmSync(file, { force: true });
}

// a notebook of years of work: a study of 10,000 experiments, 100,000 captures (scripts/benchScale.mjs)
if (part('scale')) {
  const r = await scaleBench({ root, tmp, importMb: Math.min(IMPORT_MB || 256, 1024) });
  if (reportScale(r, summary)) failed = true;
}

// every parser fed mutated real captures, random bytes, 10 MB lines and UTF-16 files (scripts/benchFuzz.mjs)
if (part('fuzz')) {
  console.log(`fuzz       load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs, Node ${process.version}`);
  const r = await fuzzBench({ root, tmp, runs: FUZZ_RUNS, seed: FUZZ_SEED, summary });
  if (r.failed) failed = true;
}

if (summary.length) {
  const w = [0, 1, 2].map((i) => Math.max(...summary.map((row) => row[i].length)));
  console.log(`\nsummary (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
  for (const [a, b, c, d] of summary) console.log(`  ${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`);
}

if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true }); else console.log(`kept ${tmp}`);
process.exit(failed ? 1 : 0);
