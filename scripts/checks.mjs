#!/usr/bin/env node
/**
 * `npm run checks`: the type checks of the four TypeScript projects and the lint, as many at once as
 * the machine has cores (they took ~55 s one after another on CI's two). Each one's output is printed
 * whole when it ends, under its name; the exit status is 1 when any failed.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// the longest first (on two cores: ~23, 19, 19, 14 and 10 s), so the two queues end together
const TASKS = [
  ['tsc -p test', bin('tsc'), ['-p', 'test']],
  ['eslint .', bin('eslint'), ['.']],
  ['tsc -p renderer', bin('tsc'), ['-p', 'renderer']],
  ['tsc -p electron', bin('tsc'), ['-p', 'electron']],
  ['tsc -p shared', bin('tsc'), ['-p', 'shared']],
];

function run([label, cmd, args]) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', (e) => { out += String(e); });
    child.on('close', (code) => {
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      console.log(`checks: ${label} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${secs} s`);
      if (out.trim()) console.log(out.trimEnd());
      resolve(code === 0);
    });
  });
}

const queue = [...TASKS];
const slots = Math.max(1, Math.min(queue.length, os.availableParallelism?.() ?? os.cpus().length));
const results = await Promise.all(Array.from({ length: slots }, async () => {
  let ok = true;
  for (let t = queue.shift(); t; t = queue.shift()) ok = (await run(t)) && ok;
  return ok;
}));
process.exitCode = results.every(Boolean) ? 0 : 1;
