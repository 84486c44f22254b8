#!/usr/bin/env node
/**
 * Capture parser throughput and memory bench (sysstat group): bundles shared/capture/registry.ts
 * with esbuild, generates iostat -x and vmstat logs of ~200 MB and ~400 MB by repeating real samples
 * from the committed fixtures, streams each through CaptureStream in 1 MiB chunks and prints MB/s,
 * retained heap and the series' point stride. If `jc` is installed, parses a 20 MB iostat slice
 * with `jc --iostat` too and prints the ratio.
 * Exits 1 when a parser's best run is slower than 100 MB/s (wall clock or CPU time), or when the heap
 * retained after parsing the larger log is more than 1.5× the smaller one's (series are bounded by
 * MAX_POINTS_PER_SERIES, so memory must not grow with the file size).
 *
 * Full import (scripts/benchImport.mjs): writes one ~1 GB iostat -x log the same way, parses it with
 * CaptureStream alone (the baseline: what storing costs on top of parsing), then runs the built CLI,
 * `node dist/cli.cjs import --notebook TMP/bench.tunebook … --json LOG`, as a child process (dist/ is
 * rebuilt first when older than the sources) and reports MB/s (file MB / wall seconds), the peak
 * RSS of that whole process (its store worker thread included), the notebook's size and compression
 * ratio, and a second import of the same file (deduplicated: read and hashed again, only linked).
 * Exits 1 when the import is slower than 50 MB/s or its peak RSS is 300 MB or more.
 *
 * Comparison at scale (scripts/benchComparison.mjs): a study of 10,000 experiments; the Backend's
 * comparison(), timeline() and getStudy() timed alone and with their JSON (what IPC and HTTP
 * send). Exits 1 when the comparison's data takes 100 ms or more.
 *
 *   node scripts/bench.mjs [--mb 200] [--import-mb 1024] [--keep]
 *     --mb: the smaller parser log (the larger is twice it); --import-mb: the imported log (0 skips)
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importBench } from './benchImport.mjs';
import { comparisonBench } from './benchComparison.mjs';

// re-run with --expose-gc so heap figures are measured after a collection
if (typeof globalThis.gc !== 'function' && !process.env.TB_BENCH_CHILD) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, TB_BENCH_CHILD: '1' } });
  process.exit(r.status ?? 1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const mbArg = args.indexOf('--mb');
const TARGET_MB = mbArg >= 0 ? Number(args[mbArg + 1]) : 200;
const KEEP = args.includes('--keep');
const importArg = args.indexOf('--import-mb');
const IMPORT_MB = importArg >= 0 ? Number(args[importArg + 1]) : 1024;
if (!(TARGET_MB > 0) || !(IMPORT_MB >= 0)) { console.error('usage: node scripts/bench.mjs [--mb 200] [--import-mb 1024] [--keep]'); process.exit(2); }
const MIN_MBPS = 100;
const IMPORT_MIN_MBPS = 50;
const IMPORT_MAX_RSS = 300e6;
const CHUNK = 1 << 20;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tunebook-bench-'));
const bundle = path.join(tmp, 'registry.mjs');
await build({
  entryPoints: [path.join(root, 'shared/capture/registry.ts')],
  bundle: true, format: 'esm', platform: 'neutral', target: 'node20', outfile: bundle, logLevel: 'error',
});
const { CaptureStream } = await import(pathToFileURL(bundle).href);

const fx = (p) => fs.readFileSync(path.join(root, 'test/fixtures/captures', p), 'utf8');

/** Reports of an iostat capture: each "avg-cpu … Device … rows" block, blank-line separated. */
function iostatReports(text) {
  const lines = text.split('\n');
  const banner = lines.findIndex((l) => l.startsWith('Linux '));
  return lines.slice(banner + 1).join('\n').split(/\n\n\n+/).map((r) => r.trim()).filter(Boolean);
}

function writeLog(file, head, body, targetBytes) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, head);
  let size = Buffer.byteLength(head);
  const bodyBytes = Buffer.byteLength(body);
  // write in ~8 MiB batches
  const reps = Math.max(1, Math.floor((8 << 20) / bodyBytes));
  const batch = body.repeat(reps);
  const batchBytes = bodyBytes * reps;
  while (size < targetBytes) { fs.writeSync(fd, batch); size += batchBytes; }
  fs.closeSync(fd);
  return size;
}

// iostat -x: a prompt + banner, then the real interval reports (1 device and 1 + partitions) over and over
const x13 = fx('iostat/x-1-3.txt');
const xp = fx('iostat/x-p-all-1-2.txt');
const iostatHead = '$ iostat -x 1\n' + x13.split('\n')[0] + '\n\n';
const reportsA = iostatReports(x13).slice(1);
const reportsB = iostatReports(xp).slice(1);
const iostatBody = [...reportsA, ...reportsB, ...reportsA].map((r) => r + '\n\n\n').join('');
const iostatLog = { head: iostatHead, body: iostatBody };

