/**
 * `tunebook report --interactive` on the built CLI: the HTML report with its charts' interactive
 * versions (plotly.js found beside the bundle or in node_modules, written inline, allowed by hash),
 * and a one-line error with nothing written for a format that has no charts to draw.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLOTLY_FILE, PLOTLY_PACKAGE } from '../../electron/services/report/interactiveScripts';
import type { ExportResult } from '../../shared/model';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let cli = '';
beforeAll(async () => { cli = (await buildBundles()).cli; });

describe('tunebook report --interactive', () => {
  const tmp = useTempDir();
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env: { ...process.env, TUNEBOOK_USER_DATA: tmp() } });
    return { status: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
  };
  const nb = () => path.join(tmp(), 'c.tunebook');

  it('writes the HTML report with plotly and the bootstrap inline, allowed by their hashes', () => {
    expect(run('import', '--notebook', nb(), '--study', 'vda writes', '--experiment', 'random writes', seedPath('fio-randwrite-4k-qd64-j64.txt')).status).toBe(0);
    expect(run('import', '--notebook', nb(), '--study', 'vda writes', '--experiment', 'sequential writes', seedPath('fio-write-4k-qd64-j64.txt')).status).toBe(0);
    const plain = run('report', '--notebook', nb(), 'vda writes', '--format', 'html', '-o', path.join(tmp(), 'vda.html'), '--json');
    const r = run('report', '--notebook', nb(), 'vda writes', '--format', 'html', '--interactive', '-o', path.join(tmp(), 'vda-interactive.html'), '--json');
    expect(r.err).toBe('');
    const out = JSON.parse(r.out) as ExportResult;
    expect(out).toMatchObject({ format: 'html', fileName: 'vda-interactive.html' });
    const html = readFileSync(out.path!, 'utf8');
    // plotly's basic bundle, whole, as the package has it
    const plotly = readFileSync(createRequire(import.meta.url).resolve(`${PLOTLY_PACKAGE}/${PLOTLY_FILE}`), 'utf8');
    expect(html).toContain(`<script>${plotly}</script>`);
    expect(out.bytes - (JSON.parse(plain.out) as ExportResult).bytes).toBeGreaterThan(Buffer.byteLength(plotly));
    expect(html.match(/<script>/g)).toHaveLength(2);
    expect(html.match(/<script type="application\/json" class="chart-data">/g)).toHaveLength(1);
    expect(html).toMatch(/content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}=' 'sha256-[A-Za-z0-9+/]{43}='; style-src 'unsafe-inline';/);
    expect(readFileSync(path.join(tmp(), 'vda.html'), 'utf8')).not.toContain('<script');
  });

  it('is an option of the HTML report only', () => {
    expect(run('import', '--notebook', nb(), '--study', 'vda writes', '--experiment', 'random writes', seedPath('fio-randwrite-4k-qd64-j64.txt')).status).toBe(0);
    const r = run('report', '--notebook', nb(), 'vda writes', '--format', 'md', '--interactive', '-o', path.join(tmp(), 'vda.md'));
    expect(r.status).toBe(2);
    expect(r.err.trim()).toBe('tunebook: --interactive is an option of --format html');
    expect(existsSync(path.join(tmp(), 'vda.md'))).toBe(false);
    expect(run('help').out).toContain('--interactive');
  });
});
