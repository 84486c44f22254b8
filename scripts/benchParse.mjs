/**
 * The parser part of scripts/bench.mjs: big logs made by repeating real samples from the committed
 * fixtures (test/fixtures/captures/ — never invented output), and three ways to time them:
 *  - in stream: CaptureStream alone in this process, 1 MiB chunks as the CLI reads them;
 *  - the no-op ceiling: the same CaptureStream with the "text" parser, which does nothing per line
 *    (line splitting, cleaning, the stream's own bookkeeping): no parser can beat it;
 *  - end to end: the built CLI, `node dist/cli.cjs parse --json FILE > /dev/null`, as a child
 *    process (start-up, reading, decoding, parsing, findings and the JSON written, all included);
 *  - jc (`jc --iostat`, `jc --vmstat` …) on a slice of the same log, when it is installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

/** 1 MiB: the read size of the CLI and of the store (electron/services/captureFiles.ts, captureStore.ts) */
export const CHUNK = 1 << 20;

const fixture = (root, p) => fs.readFileSync(path.join(root, 'test/fixtures/captures', p), 'utf8');
const banner = (text) => text.split('\n').find((l) => l.startsWith('Linux '));

/** Reports of an iostat capture: each "avg-cpu … Device … rows" block, blank-line separated. */
function iostatReports(text) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Linux '));
  return lines.slice(at + 1).join('\n').split(/\n\n\n+/).map((r) => r.trim()).filter(Boolean);
}

/** Blank-line separated blocks of a sysstat time-table report (pidstat, sar), without the "Average:" ones. */
function intervalBlocks(text) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Linux '));
  return lines.slice(at + 1).join('\n').split(/\n\s*\n/).map((b) => b.replace(/^\n+|\s+$/g, ''))
    .filter((b) => b && !/^\S+:\s/.test(b)); // "Average:", "Durchschn.:" … blocks are summaries, once per run
}

/**
 * The logs: { name, label, kind, head, body, jc, jcHead?, jcBody? } — `head` once, then `body`
 * repeated to the size asked for. Every line is a line the tool printed in one of the fixtures.
 * `jc` is jc's flag for the format (null: jc has no parser for it); `jcHead`/`jcBody`, when given,
 * are the same tool's output in the layout jc reads (jc --vmstat refuses repeated headers: it gets
 * `vmstat -n`'s layout, the header printed once).
 */
export function benchLogs(root) {
  const fx = (p) => fixture(root, p);
  // iostat -x: the real interval reports of one device and of -p ALL (partitions), over and over
  const x13 = fx('iostat/x-1-3.txt');
  const xp = fx('iostat/x-p-all-1-2.txt');
  const reportsA = iostatReports(x13).slice(1);
  const reportsB = iostatReports(xp).slice(1);
  const iostat = {
    name: 'iostat-x', label: 'iostat -x', kind: 'iostat', jc: '--iostat',
    head: '$ iostat -x 1\n' + banner(x13) + '\n\n',
    body: [...reportsA, ...reportsB, ...reportsA].map((r) => r + '\n\n\n').join(''),
  };
  iostat.jcHead = banner(x13) + '\n\n';
  iostat.jcBody = iostat.body;
  // vmstat: header, then the rows of the real 30-second capture, the header repeated every 30 rows like a terminal run
  const vm = fx('vmstat/plain-1-30.txt').trimEnd().split('\n');
  const vmHeader = vm.slice(0, 2).join('\n') + '\n';
  const vmstat = {
    name: 'vmstat', label: 'vmstat', kind: 'vmstat', jc: '--vmstat',
    head: '$ vmstat 1\n' + vmHeader + vm[2] + '\n',
    body: vmHeader + vm.slice(3).join('\n') + '\n',
    jcHead: vmHeader + vm[2] + '\n',
    jcBody: vm.slice(3).join('\n') + '\n',
  };
  // strace -f -tt -T -o: the whole trace of a shell and its children, again and again
  const strace = {
    name: 'strace-f', label: 'strace -f', kind: 'strace-log', jc: null,
    head: '', body: fx('strace-log/strace-f-tt-T.txt').replace(/\n*$/, '\n'),
  };
  // perf script of perf record -g -a: samples with their call stacks, blank-line separated
  const perf = {
    name: 'perf-script', label: 'perf script', kind: 'perf-script', jc: null,
    head: '', body: fx('perf-script/perf-script-g-a.txt').replace(/\n*$/, '\n\n'),
  };
  // pidstat -u -r -d 1: the interval blocks (per-process rows under their headers)
  const pid = fx('pidstat/urd-1-2.txt');
  const pidstat = {
    name: 'pidstat', label: 'pidstat -urd', kind: 'pidstat', jc: null, // jc --pidstat reads only pidstat -h output
    head: '$ pidstat -u -r -d 1\n' + banner(pid) + '\n\n',
    body: intervalBlocks(pid).map((b) => b + '\n\n').join(''),
  };
  // sar -n DEV 1: per-interface rows
  const sarText = fx('sar/n-DEV-1-2.txt');
  const sar = {
    name: 'sar', label: 'sar -n DEV', kind: 'sar', jc: null,
    head: '$ sar -n DEV 1\n' + banner(sarText) + '\n\n',
    body: intervalBlocks(sarText).map((b) => b + '\n\n').join(''),
  };
  // top -b: three whole iterations (summary area and process list) over and over
  const top = {
    name: 'top', label: 'top -b', kind: 'top', jc: '--top', jcBytes: 2e6, // jc --top reads well under 1 MB/s
    head: '', body: fx('top/top-b-n3.txt').replace(/\n*$/, '\n\n'),
  };
  return [iostat, vmstat, strace, perf, pidstat, sar, top];
}

