/**
 * `tunebook report` and `tunebook import-bundle` on the built CLI: case study C imported from its
 * seed captures, exported as HTML, Markdown and a bundle, the bundle imported into another notebook
 * (and a second time: nothing added), their public JSON, and one-line errors with nothing written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BundleImportResult, ExportResult } from '../../shared/model';
import type { ShowStudyJson } from '../../shared/showJson';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let cli = '';
beforeAll(async () => { cli = (await buildBundles()).cli; });

describe('tunebook report / import-bundle', () => {
  const tmp = useTempDir();
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env: { ...process.env, TUNEBOOK_USER_DATA: tmp() } });
    return { status: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
  };
  const nb = (name = 'c') => path.join(tmp(), `${name}.tunebook`);
  const seed = () => {
    for (const [experiment, fio, iostat] of [
      ['random writes', 'fio-randwrite-4k-qd64-j64.txt', 'iostat-x-d-1-during-randwrite.txt'],
      ['sequential writes', 'fio-write-4k-qd64-j64.txt', 'iostat-x-d-1-during-seqwrite.txt'],
    ] as const) {
      expect(run('import', '--notebook', nb(), '--study', 'vda writes', '--experiment', experiment, seedPath(fio), seedPath(iostat)).status).toBe(0);
    }
  };

  it('exports a study in each format and brings a bundle into another notebook, once', () => {
    seed();
    const html = run('report', '--notebook', nb(), 'vda writes', '--format', 'html', '-o', path.join(tmp(), 'vda.html'));
    expect(html.err).toBe('');
    expect(html.out.trim()).toBe(path.join(tmp(), 'vda.html'));
    const page = readFileSync(path.join(tmp(), 'vda.html'), 'utf8');
    expect(page).toContain('2,197 IOPS');
    expect(page).toContain('+1,857.2 %');

    const md = run('report', '--notebook', nb(), '1', '--format', 'md', '-o', path.join(tmp(), 'vda.md'), '--json');
    const mdJson = JSON.parse(md.out) as ExportResult;
    expect(mdJson).toMatchObject({ format: 'md', path: path.join(tmp(), 'vda.md'), download: null, fileName: 'vda.md' });
    expect(mdJson.files.map((f) => path.relative(tmp(), f))).toEqual(['vda.md', path.join('vda-charts', '01-iops.svg')]);
    expect(readFileSync(path.join(tmp(), 'vda.md'), 'utf8')).toContain('![IOPS · iops](vda-charts/01-iops.svg)');

    const eln = run('report', '--notebook', nb(), 'vda writes', '--format', 'eln', '-o', path.join(tmp(), 'vda.eln'), '--json');
    expect(eln.status).toBe(0);
    expect((JSON.parse(eln.out) as ExportResult).bytes).toBeGreaterThan(1000);

    const first = run('import-bundle', '--notebook', nb('other'), path.join(tmp(), 'vda.eln'), '--json');
    expect(first.err).toBe('');
    const r = JSON.parse(first.out) as BundleImportResult;
    expect(r).toEqual({ studies: [{ id: 1, title: 'vda writes', created: true, restored: false, experimentsAdded: 2, experimentsAlreadyHere: 0 }], capturesAdded: 4, capturesAlreadyHere: 0, profilesAdded: 0 });
    const again = run('import-bundle', '--notebook', nb('other'), path.join(tmp(), 'vda.eln'));
    expect(again.out).toContain('vda writes  (study 1): already here, 0 experiments added, 2 already here');
    expect(again.out).toContain('captures: 0 stored, 4 already here');

    // the imported study tells the same story, and its captures are the seed bytes
    const shown = (file: string) => JSON.parse(run('show', '--notebook', file, '--json', 'vda writes').out) as ShowStudyJson;
    const a = shown(nb());
    const b = shown(nb('other'));
    expect(b.timeline.map((t) => [t.value, t.stepChangePercent])).toEqual(a.timeline.map((t) => [t.value, t.stepChangePercent]));
    const id = b.experiments[0]!.captures[0]!.id;
    const cat = spawnSync(process.execPath, [cli, 'cat', '--notebook', nb('other'), String(id)], { env: { ...process.env, TUNEBOOK_USER_DATA: tmp() } });
    expect(cat.stdout.equals(readFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt')))).toBe(true);
  });

  it('says what is wrong in one line and writes nothing', () => {
    seed();
    const bad = [
      [['report', '--notebook', nb(), 'vda writes', '--format', 'docx', '-o', path.join(tmp(), 'x.docx')], /--format must be one of html, md, pdf, eln/],
      [['report', '--notebook', nb(), 'no such study', '--format', 'html', '-o', path.join(tmp(), 'x.html')], /no study "no such study"/],
      [['report', '--notebook', nb(), 'vda writes', '--format', 'html'], /say where to write it: -o PATH/],
      [['report', '--notebook', nb(), 'vda writes', '--format', 'html', '--experiments', '1,x', '-o', path.join(tmp(), 'x.html')], /--experiments takes experiment ids/],
      [['import-bundle', '--notebook', nb(), path.join(tmp(), 'missing.eln')], /no such file/],
    ] as const;
    for (const [args, message] of bad) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
    writeFileSync(path.join(tmp(), 'not-a-bundle.eln'), 'hello');
    const r = run('import-bundle', '--notebook', nb(), path.join(tmp(), 'not-a-bundle.eln'));
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/^tunebook: .*not-a-bundle\.eln/);
    expect(readdirSync(tmp()).filter((f) => f.startsWith('x.'))).toEqual([]);
    expect(existsSync(path.join(tmp(), 'x-charts'))).toBe(false);
    // a rejected bundle into a notebook that did not exist: no notebook is left behind either
    const fresh = path.join(tmp(), 'fresh.tunebook');
    expect(run('import-bundle', '--notebook', fresh, path.join(tmp(), 'not-a-bundle.eln')).status).toBe(2);
    expect(readdirSync(tmp()).filter((f) => f.startsWith('fresh'))).toEqual([]);
  });
});
