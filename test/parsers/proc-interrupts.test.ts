import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateFindings, parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'proc-interrupts');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const metricOf = (c: ParsedCapture, name: string, irq: string) => c.metrics.find((m) => m.name === name && m.labels?.irq === irq);

interface JcIrq { irq: string; cpu_num: number; interrupts: number[]; type: string; device: string[] | null }

describe('proc-interrupts parser', () => {
  it('reads one snapshot: the same counts as jc --proc-interrupts', () => {
    const c = parseText(read('interrupts-a.txt'), { file: 'interrupts-a.txt' });
    expect(c.kind).toBe('proc-interrupts');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    const jc = JSON.parse(read('interrupts-a.jc.json')) as JcIrq[];
    const t = c.tables!.interrupts!;
    expect(t.columns).toEqual(['snapshot', 'irq', 'CPU0', 'CPU1', 'total', 'description']);
    expect(t.rows.length).toBe(jc.length);
    jc.forEach((j, k) => {
      const r = t.rows[k]!;
      expect(r[1]).toBe(j.irq);
      // ERR/MIS print one column only; jc pads nothing either
      expect(r.slice(2, 2 + j.interrupts.length)).toEqual(j.interrupts);
      expect(metricOf(c, 'interrupts_total', j.irq)!.value).toBe(j.interrupts.reduce((a, b) => a + b, 0));
      // jc carries the previous row's type over to ERR/MIS, which have no description
      if (j.interrupts.length > 1) expect(r[5]).toBe([j.type, ...(j.device ?? [])].join(' '));
      else expect(r[5]).toBe('');
    });
    expect(metricOf(c, 'interrupts_total', 'RES')).toMatchObject({ value: 23307 + 14772, unit: 'count', labels: { irq: 'RES', description: 'Rescheduling interrupts' } });
    expect(metricOf(c, 'interrupts_total', 'ERR')!.value).toBe(0);
    expect(c.facts.cpu_threads).toBe(2);
    expect(c.metrics.some((m) => m.name === 'interrupts_delta')).toBe(false);
    const f = c.findings.find((x) => x.id === 'irq.dominated-by')!;
    expect(f.severity).toBe('info');
    expect(f.message).toMatch(/^IRQ 36 \(PCI-MSIX-0000:00:02.0 1-edge virtio1-req.0\) makes up 39\.4 % of all interrupts since boot \(170683 of 432678\)/);
  });

  it('two captures of one experiment: the rule uses the delta between them (ctx.all)', () => {
    const a = parseText(read('interrupts-a.txt'), { file: 'interrupts-a.txt' });
    const b = parseText(read('interrupts-b.txt'), { file: 'interrupts-b.txt' });
    const [fa, fb] = evaluateFindings([a, b]);
    expect(fa![0]!.message).toMatch(/since boot/);
    const f = fb!.find((x) => x.id === 'irq.dominated-by')!;
    // b - a: LOC 80, CAL 4, 42: 2, 36: 1, RES 1 → 88
    expect(f.message).toMatch(/^IRQ LOC \(Local timer interrupts\) makes up 90\.9 % of all interrupts since interrupts-a\.txt \(80 of 88\): local timer/);
    expect(f.severity).toBe('info'); // the timer leading is normal
    // the files given in the other order: still b minus a
    const [gb, ga] = evaluateFindings([b, a]);
    expect(gb![0]!.message).toBe(f.message);
    expect(ga![0]!.message).toMatch(/since boot/);
  });

  it('reads two snapshots in one file: delta per irq and a series per irq', () => {
    const c = parseText(read('interrupts-two-snapshots-sched-pipe.txt'));
    expect(c.kind).toBe('proc-interrupts');
    expect(c.warnings).toEqual([]);
    expect(metricOf(c, 'interrupts_delta', 'RES')!.value).toBe((27677 + 18769) - (26914 + 18716));
    expect(metricOf(c, 'interrupts_delta', '36')!.value).toBe(229361 - 211955);
    expect(metricOf(c, 'interrupts_total', '36')!.value).toBe(229361);
    const s = c.series.find((x) => x.name === 'interrupts_total' && x.labels?.irq === 'RES')!;
    expect(s.values).toEqual([26914 + 18716, 27677 + 18769]);
    expect(c.tables!.delta!.rows.find((r) => r[0] === 'RES')).toEqual(['RES', 27677 - 26914, 18769 - 18716, 816, 'Rescheduling interrupts']);
    const f = c.findings.find((x) => x.id === 'irq.dominated-by')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/^IRQ 36 .* makes up 92\.2 % of all interrupts between the snapshots \(17406 of 18883\): device interrupts of virtio1-req\.0/);
  });

  it('says what dominant rescheduling IPIs mean (the php-fpm case)', () => {
    const c = parseText(read('interrupts-two-snapshots-sched-messaging.txt'));
    expect(metricOf(c, 'interrupts_delta', 'RES')!.value).toBe((281445 + 157933) - (279065 + 156555));
    const f = c.findings.find((x) => x.id === 'irq.dominated-by')!;
    expect(f.severity).toBe('warning');
    expect(f.labels).toEqual({ irq: 'RES' });
    expect(f.message).toMatch(/^IRQ RES \(Rescheduling interrupts\) makes up 84\.8 % of all interrupts between the snapshots \(3758 of 4434\): rescheduling IPIs: the scheduler/);
    expect(f.message).toMatch(/too many processes\/threads competing/);
  });

  it('reads pasted watch screens with their clock: per-second rates', () => {
    const c = parseText(read('watch-d-n1-tmux-pasted.txt'));
    expect(c.kind).toBe('proc-interrupts');
    expect(c.command).toBe('watch cat /proc/interrupts');
    expect(c.warnings).toEqual([]);
    expect(metricOf(c, 'interrupts_delta', 'RES')!.value).toBe((30044 + 20629) - (29996 + 20594));
    // 22:46:46 → 22:46:48
    expect(metricOf(c, 'interrupts_per_second', 'RES')!.value).toBe(83 / 2);
    const s = c.series.find((x) => x.labels?.irq === '36')!;
    expect(s.times).toEqual([Date.UTC(2026, 10, 29, 22, 46, 46), Date.UTC(2026, 10, 29, 22, 46, 48)]);
    expect(s.values).toEqual([413935, 452428]);
  });

  it('survives CRLF, a prompt, a lost header and a cut end', () => {
    const lines = read('interrupts-two-snapshots-sched-pipe.txt').split('\n');
    // drop the second header line: the repeated irq 24 starts the second snapshot
    const text = ['root@vm:~# cat /proc/interrupts', ...lines.slice(0, 36), ...lines.slice(37, 60), 'RES:   27'].join('\r\n');
    const c = parseText(text);
    expect(c.kind).toBe('proc-interrupts');
    expect(c.command).toBe('cat /proc/interrupts');
    expect(metricOf(c, 'interrupts_delta', '36')!.value).toBe(229361 - 211955);
    expect(c.warnings).toEqual([]);
  });

  it('warns on lines it cannot read and does not claim other text', () => {
    const c = parseText('           CPU0       CPU1\n  0:  22  0  IO-APIC  2-edge  timer\nLOC: 1 2 Local timer interrupts\nRES: 3 4 Rescheduling interrupts\nNMI: 0 0 x\n???\n');
    expect(c.kind).toBe('proc-interrupts');
    expect(c.warnings).toEqual(['line 6: could not read "???"']);
    expect(parseText('a: 1\nb: 2\n').kind).not.toBe('proc-interrupts');
  });
});

