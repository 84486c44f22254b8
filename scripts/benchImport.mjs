/**
 * The full-import part of scripts/bench.mjs: runs the built CLI (`dist/cli.cjs import`) as a child
 * process on one large log, end to end (parse + chunk in the store worker thread while its staging
 * thread hashes and deflates the chunks into a staging file, then the commit transaction), and
 * measures its wall time, CPU time and the peak resident set of the whole child process (every
 * thread included).
 *
 * Peak RSS: under GNU time (`/usr/bin/time -v`) when it is installed — the kernel's exact maximum
 * (wait4 ru_maxrss) — and on Linux also by polling /proc/<pid>/status (VmHWM, the resident high-water
 * mark) every 50 ms; the larger of the two is reported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const POLL_MS = 50;

/**
 * dist/cli.cjs with dist/storeWorker.cjs (and parseWorker.cjs, halfWorker.cjs) beside it, built with
 * `node scripts/build.mjs node` when one is missing or older than a source it was bundled from
 * (the sources listed in its source map) or than package.json.
 */
export function ensureCli(root) {
  const bundles = ['dist/cli.cjs', 'dist/storeWorker.cjs', 'dist/parseWorker.cjs', 'dist/halfWorker.cjs'].map((f) => path.join(root, f));
  const mtime = (f) => { try { return fs.statSync(f).mtimeMs; } catch { return Infinity; } };
  const stale = bundles.find((b) => {
    if (!fs.existsSync(b) || !fs.existsSync(`${b}.map`)) return true;
    const built = mtime(b);
    const sources = JSON.parse(fs.readFileSync(`${b}.map`, 'utf8')).sources.map((s) => path.resolve(path.dirname(b), s));
    return [...sources, path.join(root, 'package.json')].some((s) => mtime(s) > built);
  });
  if (stale) {
    console.log(`import     ${path.relative(root, stale)} is missing or older than its sources: node scripts/build.mjs node`);
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'node'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`the build failed (exit ${r.status})`);
  }
  return bundles[0];
}

function gnuTime() {
  if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['--version'], { encoding: 'utf8' });
  return /GNU/.test(`${r.stdout}${r.stderr}`) ? '/usr/bin/time' : null;
}

/** kB values of /proc/<pid>/status, or null once the process is gone. */
function procStatus(pid) {
  let text;
  try { text = fs.readFileSync(`/proc/${pid}/status`, 'utf8'); } catch { return null; }
  const kb = (key) => { const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text); return m ? Number(m[1]) : 0; };
  return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
}

/** The node process: the child itself, or GNU time's child. */
function nodePid(pid, wrapped) {
  if (!wrapped) return pid;
  try {
    const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return kids.length ? Number(kids[0]) : null;
  } catch { return null; }
}

/**
 * Run `node CLI ...args` and measure it. Returns { code, stdout, stderr, secs, peakRss (bytes or
 * null), rssHow, cpuSecs (or null) }.
 */
export function runMeasured(cli, args, { env, tmp }) {
  const time = gnuTime();
  const timeOut = path.join(tmp, `time-${process.hrtime.bigint()}.txt`);
  const cmd = time ?? process.execPath;
  const argv = time ? ['-v', '-o', timeOut, process.execPath, cli, ...args] : [cli, ...args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    let polledKb = 0, pid = null;
    const poll = () => {
      pid ??= nodePid(child.pid, !!time);
      const s = pid && procStatus(pid);
      if (s) polledKb = Math.max(polledKb, s.hwm, s.rss);
    };
    const timer = process.platform === 'linux' ? setInterval(poll, POLL_MS) : null;
    child.on('error', (e) => { if (timer) clearInterval(timer); reject(e); });
    child.on('close', (code) => {
      const secs = (performance.now() - t0) / 1000;
      if (timer) clearInterval(timer);
      let timeKb = 0, cpuSecs = null;
      if (time && fs.existsSync(timeOut)) {
        const t = fs.readFileSync(timeOut, 'utf8');
        fs.rmSync(timeOut, { force: true });
        timeKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(t)?.[1] ?? 0);
        const user = Number(/User time \(seconds\): ([\d.]+)/.exec(t)?.[1] ?? NaN);
        const sys = Number(/System time \(seconds\): ([\d.]+)/.exec(t)?.[1] ?? NaN);
        if (Number.isFinite(user + sys)) cpuSecs = user + sys;
      }
      const peakKb = Math.max(timeKb, polledKb);
      const how = [timeKb ? `time -v ${(timeKb * 1024 / 1e6).toFixed(1)} MB` : '', polledKb ? `/proc VmHWM ${(polledKb * 1024 / 1e6).toFixed(1)} MB` : ''].filter(Boolean).join(', ');
      resolve({ code, stdout, stderr, secs, peakRss: peakKb ? peakKb * 1024 : null, rssHow: how || 'not measured on this platform', cpuSecs });
    });
  });
}

const notebookBytes = (file) => ['', '-wal', '-shm'].reduce((n, s) => { try { return n + fs.statSync(file + s).size; } catch { return n; } }, 0);

/**
 * Import `file` (size bytes) into a new notebook in `tmp` twice: a first import that stores it, then
 * a second one on another experiment of the same notebook (same bytes: deduplicated, only linked —
 * it still reads, hashes and parses the whole file). Returns both runs and the notebook's size.
 */
export async function importBench({ root, tmp, file, size }) {
  const cli = ensureCli(root);
  const notebook = path.join(tmp, 'bench.tunebook');
  const childTmp = path.join(tmp, 'child-tmp'); // the CLI's staging files land here (os.tmpdir())
  fs.mkdirSync(childTmp, { recursive: true });
  const env = { ...process.env, TUNEBOOK_USER_DATA: path.join(tmp, 'user-data'), TMPDIR: childTmp };
  delete env.TB_BENCH_CHILD;
  delete env.NODE_OPTIONS;
  const once = async (experiment) => {
    const r = await runMeasured(cli, ['import', '--notebook', notebook, '--study', 'bench', '--experiment', experiment, '--json', file], { env, tmp });
    if (r.code !== 0) throw new Error(`tunebook import exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    let out;
    try { out = JSON.parse(r.stdout); } catch { throw new Error(`tunebook import printed no JSON: ${r.stdout.slice(0, 500)}`); }
    const c = out.imported?.[0];
    if (!c || out.failed?.length) throw new Error(`tunebook import stored nothing: ${JSON.stringify(out.failed ?? out).slice(0, 500)}`);
    if (c.bytes !== size) throw new Error(`tunebook import stored ${c.bytes} bytes of ${size}`);
    return { ...r, capture: c, mbps: size / 1e6 / r.secs, cpuMbps: r.cpuSecs ? size / 1e6 / r.cpuSecs : null };
  };
  const first = await once('import');
  if (first.capture.deduplicated) throw new Error('the first import was deduplicated: the notebook was not new');
  const stored = notebookBytes(notebook);
  const second = await once('import again');
  if (!second.capture.deduplicated) throw new Error('the second import of the same bytes was stored again instead of deduplicated');
  return { first, second, notebookBytes: stored, notebookAfterSecond: notebookBytes(notebook) };
}