/** Write head + body repeated until `targetBytes`; returns the size. */
export function writeLog(file, log, targetBytes) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, log.head);
    let size = Buffer.byteLength(log.head);
    const bodyBytes = Buffer.byteLength(log.body);
    const reps = Math.max(1, Math.floor((8 << 20) / bodyBytes)); // ~8 MiB batches
    const batch = log.body.repeat(reps);
    const batchBytes = bodyBytes * reps;
    while (size < targetBytes) { fs.writeSync(fd, batch); size += batchBytes; }
    return size;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Parse `file` with CaptureStream in this process, read in 1 MiB chunks and decoded like the CLI.
 * Returns { out, secs, cpuSecs, mbps, cpuMbps } (out: the ParsedCapture).
 */
export async function streamOnce(CaptureStream, file, bytes, opts = {}) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // told the file's size, as the CLI's stream is (its stores size their arrays from the share read)
  const s = new CaptureStream({ size: bytes, ...opts });
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK })) s.write(chunk);
  const out = s.end();
  const secs = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  const cpuSecs = (cu.user + cu.system) / 1e6;
  return { out, secs, cpuSecs, mbps: bytes / 1e6 / secs, cpuMbps: bytes / 1e6 / cpuSecs };
}

/**
 * `node CLI parse --json [extra…] FILE > /dev/null`: { secs } (wall clock); rejects when it fails.
 * `env`: added to the child's (TUNEBOOK_SPLIT_MIN_BYTES=off parses a long iostat or vmstat log in one thread).
 */
export function cliParseOnce(cli, file, extra = [], env = {}) {
  return new Promise((resolve, reject) => {
    const devnull = fs.openSync('/dev/null', 'w');
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'parse', '--json', ...extra, file], { stdio: ['ignore', devnull, 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', (e) => { fs.closeSync(devnull); reject(e); });
    child.on('close', (code) => {
      const secs = (performance.now() - t0) / 1000;
      fs.closeSync(devnull);
      if (code !== 0) reject(new Error(`tunebook parse exited ${code}: ${stderr.slice(0, 500)}`));
      else resolve({ secs });
    });
  });
}

/** Start-up alone: `node CLI --version` (what end-to-end figures include besides the work). */
export async function cliStartup(cli, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, '--version'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`tunebook --version exited ${r.status}`);
    times.push((performance.now() - t0) / 1000);
  }
  return Math.min(...times);
}

/** The first `bytes` of `file` cut at a line end, written to `out`; returns its size. */
export function sliceFile(file, out, bytes) {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(bytes);
  const n = fs.readSync(fd, buf, 0, bytes, 0);
  fs.closeSync(fd);
  const end = buf.lastIndexOf(10, n - 1) + 1;
  fs.writeFileSync(out, buf.subarray(0, end));
  return end;
}

