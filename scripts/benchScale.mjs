/**
 * The notebook at scale (part of scripts/bench.mjs, issue 9): one study of 10,000 experiments (each
 * with notes, a result and a config change; a second metric on every third) and a notebook of
 * 100,000 stored captures, then what a user waits for, timed:
 *  - the reads a study view makes (studyOutline, timeline, comparison, getExperiment), search, the
 *    experiment index: on this thread (the data, and with its JSON), medians of several calls;
 *  - move, delete and restore of an experiment (the median of ten of each);
 *  - a 1,000,000-point series fetched and downsampled for a chart (captureSeries);
 *  - the same reads as a host serves them: through the read worker, while the main thread's event
 *    loop delay is measured (perf_hooks.monitorEventLoopDelay); and that delay during a capture
 *    import of `importMb` MB (a log made by repeating real fixture samples);
 *  - opening the notebook (the Backend) and its first study view's data;
 *  - browser mode in Chromium (when /usr/bin/chromium or Playwright's is there): `tunebook serve` on
 *    the notebook, from navigation to the study's comparison chart drawn, and selecting an experiment.
 * The 100,000 captures are copies of four real ones imported through the API (same chunks and
 * series, a different hash and name each), linked ten to an experiment: what a notebook of years
 * of work holds, seeded in seconds rather than hours.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { deflateRawSync } from 'node:zlib';

const require = createRequire(import.meta.url);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** median ms of `n` calls after one to warm up */
function timeIt(fn, n = 7) {
  fn();
  const t = [];
  for (let k = 0; k < n; k++) { const a = performance.now(); fn(); t.push(performance.now() - a); }
  return median(t);
}

async function timeAsync(fn, n = 7) {
  await fn();
  const t = [];
  for (let k = 0; k < n; k++) { const a = performance.now(); await fn(); t.push(performance.now() - a); }
  return median(t);
}

/** The longest the event loop was held up while `fn` ran (ms), and what `fn` returned. */
async function loopDelay(fn) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  // a tick every 5 ms, so a long task shows as one long delay
  const ticker = setInterval(() => {}, 5);
  try {
    const value = await fn();
    return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, value };
  } finally {
    clearInterval(ticker);
    h.disable();
  }
}

async function bundles(root, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const entries = {
    backend: 'electron/services/backend.ts', readWorker: 'electron/services/readWorker.ts',
    storeWorker: 'electron/services/storeWorker.ts', parseWorker: 'electron/services/parseWorker.ts',
  };
  await Promise.all(Object.entries(entries).map(([name, entry]) => build({
    entryPoints: [path.join(root, entry)], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile: path.join(dir, `${name}.cjs`), external: ['better-sqlite3', 'electron', 'playwright-core'], logLevel: 'error',
  })));
  return { Backend: require(path.join(dir, 'backend.cjs')).Backend };
}

