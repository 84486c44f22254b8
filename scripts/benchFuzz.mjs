/**
 * The fuzz part of scripts/bench.mjs (issue 10): every parser fed --fuzz-runs (100,000) mutated real
 * captures — windows of the committed fixtures (test/fixtures/captures/), its own kind and other
 * kinds, mangled as pasted and re-saved output gets mangled (CRLF, lone CR, colour codes, decimal
 * commas, tabs, cut and joined and repeated lines, invalid UTF-8 read as the app reads it, UTF-16
 * read as UTF-8, NUL bytes, numbers too long for a double, foreign lines) — plus 1,000 random byte
 * strings and 1,000 random line sets, three 10 MB single lines, lines of ~64 KiB, and every own
 * capture saved as UTF-16LE/BE with and without a BOM, and each distinct line of its captures
 * stretched to 8 and 32 KiB (time must grow linearly). The same checks as the CI run
 * (test/parsers/fuzzCore.ts): no throw from the sink or through CaptureStream, detect never throws,
 * finite numbers, warnings when nothing was read, the same parse whatever the chunk boundaries, and
 * a hang detector (FLOOR_MS + MS_PER_MB per MB of input). A different seed than CI's by default, so
 * the bench explores inputs CI does not; --fuzz-seed to change it (printed, with fast-check's replay
 * path on a failure). Parsers run in worker threads, one per CPU.
 */
