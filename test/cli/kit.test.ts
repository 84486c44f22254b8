/** `tunebook kit`: the capture kit's script on stdout or saved executable, and one line for a mistake. */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { kitScript } from '../../electron/services/kit/kit';
import { buildBundles, useTempDir } from '../helpers';

let cli = '';
beforeAll(async () => { cli = (await buildBundles()).cli; });
const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'kit', ...args], { encoding: 'utf8' });

describe('tunebook kit', () => {
  const tmp = useTempDir();
  it('prints the script, which sh can read, and -o saves it executable', () => {
    const out = run();
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(kitScript());
    expect(out.stdout.startsWith('#!/bin/sh')).toBe(true);
    expect(spawnSync('sh', ['-n'], { input: out.stdout }).status).toBe(0);
    const file = path.join(tmp(), 'collect.sh');
    const saved = run('-o', file);
    expect([saved.status, saved.stderr.trim()]).toEqual([0, `wrote ${file}; on the server: sh collect.sh -h`]);
    expect(readFileSync(file, 'utf8')).toBe(kitScript());
    expect(statSync(file).mode & 0o777).toBe(0o755);
    const usage = spawnSync('sh', [file, '-h'], { encoding: 'utf8' });
    expect(usage.status).toBe(0);
    expect(usage.stdout + usage.stderr).toMatch(/collect\.sh \[-d SECONDS\] \[-o FILE\.tar\.gz\] \[-- COMMAND ARGS\.\.\.\]/);
  });
  it('a mistake is one line and status 2', () => {
    for (const args of [['extra'], ['-o', path.join(tmp(), 'no', 'such', 'dir', 'collect.sh')]]) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