/** A study of `n` experiments, written straight into the notebook (the API would spend minutes on 30,000 single writes). */
function seedStudy(Database, notebook, studyId, n) {
  const db = new Database(notebook);
  const t0 = new Date().toISOString();
  const notes = 'ab -n 100000 -c 1000 against the health endpoint; top showed the CPU at 100 %, mostly user time; vmstat cs about 7,000/s. '.repeat(4);
  db.transaction(() => {
    const e = db.prepare(`INSERT INTO experiment (study_id, position, title, date, notes, status, created_at, updated_at) VALUES (?, ?, ?, '2026-11-30', ?, ?, ?, ?)`);
    const m = db.prepare(`INSERT INTO result_metric (experiment_id, position, name, value, unit, better, is_primary) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const c = db.prepare(`INSERT INTO config_change (experiment_id, position, scope, key, before, after, why) VALUES (?, 0, 'sysctl', ?, '0', '1', 'step')`);
    for (let i = 0; i < n; i++) {
      const id = Number(e.run(studyId, (i + 1) * 1048576, `step ${i}: tune net.k${i}`, `${notes}${i}`, i % 17 === 5 ? 'reverted' : 'kept', t0, t0).lastInsertRowid);
      m.run(id, 0, 'requests_per_second', 1000 + i * 3, '1/s', 'higher', 1);
      if (i % 3 === 0) m.run(id, 1, 'cpu_util_percent', 50 + (i % 40), '%', 'lower', 0);
      c.run(id, `net.k${i}`);
    }
  })();
  db.close();
}

/**
 * Copies of the notebook's stored captures until it holds `total`, each with its own hash and name,
 * linked ten to an experiment of the study; and one series of 1,000,000 points on the first capture.
 */
function cloneCaptures(Database, notebook, studyId, total) {
  const db = new Database(notebook);
  const sources = db.prepare(`SELECT id FROM capture ORDER BY id`).pluck().all();
  const experiments = db.prepare(`SELECT id FROM experiment WHERE study_id = ? ORDER BY position`).pluck().all(studyId);
  const t0 = new Date().toISOString();
  db.transaction(() => {
    const cap = db.prepare(`INSERT INTO capture (sha256, name, size, line_count, kind, forced_kind, confidence, parser_version, parsed, tables, search_text, created_at, updated_at)
      SELECT substr(sha256, 1, 48) || printf('%016x', ?), ?, size, line_count, kind, forced_kind, confidence, parser_version, parsed, tables, search_text, created_at, updated_at
      FROM capture WHERE id = ?`);
    const chunks = db.prepare(`INSERT INTO capture_chunk (capture_id, seq, byte_start, line_start, mid_line, size, data)
      SELECT ?, seq, byte_start, line_start, mid_line, size, data FROM capture_chunk WHERE capture_id = ?`);
    const series = db.prepare(`INSERT INTO capture_series (capture_id, idx, meta, points, times) SELECT ?, idx, meta, points, times FROM capture_series WHERE capture_id = ?`);
    const link = db.prepare(`INSERT INTO experiment_capture (experiment_id, capture_id, position, name, note, created_at) VALUES (?, ?, ?, ?, '', ?)`);
    for (let i = sources.length; i < total; i++) {
      const src = sources[i % sources.length];
      const name = `run-${i}.log`;
      const id = Number(cap.run(i, name, src).lastInsertRowid);
      chunks.run(id, src);
      series.run(id, src);
      link.run(experiments[Math.floor(i / 10) % experiments.length], id, i % 10, name, t0);
    }
    // a day of one-second samples, eleven days over: 1,000,000 points (the parser keeps at most
    // 50,000 per series; this is the downsampler's worst case, written directly)
    const n = 1_000_000;
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = 50 + 40 * Math.sin(i / 5000) + (i % 97);
    const meta = JSON.stringify({ name: 'cpu user', column: 'us', unit: '%', stride: 1 });
    db.prepare(`INSERT OR REPLACE INTO capture_series (capture_id, idx, meta, points, times) VALUES (?, 999, ?, ?, NULL)`)
      .run(sources[0], meta, deflateRawSync(Buffer.from(values.buffer)));
  })();
  db.close();
  return sources[0];
}

/** Repeat a real fixture's samples into a log of about `mb` MB. */
function bigLog(root, file, mb) {
  const text = fs.readFileSync(path.join(root, 'test/fixtures/captures/vmstat/plain-1-30.txt'), 'utf8');
  const lines = text.split('\n');
  const header = lines.slice(0, 2).join('\n');
  const rows = lines.slice(2).filter((l) => /^\s*\d/.test(l)).join('\n');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, `${header}\n`);
  const block = `${rows}\n`.repeat(Math.max(1, Math.floor((4 << 20) / (rows.length + 1))));
  for (let written = 0; written < mb * 1e6; written += block.length) fs.writeSync(fd, block);
  fs.closeSync(fd);
}

async function browserTiming(root, notebook, studyId, experimentId) {
  let chromium;
  try { ({ chromium } = require('playwright-core')); } catch { return { skipped: 'playwright-core is not installed' }; }
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!executablePath) return { skipped: 'no Chromium at /usr/bin/chromium' };
  const cli = path.join(root, 'dist/cli.cjs');
  if (!fs.existsSync(path.join(root, 'dist/renderer/index.html'))) return { skipped: 'the UI is not built (npm run build)' };
  const server = spawn(process.execPath, [cli, 'serve', '--notebook', notebook, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => { out += d; const m = /running at (\S+)/.exec(out); if (m) resolve(m[1]); });
      server.on('exit', (code) => reject(new Error(`tunebook serve exited (${code})`)));
      setTimeout(() => reject(new Error('tunebook serve did not start')), 20_000);
    });
    const u = new URL(url);
    const api = (method, ...args) => fetch(`${u.origin}/api/${method}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Tunebook-Token': u.searchParams.get('token'), Origin: u.origin }, body: JSON.stringify({ args }),
    }).then((r) => r.json());
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      let interactive = 0;
      const toChart = async () => {
        const a = performance.now();
        await page.goto(url);
        const study = page.getByRole('button', { name: /experiments/ }).first();
        await study.waitFor();
        interactive = performance.now() - a; // the window shows the notebook's studies and takes clicks
        await study.click();
        await page.locator('[data-testid="chart"][data-state="ready"]').first().waitFor({ timeout: 60_000 });
        return performance.now() - a;
      };
      // the first time: the server just started (its workers, their connections, nothing read yet)
      const firstMs = await toChart();
      const interactiveMs = interactive;
      // after a change (an experiment renamed: every answer about the study is read afresh)
      const changed = [];
      for (let k = 0; k < 3; k++) {
        await api('updateExperiment', experimentId, { title: `renamed ${k}` });
        changed.push(await toChart());
      }
      // and again with nothing changed (the read workers answer from what they kept)
      const times = [];
      for (let k = 0; k < 3; k++) times.push(await toChart());
      // select another experiment: its detail (notes) drawn
      const a = performance.now();
      const item = page.locator('[data-testid="experiment-item"] button').nth(3);
      const title = (await item.locator('.exp-title').textContent()) ?? '';
      await item.click();
      await page.getByRole('region', { name: `Experiment ${title}`, exact: true }).waitFor({ timeout: 30_000 });
      const select = performance.now() - a;
      return { interactiveMs, firstMs, changedMs: median(changed), chartMs: median(times), selectMs: select };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill();
  }
}