import { build } from 'esbuild';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** the bench's default seed (CI uses fuzzCore's DEFAULT_SEED) */
export const BENCH_FUZZ_SEED = 100_000;
export const BENCH_FUZZ_RUNS = 100_000;
const RANDOM_RUNS = 1_000;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const core = require(workerData.bundle);
const all = core.loadSamples(workerData.fixtures);
parentPort.on('message', (id) => {
  if (id === null) { process.exit(0); }
  const p = core.PARSERS.find((x) => x.id === id);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = { id, mutated: 0, random: 0, big: 0, chars: 0, worstMsPerMb: 0, worstBig: '', failure: null, digitRuns: [] };
  try {
    const st = core.fuzzParser(p, all, workerData.runs, workerData.seed, undefined);
    r.mutated = st.inputs; r.chars += st.chars; r.worstMsPerMb = st.worstMsPerMb;
    r.random += core.fuzzRandomBytes(p, workerData.random, workerData.seed);
    r.random += core.fuzzRandomLines(p, workerData.random, workerData.seed);
    for (const b of core.bigInputs(p, all)) {
      const { ms } = core.checkInput(p, b.text, { spec: b.name }, { chunks: b.chunks });
      const perMb = ms / (b.text.length / 1e6);
      if (b.text.length >= 1e6 && perMb > r.worstMsPerMb) { r.worstMsPerMb = perMb; r.worstBig = b.name; }
      r.big++; r.chars += b.text.length;
    }
    const slow = core.lineScaling(p, all);
    if (slow.length) throw new Error('super-linear time on long lines: ' + JSON.stringify(slow));
    // lines holding a long run of digits: reported, not failed (known super-linear cases remain)
    r.digitRuns = core.lineScaling(p, all, { digits: true, maxShapes: 40 });
  } catch (e) { r.failure = e instanceof Error ? e.message : String(e); }
  const cu = process.cpuUsage(c0);
  r.secs = (performance.now() - t0) / 1000;
  r.cpuSecs = (cu.user + cu.system) / 1e6;
  parentPort.postMessage(r);
});
`;

/**
 * Run the fuzz phase. Returns { rows, failed, inputs, secs } and prints one line per parser.
 * `summary` gets the rows of bench.mjs's table.
 */
export async function fuzzBench({ root, tmp, runs = BENCH_FUZZ_RUNS, seed = BENCH_FUZZ_SEED, threads = os.cpus().length, only = null, summary = [], print = console.log }) {
  const bundle = path.join(tmp, 'fuzzCore.cjs');
  await build({
    entryPoints: [path.join(root, 'test/parsers/fuzzCore.ts')],
    bundle: true, format: 'cjs', platform: 'node', target: 'node20', outfile: bundle, logLevel: 'error',
  });
  const { createRequire } = await import('node:module');
  const core = createRequire(import.meta.url)(bundle);
  const ids = core.PARSERS.map((p) => p.id).filter((id) => only === null || only.includes(id));
  const fixtures = path.join(root, 'test/fixtures/captures');
  print(`fuzz       ${ids.length} parsers × ${runs.toLocaleString('en-US')} mutated real captures (+ ${2 * RANDOM_RUNS} random inputs, 10 MB lines, UTF-16 files each), seed ${seed}, ${threads} worker threads; hang detector ${core.FLOOR_MS} ms + ${core.MS_PER_MB} ms per MB`);

  const t0 = performance.now();
  const queue = [...ids];
  const results = [];
  const workers = Array.from({ length: Math.min(threads, ids.length) }, () => new Worker(WORKER, {
    eval: true, workerData: { bundle, fixtures, runs, seed, random: RANDOM_RUNS },
  }));
  await Promise.all(workers.map((w) => new Promise((resolve, reject) => {
    const next = () => { const id = queue.shift(); w.postMessage(id ?? null); if (id === undefined) resolve(); };
    w.on('message', (r) => {
      results.push(r);
      const verdict = r.failure ? 'FAIL' : 'PASS';
      print(`fuzz       ${r.id.padEnd(16)} ${r.mutated.toLocaleString('en-US')} mutated + ${r.random.toLocaleString('en-US')} random + ${r.big} large/UTF-16: ${(r.chars / 1e6).toFixed(0)} MB in ${r.cpuSecs.toFixed(1)} s CPU; slowest ${r.worstMsPerMb.toFixed(0)} ms per MB${r.worstBig ? ` (${r.worstBig})` : ''}: ${verdict}`);
      if (r.failure) print(r.failure.split('\n').map((l) => `           ${l}`).join('\n'));
      for (const d of r.digitRuns ?? []) print(`           info: super-linear on a long run of digits: ${d.source}: ${d.ms8k} ms → ${d.ms32k} ms for 4× the digits ("${d.line.trim().slice(0, 60)}")`);
      next();
    });
    w.on('error', reject);
    next();
  })));
  await Promise.all(workers.map((w) => w.terminate()));
  const secs = (performance.now() - t0) / 1000;

  const failures = results.filter((r) => r.failure);
  const mutated = results.reduce((a, r) => a + r.mutated, 0);
  const inputs = results.reduce((a, r) => a + r.mutated + r.random + r.big, 0);
  const mb = results.reduce((a, r) => a + r.chars, 0) / 1e6;
  const cpu = results.reduce((a, r) => a + r.cpuSecs, 0);
  const fewest = Math.min(...results.map((r) => r.mutated));
  const worst = results.reduce((a, r) => (r.worstMsPerMb > a.worstMsPerMb ? r : a), results[0]);
  const enough = !failures.length && fewest >= runs;
  print(`fuzz       ${enough ? 'PASS' : 'FAIL'}: ${inputs.toLocaleString('en-US')} inputs (${mutated.toLocaleString('en-US')} mutated real captures, at least ${fewest.toLocaleString('en-US')} per parser), ${mb.toFixed(0)} MB, ${failures.length} failures; ${secs.toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU`);
  summary.push(
    ['fuzz inputs', `${inputs.toLocaleString('en-US')} (${fewest.toLocaleString('en-US')}+ mutated per parser × ${results.length})`, `≥ ${runs.toLocaleString('en-US')} per parser`, fewest >= runs ? 'PASS' : 'FAIL'],
    ['fuzz failures', `${failures.length}${failures.length ? ` (${failures.map((r) => r.id).join(', ')})` : ''}`, '0', failures.length ? 'FAIL' : 'PASS'],
    ['fuzz slowest', `${worst.worstMsPerMb.toFixed(0)} ms per MB (${worst.id})`, `hang: ${core.FLOOR_MS} ms + ${core.MS_PER_MB} ms/MB`, 'info'],
    ['fuzz time', `${secs.toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU, ${mb.toFixed(0)} MB`, '', 'info'],
    ['fuzz digit runs', `${results.reduce((a, r) => a + (r.digitRuns?.length ?? 0), 0)} lines super-linear on a long run of digits (${[...new Set(results.filter((r) => r.digitRuns?.length).map((r) => r.id))].join(', ') || 'none'})`, '', 'info'],
  );
  return { results, failed: !enough, inputs, secs };
}