// vmstat: header, then rows (the real 30-second capture), header repeated every 30 rows like a terminal run
const vm = fx('vmstat/plain-1-30.txt').trimEnd().split('\n');
const vmHeader = vm.slice(0, 2).join('\n') + '\n';
const vmBody = vmHeader + vm.slice(3).join('\n') + '\n';
const vmLog = { head: '$ vmstat 1\n' + vmHeader + vm[2] + '\n', body: vmBody };

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

const iostatFile = path.join(tmp, 'iostat-x.log');
const iostatSize = writeLog(iostatFile, iostatLog.head, iostatLog.body, SIZES_MB[0] * 1e6);

// baseline: the registry alone (line splitting + cleaning, no-op "text" parser) on the same file
{
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s = new CaptureStream({ kind: 'text' });
  for await (const chunk of fs.createReadStream(iostatFile, { encoding: 'utf8', highWaterMark: CHUNK })) s.write(chunk);
  s.end();
  const secs = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  console.log(`baseline   CaptureStream with the no-op text parser: ${(iostatSize / 1e6 / secs).toFixed(0)} MB/s wall, ${(iostatSize / 1e6 / ((cu.user + cu.system) / 1e6)).toFixed(0)} MB/s CPU (the ceiling for any parser; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
}
for (const [label, log, name] of [['iostat -x', iostatLog, 'iostat-x'], ['vmstat', vmLog, 'vmstat']]) {
  const runs = [];
  for (const mb of SIZES_MB) {
    // the smaller iostat log is the one written above (the jc comparison reads it too)
    const file = name === 'iostat-x' && mb === SIZES_MB[0] ? iostatFile : path.join(tmp, `${name}-${mb}.log`);
    const size = file === iostatFile ? iostatSize : writeLog(file, log.head, log.body, mb * 1e6);
    const r = await run(file, size);
    if (file !== iostatFile && !KEEP) fs.rmSync(file, { force: true });
    const numbers = r.values * 8;
    console.log(`${label.padEnd(10)} ${fmtMB(size)} → kind ${r.out.kind}, ${r.out.series.length} series, ${r.values.toLocaleString('en-US')} points kept (stride ≤ ${r.stride}) in ${r.secs.toFixed(2)} s: ${r.mbps.toFixed(0)} MB/s wall clock, ${r.cpuMbps.toFixed(0)} MB/s of CPU time (${r.cpuSecs.toFixed(2)} s CPU, GC threads included)`);
    console.log(`${''.padEnd(10)} heap growth ${fmtMB(r.heapGrowth)} retained (series numbers ≈ ${fmtMB(numbers)}, overhead ${fmtMB(r.heapGrowth - numbers)}), peak +${fmtMB(r.peak)}, warnings ${r.out.warnings.length}`);
    r.out = null; // let the next run start with an empty heap
    runs.push({ size, ...r });
  }
  // speed: judged on the better of wall clock and CPU time (on a shared machine wall-clock time also
  // measures everybody else's load), and on the better of the two runs (both parse the same samples)
  const best = Math.max(...runs.map((r) => Math.max(r.mbps, r.cpuMbps)));
  if (best < MIN_MBPS) { console.log(`${''.padEnd(10)} FAIL: below ${MIN_MBPS} MB/s (best ${best.toFixed(0)} MB/s)`); failed = true; }
  summary.push([`${label} parse`, `${best.toFixed(0)} MB/s (best run, wall or CPU)`, `≥ ${MIN_MBPS} MB/s`, best < MIN_MBPS ? 'FAIL' : 'ok']);
  // memory: series are thinned to a point budget, so the retained heap must not grow with the log
  const [small, large] = runs;
  const ratio = large.heapGrowth / Math.max(small.heapGrowth, 1);
  const verdict = ratio > MAX_RETAINED_RATIO ? `FAIL: grows with the file size (> ${MAX_RETAINED_RATIO}×)` : 'bounded';
  console.log(`${''.padEnd(10)} retained heap ${fmtMB(small.heapGrowth)} for ${fmtMB(small.size)}, ${fmtMB(large.heapGrowth)} for ${fmtMB(large.size)}: ${ratio.toFixed(2)}× for ${(large.size / small.size).toFixed(1)}× the log — ${verdict}`);
  if (ratio > MAX_RETAINED_RATIO) failed = true;
  summary.push([`${label} heap`, `${ratio.toFixed(2)}× retained for 2× the log`, `≤ ${MAX_RETAINED_RATIO}×`, ratio > MAX_RETAINED_RATIO ? 'FAIL' : 'ok']);
}

// jc comparison on a 20 MB slice of the iostat log
const jc = spawnSync('jc', ['--version'], { encoding: 'utf8' });
if (jc.status === 0) {
  const sliceBytes = 20e6;
  const fd = fs.openSync(iostatFile, 'r');
  const buf = Buffer.alloc(sliceBytes);
  fs.readSync(fd, buf, 0, sliceBytes, 0);
  fs.closeSync(fd);
  const text = buf.toString('utf8', 0, buf.lastIndexOf(10) + 1);
  const slice = path.join(tmp, 'iostat-slice.log');
  fs.writeFileSync(slice, text);
  const ours = await run(slice, Buffer.byteLength(text));
  const t0 = performance.now();
  const r = spawnSync('jc', ['--iostat'], { input: text, maxBuffer: 1 << 30, encoding: 'utf8' });
  const jsecs = (performance.now() - t0) / 1000;
  if (r.status === 0) {
    const jmbps = Buffer.byteLength(text) / 1e6 / jsecs;
    console.log(`jc --iostat on ${fmtMB(Buffer.byteLength(text))}: ${jsecs.toFixed(2)} s (${jmbps.toFixed(1)} MB/s); ours ${ours.secs.toFixed(2)} s (${ours.mbps.toFixed(0)} MB/s): ${(jsecs / ours.secs).toFixed(0)}× faster`);
    summary.push(['jc --iostat', `${jmbps.toFixed(1)} MB/s; ours ${(jsecs / ours.secs).toFixed(0)}× faster`, '', 'info']);
  } else {
    console.log(`jc --iostat failed (${r.status}): ${(r.stderr || '').slice(0, 200)}`);
  }
} else {
  console.log('jc not installed: skipping the jc comparison');
}

// full import: parse + store one large log through the real CLI, against the parser alone on the same file
if (IMPORT_MB > 0) {
  const file = path.join(tmp, `iostat-x-import-${IMPORT_MB}.log`);
  const size = writeLog(file, iostatLog.head, iostatLog.body, IMPORT_MB * 1e6);
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
    if (slow) console.log(`${''.padEnd(10)} FAIL: import below ${IMPORT_MIN_MBPS} MB/s (${first.mbps.toFixed(1)} MB/s)`);
    if (fat) console.log(`${''.padEnd(10)} FAIL: import peak RSS ${fmtMB(first.peakRss)} is not under ${fmtMB(IMPORT_MAX_RSS)}`);
    if (slow || fat) failed = true;
    summary.push(
      ['parse alone', `${parse.mbps.toFixed(0)} MB/s (${fmtMB(size)}, ${parse.secs.toFixed(2)} s)`, 'baseline', 'info'],
      ['import', `${first.mbps.toFixed(1)} MB/s (${first.secs.toFixed(2)} s, ${(first.secs / parse.secs).toFixed(2)}× parse)`, `≥ ${IMPORT_MIN_MBPS} MB/s`, slow ? 'FAIL' : 'ok'],
      ['import RSS', `${rss} peak`, `< ${fmtMB(IMPORT_MAX_RSS)}`, first.peakRss === null ? 'n/a' : fat ? 'FAIL' : 'ok'],
      ['notebook', `${fmtMB(r.notebookBytes)} (${(size / r.notebookBytes).toFixed(1)}× compression)`, '', 'info'],
      ['import again', `${second.secs.toFixed(2)} s, ${second.mbps.toFixed(1)} MB/s (deduplicated)`, '', 'info'],
    );
  }
  if (!KEEP) fs.rmSync(file, { force: true });
}

// the comparison view's data for a study of 10,000 experiments
{
  const r = await comparisonBench({ root, tmp });
  for (const [name, x] of Object.entries(r)) console.log(`scale      ${name}() of 10,000 experiments: ${x.dataMs.toFixed(0)} ms, ${x.ms.toFixed(0)} ms with its JSON (${x.mb.toFixed(1)} MB; medians of 7)`);
  const slow = r.comparison.dataMs >= 100;
  if (slow) { console.log(`${''.padEnd(10)} FAIL: the comparison's data took ${r.comparison.dataMs.toFixed(0)} ms (aim: under 100 ms)`); failed = true; }
  summary.push(['comparison 10k', `${r.comparison.dataMs.toFixed(0)} ms (${r.comparison.ms.toFixed(0)} ms with ${r.comparison.mb.toFixed(1)} MB of JSON)`, '< 100 ms', slow ? 'FAIL' : 'ok']);
  summary.push(['getStudy 10k', `${r.getStudy.dataMs.toFixed(0)} ms (${r.getStudy.ms.toFixed(0)} ms with ${r.getStudy.mb.toFixed(1)} MB of JSON)`, '', 'info']);
}

if (summary.length) {
  const w = [0, 1, 2].map((i) => Math.max(...summary.map((row) => row[i].length)));
  console.log(`\nsummary (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
  for (const [a, b, c, d] of summary) console.log(`  ${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`);
}

if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true }); else console.log(`kept ${tmp}`);
process.exit(failed ? 1 : 0);