/** `CMD ARGS < file > /dev/null` with `env` added: wall seconds, or null when the program is missing or fails. */
function timeProgram(cmd, args, file, env = {}) {
  const devnull = fs.openSync('/dev/null', 'w');
  const input = fs.openSync(file, 'r');
  try {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: [input, devnull, 'ignore'], env: { ...process.env, ...env } });
    const secs = (performance.now() - t0) / 1000;
    return r.status === 0 ? secs : null;
  } catch {
    return null;
  } finally {
    fs.closeSync(devnull);
    fs.closeSync(input);
  }
}

/** `jc FLAG < file > /dev/null`: wall seconds, or null when jc is missing or fails. */
export function jcOnce(flag, file) {
  const secs = timeProgram('jc', [flag], file);
  return secs === null ? null : { secs };
}

export function hasJc() {
  try { return spawnSync('jc', ['--version'], { encoding: 'utf8' }).status === 0; } catch { return false; }
}

/** The same tool output in jc's layout (see benchLogs), about `bytes` long: its file and size. */
export function writeJcSlice(log, file, bytes) {
  const head = log.jcHead ?? log.head, body = log.jcBody ?? log.body;
  const reps = Math.max(1, Math.round((bytes - Buffer.byteLength(head)) / Buffer.byteLength(body)));
  const text = head + body.repeat(reps);
  fs.writeFileSync(file, text);
  return Buffer.byteLength(text);
}

const best = (xs) => Math.min(...xs);

/**
 * What memory costs the first time it is written, on this machine: a fresh node writes one double
 * into every 4 KiB page of 256 MB of new Float64Arrays (each page faulted in by the kernel, as a
 * parser's growing series are). Best of `runs`: { mbps, usPerPage }, or null when it fails. On a VM
 * whose page faults are slow this, not the parser's loops, bounds a parse that keeps ~90 MB of points.
 */
export function freshMemory(runs = 3) {
  const script = `const t = process.hrtime.bigint(); const keep = [];
for (let i = 0; i < 64; i++) { const a = new Float64Array(512 * 1024); for (let j = 0; j < a.length; j += 512) a[j] = 1; keep.push(a); }
process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e9));`;
  const secs = [];
  for (let r = 0; r < runs; r++) {
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const s = Number(out.stdout);
    if (out.status === 0 && s > 0) secs.push(s);
  }
  if (!secs.length) return null;
  const bytes = 64 * 512 * 1024 * 8;
  return { mbps: bytes / 1e6 / best(secs), usPerPage: (best(secs) * 1e6) / (bytes / 4096) };
}

/**
 * Reference programs in C on the same file, for what this machine does at best with such text:
 * `wc -w` (C locale) only finds the words; awk also reads every field as a number and adds it up
 * — the least any parser of these logs must do, without detection, units, series or JSON.
 */
const REFERENCES = [
  { label: 'wc -w', cmd: 'wc', args: ['-w'], env: { LC_ALL: 'C' } },
  { label: 'awk summing every field', cmd: 'awk', args: ['{ for (i = 1; i <= NF; i++) s += $i } END { print s }'], env: { LC_ALL: 'C' } },
];

/**
 * The parser table of `npm run bench`, one row per log: the built CLI end to end
 * (`tunebook parse --json FILE`, best of `runs`), the same CLI with the no-op parser
 * (`--kind text`: reading, decoding, line splitting and the JSON — the ceiling), CaptureStream alone
 * in this process, jc on a slice (ours timed on the very same slice, in the same run), and the C
 * references (REFERENCES) on the whole file, interleaved with ours.
 * Returns rows { log, size, e2e, oneThread, ceiling, stream, streamCeiling, jc, refs } (MB/s figures;
 * oneThread: the same CLI with the cut off, for the logs it cuts in two, else null; jc:
 * { mbps, oursMbps, ratio } or a reason string; refs: [{ label, mbps | null }]).
 */