describe('proc-interrupts per CPU (issue 11)', () => {
  it('every CPU\'s count of every row, and its change across two snapshots, as metrics labelled irq and cpu', () => {
    const text = readFileSync(path.join(__dirname, '..', 'fixtures', 'captures', 'proc-interrupts', 'interrupts-two-snapshots-sched-messaging.txt'), 'utf8');
    const c = parseText(text, { kind: 'proc-interrupts' });
    const per = c.metrics.filter((m) => m.name === 'interrupts_per_cpu_total');
    const rows = c.metrics.filter((m) => m.name === 'interrupts_total');
    const cpus = c.facts.cpu_threads as number;
    expect(cpus).toBeGreaterThan(0);
    // the per-CPU counts of a row add up to its total (ERR and MIS have one count, not one per CPU)
    let perCpuRows = 0;
    for (const r of rows) {
      const mine = per.filter((m) => m.labels?.irq === r.labels?.irq);
      if (['ERR', 'MIS'].includes(r.labels!.irq!)) { expect(mine).toEqual([]); continue; }
      perCpuRows++;
      expect(mine, r.labels?.irq).toHaveLength(cpus);
      expect(mine.reduce((s, m) => s + m.value, 0)).toBe(r.value);
    }
    expect(perCpuRows).toBeGreaterThan(20);
    // the deltas per CPU agree with the delta table and add up to the row's delta
    const table = c.tables!.delta!;
    const res = table.rows.find((row) => row[0] === 'RES')!;
    const deltas = c.metrics.filter((m) => m.name === 'interrupts_per_cpu_delta' && m.labels?.irq === 'RES');
    expect(deltas.map((m) => [m.labels?.cpu, m.value])).toEqual(Array.from({ length: cpus }, (_, i) => [String(i), res[i + 1]]));
    expect(deltas.reduce((s, m) => s + m.value, 0)).toBe(c.metrics.find((m) => m.name === 'interrupts_delta' && m.labels?.irq === 'RES')!.value);
  });
});
