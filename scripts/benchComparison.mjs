/**
 * The comparison at scale (part of scripts/bench.mjs): a study of 10,000 experiments — each with a
 * result and a config change — written straight into a fresh notebook (the real migrations, then
 * plain INSERTs in one transaction), then the Backend's comparison(), timeline() and getStudy()
 * timed in this process: the median of several calls, and the size of the JSON each returns.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export async function comparisonBench({ root, tmp, experiments = 10_000 }) {
  const bundle = path.join(root, '.cache', `bench-backend-${process.pid}.cjs`);
  await build({
    entryPoints: [path.join(root, 'electron/services/backend.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile: bundle, external: ['better-sqlite3'], logLevel: 'error',
  });
  try {
    const { Backend } = require(bundle);
    const notebook = path.join(tmp, 'comparison.tunebook');
    const backend = new Backend({ notebookPath: notebook, userDataDir: tmp });
    const api = backend.api;
    const study = api.createStudy({ title: `${experiments} experiments` });
    api.setRequirements(study.id, [
      { metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', label: 'QPS' },
      { metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', label: 'server load' },
    ]);
    // the rows, written directly (the API would spend minutes on 30,000 single writes)
    const Database = require('better-sqlite3');
    const db = new Database(notebook);
    const t0 = new Date().toISOString();
    db.transaction(() => {
      const e = db.prepare(`INSERT INTO experiment (study_id, position, title, date, status, created_at, updated_at) VALUES (?, ?, ?, '2026-11-30', ?, ?, ?)`);
      const m = db.prepare(`INSERT INTO result_metric (experiment_id, position, name, value, unit, better, is_primary) VALUES (?, ?, ?, ?, ?, ?, ?)`);
      const c = db.prepare(`INSERT INTO config_change (experiment_id, position, scope, key, before, after) VALUES (?, 0, 'sysctl', ?, '0', '1')`);
      for (let i = 0; i < experiments; i++) {
        const id = Number(e.run(study.id, i, `step ${i}: tune k${i}`, i % 17 === 5 ? 'reverted' : 'kept', t0, t0).lastInsertRowid);
        m.run(id, 0, 'requests_per_second', 1000 + i * 3, '1/s', 'higher', 1);
        if (i % 3 === 0) m.run(id, 1, 'cpu_util_percent', 50 + (i % 40), '%', 'lower', 0);
        c.run(id, `net.k${i}`);
      }
    })();
    db.close();
    const time = (fn) => {
      fn(); // warm
      const t = [];
      for (let k = 0; k < 7; k++) { const a = performance.now(); fn(); t.push(performance.now() - a); }
      t.sort((x, y) => x - y);
      return t[3];
    };
    const out = {};
    for (const [name, fn] of [['comparison', () => api.comparison(study.id)], ['timeline', () => api.timeline(study.id)], ['getStudy', () => api.getStudy(study.id)]]) {
      // what a host does with the answer: the data, and its JSON for IPC or HTTP
      out[name] = { ms: time(() => JSON.stringify(fn())), dataMs: time(fn), mb: JSON.stringify(fn()).length / 1e6 };
    }
    backend.close();
    return out;
  } finally {
    fs.rmSync(bundle, { force: true });
  }
}