export async function parseBench({ CaptureStream, cli, tmp, logs, sizeOf, runs = 3, print = console.log }) {
  const rows = [];
  const jc = hasJc();
  for (const log of logs) {
    const file = path.join(tmp, `${log.name}.log`);
    const size = writeLog(file, log, sizeOf(log));
    const mbps = (secs) => size / 1e6 / secs;
    const e2eTimes = [], ceilTimes = [], oneTimes = [];
    const refTimes = REFERENCES.map(() => []);
    // iostat and vmstat logs this long are cut in two and parsed on two cores (halfParse.ts): also timed in one thread
    const halves = log.kind === 'iostat' || log.kind === 'vmstat';
    // interleaved, so a burst of load on the machine hits all alike
    for (let r = 0; r < runs; r++) {
      ceilTimes.push((await cliParseOnce(cli, file, ['--kind', 'text'])).secs);
      e2eTimes.push((await cliParseOnce(cli, file)).secs);
      if (halves) oneTimes.push((await cliParseOnce(cli, file, [], { TUNEBOOK_SPLIT_MIN_BYTES: 'off' })).secs);
      REFERENCES.forEach((ref, i) => { const t = timeProgram(ref.cmd, ref.args, file, ref.env); if (t !== null) refTimes[i].push(t); });
    }
    const refs = REFERENCES.map((ref, i) => ({ label: ref.label, mbps: refTimes[i].length ? mbps(best(refTimes[i])) : null }));
    const stream = await streamOnce(CaptureStream, file, size);
    const kind = stream.out.kind;
    stream.out = null;
    const streamCeiling = await streamOnce(CaptureStream, file, size, { kind: 'text' });
    streamCeiling.out = null;
    let jcRow = 'jc has no parser for it';
    if (log.jc && !jc) jcRow = 'jc not installed';
    else if (log.jc) {
      const slice = path.join(tmp, `${log.name}-jc.log`);
      const sliceSize = writeJcSlice(log, slice, log.jcBytes ?? 20e6);
      const ours = best([(await cliParseOnce(cli, slice)).secs, (await cliParseOnce(cli, slice)).secs]);
      const j = jcOnce(log.jc, slice);
      jcRow = j ? { mbps: sliceSize / 1e6 / j.secs, oursMbps: sliceSize / 1e6 / ours, ratio: j.secs / ours, sliceSize } : `jc ${log.jc} failed on it`;
      fs.rmSync(slice, { force: true });
    } else if (log.name === 'pidstat') jcRow = 'jc --pidstat reads only pidstat -h';
    fs.rmSync(file, { force: true });
    const row = {
      log, size, kind, e2e: mbps(best(e2eTimes)), e2eAll: e2eTimes.map(mbps), ceiling: mbps(best(ceilTimes)),
      oneThread: oneTimes.length ? mbps(best(oneTimes)) : null,
      stream: Math.max(stream.mbps, stream.cpuMbps), streamCeiling: Math.max(streamCeiling.mbps, streamCeiling.cpuMbps), jc: jcRow, refs,
    };
    rows.push(row);
    const jcText = typeof jcRow === 'string' ? jcRow : `jc ${log.jc} ${jcRow.mbps.toFixed(1)} MB/s on ${(jcRow.sliceSize / 1e6).toFixed(0)} MB, ours ${jcRow.oursMbps.toFixed(0)} MB/s on the same slice: ${jcRow.ratio.toFixed(1)}× faster`;
    const one = row.oneThread === null ? '' : ` in two threads (${row.oneThread.toFixed(0)} MB/s in one: ${(row.e2e / row.oneThread).toFixed(2)}×)`;
    print(`${log.label.padEnd(13)} ${(size / 1e6).toFixed(0)} MB (kind ${kind}): tunebook parse --json ${row.e2e.toFixed(0)} MB/s end to end${one} (runs ${row.e2eAll.map((x) => x.toFixed(0)).join(', ')}), `
      + `${(row.e2e / row.ceiling * 100).toFixed(0)} % of the no-op ceiling ${row.ceiling.toFixed(0)} MB/s (--kind text); in process ${row.stream.toFixed(0)} MB/s of ${row.streamCeiling.toFixed(0)} MB/s; ${jcText}; `
      + `C on the same file: ${refs.map((r) => `${r.label} ${r.mbps === null ? 'not run' : r.mbps.toFixed(0) + ' MB/s'}`).join(', ')}`);
  }
  return rows;
}