export async function scaleBench({ root, tmp, experiments = 10_000, captures = 100_000, importMb = 1024 }) {
  const dir = path.join(root, '.cache', `bench-scale-${process.pid}`);
  const { Backend } = await bundles(root, dir);
  const Database = require('better-sqlite3');
  const notebook = path.join(tmp, 'scale.tunebook');
  const out = {};
  try {
    // ---- seed -------------------------------------------------------------------------------
    let backend = new Backend({ notebookPath: notebook, userDataDir: tmp });
    let api = backend.api;
    const study = api.createStudy({ title: `${experiments.toLocaleString('en-US')} experiments` });
    api.setRequirements(study.id, [
      { metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', label: 'QPS' },
      { metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', label: 'server load' },
    ]);
    let a = performance.now();
    seedStudy(Database, notebook, study.id, experiments);
    out.seedStudyMs = performance.now() - a;
    const ids = api.studyOutline(study.id).experiments.map((e) => e.id);
    const fixtures = ['vmstat/plain-1-30.txt', 'iostat/iostat-x-d-1-during-randwrite.txt', 'ab/plain.txt', 'fio/fio-randwrite-4k-qd64-j64.txt']
      .map((f) => path.join(root, 'test/fixtures/captures', f));
    await backend.call('importCaptures', [ids[0], fixtures.map((p) => ({ path: p }))]);
    a = performance.now();
    const seriesCapture = cloneCaptures(Database, notebook, study.id, captures);
    out.seedCapturesMs = performance.now() - a;
    out.captures = new Database(notebook, { readonly: true }).prepare(`SELECT count(*) FROM capture`).pluck().get();
    backend.close();

    // ---- open -------------------------------------------------------------------------------
    a = performance.now();
    backend = new Backend({ notebookPath: notebook, userDataDir: tmp });
    api = backend.api;
    api.listStudies();
    api.studyOutline(study.id);
    out.openMs = performance.now() - a;

    // ---- reads on this thread ---------------------------------------------------------------
    const reads = {
      studyOutline: () => api.studyOutline(study.id),
      timeline: () => api.timeline(study.id),
      comparison: () => api.comparison(study.id),
      getExperiment: () => api.getExperiment(ids[5000 % ids.length]),
      'search "health"': () => api.search('health'),
      'search "run-99999"': () => api.search('run-99999'),
      experimentIndex: () => api.experimentIndex(),
      getStudy: () => api.getStudy(study.id),
      'captureSeries 1M points': () => api.captureSeries(seriesCapture, 999),
    };
    out.reads = {};
    for (const [name, fn] of Object.entries(reads)) {
      out.reads[name] = { dataMs: timeIt(fn), ms: timeIt(() => JSON.stringify(fn())), mb: JSON.stringify(fn()).length / 1e6 };
    }

    // ---- writes -----------------------------------------------------------------------------
    const moves = [], deletes = [], restores = [];
    for (let k = 0; k < 10; k++) {
      const id = ids[ids.length - 1 - k * 7];
      a = performance.now(); api.moveExperiment(id, k); moves.push(performance.now() - a);
      a = performance.now(); api.deleteExperiment(id); deletes.push(performance.now() - a);
      a = performance.now(); api.restoreExperiment(id); restores.push(performance.now() - a);
    }
    out.writes = { move: median(moves), delete: median(deletes), restore: median(restores) };
    backend.close();

    // ---- as a host serves them: in a process of its own, like the app's main process ---------
    Object.assign(out, await inChild({ dir, root, tmp, notebook, studyId: study.id, ids: ids.slice(0, 8), seriesCapture, importMb }));

    // ---- browser mode -------------------------------------------------------------------------
    try {
      out.browser = await browserTiming(root, notebook, study.id, ids[3]);
    } catch (e) {
      out.browser = { skipped: e instanceof Error ? e.message : String(e) };
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The reads through the read workers, and the host's event loop meanwhile, measured in a fresh
 * process holding nothing but the Backend (as the app's main process or `tunebook serve` would):
 * in this one, the garbage of the in-thread reads above (tens of MB of JSON) would be collected
 * during the measurement and show as delays no host has.
 */
function inChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--host-phase', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the host phase exited with ${code}`))));
  });
}

async function hostPhase({ dir, root, tmp, notebook, studyId, ids, seriesCapture, importMb }) {
  const { Backend } = require(path.join(dir, 'backend.cjs'));
  const readWorkerFile = path.join(dir, 'readWorker.cjs');
  const study = { id: studyId };
  const out = {};
  const backend = new Backend({ notebookPath: notebook, userDataDir: tmp, readWorkerFile });
  const call = (m, ...args) => backend.call(m, args);
  out.worker = {};
  const hosted = {
    studyOutline: () => call('studyOutline', study.id), timeline: () => call('timeline', study.id), comparison: () => call('comparison', study.id),
    'search "health"': () => call('search', 'health'), 'captureSeries 1M points': () => call('captureSeries', seriesCapture, 999),
  };
  // each read right after a change (the workers' kept answers are void), then again with nothing changed
  let edits = 0;
  const fresh = async (fn) => {
    const t = [];
    for (let k = 0; k < 5; k++) {
      backend.api.updateStudy(study.id, { goal: `reach 30k req/s (${edits++})` });
      const a = performance.now(); await fn(); t.push(performance.now() - a);
    }
    return median(t);
  };
  const loop = await loopDelay(async () => {
    for (const [name, fn] of Object.entries(hosted)) out.worker[name] = { freshMs: await fresh(fn), keptMs: await timeAsync(fn, 5) };
    // a study view opened: its four reads at once, as the window makes them
    const view = () => Promise.all([call('studyOutline', study.id), call('comparison', study.id), call('getExperiment', ids[0]), call('listStudies')]);
    out.worker['study view (4 reads at once)'] = { freshMs: await fresh(view), keptMs: await timeAsync(view, 5) };
    // and the writes a user makes meanwhile, on the main thread
    for (let k = 0; k < 5; k++) { backend.api.moveExperiment(ids[k], 100 + k); backend.api.deleteExperiment(ids[k]); backend.api.restoreExperiment(ids[k]); }
  });
  out.loopReads = loop;
  if (importMb > 0) {
    const log = path.join(tmp, 'scale-import.log');
    bigLog(root, log, importMb);
    const size = fs.statSync(log).size;
    const imp = await loopDelay(async () => {
      const t = performance.now();
      await call('importCaptures', ids[1], [{ path: log }]);
      return performance.now() - t;
    });
    out.loopImport = { ...imp, mb: size / 1e6 };
    fs.rmSync(log, { force: true });
  }
  backend.close();

  return out;
}

if (process.argv[2] === '--host-phase' && process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = JSON.stringify(await hostPhase(JSON.parse(process.argv[3])));
  process.stdout.write(result, () => process.exit(0));
}

/** Print the scale bench's figures, add its rows to the summary; returns whether a target was missed. */
export function reportScale(r, summary) {
  const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
  const n = (x) => x.toLocaleString('en-US');
  let failed = false;
  const row = (label, value, target, limit) => {
    const ok = limit === undefined || value < limit;
    if (!ok) failed = true;
    summary.push([label, typeof value === 'number' ? ms(value) : value, target, limit === undefined ? 'info' : ok ? 'ok' : 'FAIL']);
  };
  console.log(`scale      seeded ${n(10_000)} experiments in ${ms(r.seedStudyMs)}, ${n(r.captures)} captures in ${ms(r.seedCapturesMs)}`);
  for (const [name, x] of Object.entries(r.reads)) console.log(`scale      ${name}: ${ms(x.dataMs)}, ${ms(x.ms)} with its JSON (${x.mb.toFixed(2)} MB; median of 7, on the calling thread)`);
  console.log(`scale      move ${ms(r.writes.move)}, delete ${ms(r.writes.delete)}, restore ${ms(r.writes.restore)} (medians of 10)`);
  for (const [name, x] of Object.entries(r.worker)) console.log(`scale      ${name} through the read workers: ${ms(x.freshMs)} after a change, ${ms(x.keptMs)} again`);
  console.log(`scale      main thread's event loop held up at most ${ms(r.loopReads.maxMs)} (p99 ${ms(r.loopReads.p99Ms)}) during those reads and 15 writes`);
  if (r.loopImport) console.log(`scale      and at most ${ms(r.loopImport.maxMs)} (p99 ${ms(r.loopImport.p99Ms)}) during the import of a ${r.loopImport.mb.toFixed(0)} MB log (${(r.loopImport.value / 1000).toFixed(1)} s)`);
  console.log(`scale      opening the notebook and its study's data: ${ms(r.openMs)}`);
  if (r.browser.skipped) console.log(`scale      browser mode: skipped (${r.browser.skipped})`);
  else {
    console.log(`scale      browser mode, from navigation to the comparison chart drawn: ${ms(r.browser.changedMs)} after a change to the study, ${ms(r.browser.chartMs)} with nothing changed (medians of 3), ${ms(r.browser.firstMs)} the first time after the server started`);
    console.log(`scale      browser mode: selecting an experiment ${ms(r.browser.selectMs)}; the notebook's window interactive (its studies listed) ${ms(r.browser.interactiveMs)} after navigating, the first time`);
  }

  row('study data 10k', r.reads.studyOutline.dataMs, '< 100 ms', 100);
  row('timeline 10k', r.reads.timeline.dataMs, '< 100 ms', 100);
  row('comparison 10k', r.reads.comparison.dataMs, '< 100 ms', 100);
  row('move / delete / restore', Math.max(r.writes.move, r.writes.delete, r.writes.restore), '< 50 ms', 50);
  row('search', Math.max(r.reads['search "health"'].dataMs, r.reads['search "run-99999"'].dataMs), '< 100 ms', 100);
  row('1M-point series', r.reads['captureSeries 1M points'].dataMs, '< 300 ms', 300);
  row('open notebook (back end)', r.openMs, '< 2000 ms', 2000);
  if (!r.browser.skipped) row('open notebook: window interactive', r.browser.interactiveMs, '< 2000 ms', 2000);
  row('study view, read workers', `${ms(r.worker['study view (4 reads at once)'].freshMs)} after a change, ${ms(r.worker['study view (4 reads at once)'].keptMs)} again`, '', undefined);
  row('event loop (reads)', r.loopReads.maxMs, '< 50 ms', 50);
  if (r.loopImport) row(`event loop (${r.loopImport.mb.toFixed(0)} MB import)`, r.loopImport.maxMs, '< 50 ms', 50);
  if (!r.browser.skipped) {
    row('browser: to chart, after a change', r.browser.changedMs, '< 1500 ms', 1500);
    row('browser: to chart, again', r.browser.chartMs, '< 1500 ms', 1500);
    row('browser: to chart, first open', r.browser.firstMs, '', undefined);
  }
  row('getStudy 10k (in full)', `${ms(r.reads.getStudy.dataMs)} (${r.reads.getStudy.mb.toFixed(1)} MB of JSON; the CLI's show --json)`, '', undefined);
  return failed;
}
