/**
 * The example notebook (issue 12): the three case studies with their profiles, changes, results and
 * real captures; `tunebook example -o FILE` writes it, and the app opens its own copy without ever
 * touching the user's notebook.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../electron/services/backend';
import { EXAMPLE_CAPTURES } from '../../electron/services/example/captures';
import { EXAMPLE_FILE_NAME } from '../../electron/services/example/example';
import type { NotebookInfo } from '../../shared/model';
import { buildBundles, useTempDir } from '../helpers';

let built: Awaited<ReturnType<typeof buildBundles>>;
beforeAll(async () => { built = await buildBundles(); });

describe('the example notebook', () => {
  const tmp = useTempDir();

  it('carries the fixtures exactly (scripts/make-example-captures.mjs is up to date)', () => {
    for (const c of Object.values(EXAMPLE_CAPTURES)) {
      const dir = path.join(__dirname, '..', 'fixtures', 'captures');
      expect(c.text).toBe(readFileSync(path.join(dir, c.fixture), 'utf8'));
      expect(c.command).toBe(readFileSync(path.join(dir, c.fixture.replace(/\.txt$/, '.cmd.txt')), 'utf8').trim());
    }
  });

  it('tunebook example -o FILE tells the three case studies with their evidence', () => {
    const file = path.join(tmp(), 'example.tunebook');
    const r = spawnSync(process.execPath, [built.cli, 'example', '-o', file], { encoding: 'utf8', env: { ...process.env, TUNEBOOK_USER_DATA: tmp() } });
    expect([r.status, r.stderr.trim()]).toEqual([0, `wrote ${file}: the three case studies, with their profiles, changes, results and captures`]);
    expect(readdirSync(tmp()).filter((f) => f.includes('.build-') || f.endsWith('.copy'))).toEqual([]);
    const backend = new Backend({ notebookPath: file, userDataDir: tmp(), ...built });
    try {
      const studies = backend.api.listStudies();
      expect(studies.map((s) => s.experimentCount).sort()).toEqual([2, 3, 5]);
      const timeline = (title: string) => backend.api.timeline(studies.find((s) => s.title.startsWith(title))!.id);
      expect(timeline('PHP').map((t) => t.value)).toEqual([140, 205, 286]);
      expect(timeline('Python').map((t) => t.value)).toEqual([6000, 20000, 18000, 22000, 50000]);
      expect(timeline('fio').map((t) => t.value)).toEqual([2197, 43000]);
      const b = studies.find((s) => s.title.startsWith('Python'))!.id;
      expect(backend.api.getStudy(b).study.requirements).toHaveLength(5);
      // four of five requirements failing at the baseline, all five met by the TIME_WAIT step
      const comparison = backend.api.comparison(b);
      expect(comparison.firstMeetingAll).toBe(backend.api.studyOutline(b).experiments[4]!.id);
      // every capture is read as what it is, and the findings the case studies are about are there
      const kinds: string[] = [];
      const findings: string[] = [];
      for (const s of studies) {
        for (const e of backend.api.getStudy(s.id).experiments) {
          for (const link of e.captures) {
            const c = backend.api.getCapture(link.captureId, e.id);
            kinds.push(c.kind);
            findings.push(...c.parsed.findings.map((f) => f.id));
            expect(link.note).toMatch(/Recorded with: /);
          }
        }
      }
      expect(kinds.sort()).toEqual(['fdisk', 'fio', 'fio', 'iostat', 'iostat', 'proc-interrupts', 'ss', 'ss', 'strace-summary', 'tune2fs']);
      expect(findings).toEqual(expect.arrayContaining(['syscall.stat-storm', 'irq.dominated-by', 'io.random-writes']));
    } finally {
      backend.close();
    }
    // an existing file is refused and left as it was
    const again = spawnSync(process.execPath, [built.cli, 'example', '-o', file], { encoding: 'utf8' });
    expect([again.status, again.stderr]).toEqual([2, `tunebook: ${file} already exists; choose another name (it was left untouched)\n`]);
  });

  it('the app opens its own copy, made once, and never touches the open notebook', async () => {
    const mine = path.join(tmp(), 'mine.tunebook');
    const backend = new Backend({ notebookPath: mine, userDataDir: tmp(), ...built });
    try {
      backend.api.createStudy({ title: 'my own work' });
      backend.close();
      const before = readFileSync(mine);
      const b2 = new Backend({ notebookPath: mine, userDataDir: tmp(), ...built });
      try {
        const info: NotebookInfo = await b2.api.openExampleNotebook();
        expect(info.path).toBe(path.join(tmp(), EXAMPLE_FILE_NAME));
        expect(b2.api.listStudies()).toHaveLength(3);
        const made = statSync(info.path).mtimeMs;
        // kept as the user leaves it: opened again, not made again
        b2.api.openNotebook(mine, false);
        writeFileSync(path.join(tmp(), 'marker'), '');
        expect((await b2.api.openExampleNotebook()).path).toBe(info.path);
        expect(statSync(info.path).mtimeMs).toBe(made);
        expect(b2.api.recentNotebooks().every((f) => !f.includes('.build-'))).toBe(true);
      } finally {
        b2.close();
      }
      const db = new Backend({ notebookPath: mine, userDataDir: tmp(), ...built });
      try {
        expect(db.api.listStudies().map((s) => s.title)).toEqual(['my own work']);
      } finally {
        db.close();
      }
      expect(before.length).toBeGreaterThan(0);
    } finally {
      backend.close();
    }
  });
});
