import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

type JcRow = Record<string, string | number>;
const jc = (name: string) => JSON.parse(fixture('free', name + '.jc.json')) as JcRow[];
const v = (c: ParsedCapture, name: string) => c.metrics.find((m) => m.name === name)?.value;

/** jc reports the numbers as printed; Tunebook gives bytes. */
function compare(name: string, prompt: string, unit: number): void {
  const c = parseText(`$ ${prompt}\n` + fixture('free', name + '.txt'));
  expect(c.kind).toBe('free');
  expect(c.command).toBe(prompt);
  const ref = jc(name);
  const mem = ref.find((r) => r.type === 'Mem')!;
  for (const col of ['total', 'used', 'free', 'shared', 'buff_cache', 'buffers', 'cache', 'available']) {
    if (mem[col] === undefined) continue;
    expect(v(c, `memory_${col}_bytes`), col).toBe(Number(mem[col]) * unit);
  }
  const swap = ref.find((r) => r.type === 'Swap')!;
  expect(v(c, 'swap_total_bytes')).toBe(Number(swap.total) * unit);
  expect(c.facts.memory_total_bytes).toBe(Number(mem.total) * unit);
  expect(c.warnings).toEqual([]);
}

describe('free', () => {
  it('detects free output', () => {
    const c = parseText(fixture('free', 'free.txt'));
    expect(c.kind).toBe('free');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('default (KiB) agrees with jc --free; without a command line the unit is assumed and said so', () => {
    compare('free', 'free', 1024);
    const c = parseText(fixture('free', 'free.txt'));
    expect(c.facts.memory_total_bytes).toBe(24684092 * 1024);
    expect(c.warnings).toEqual(["no command line: values assumed to be KiB (free's default unit)"]);
  });

  it('-b, -k, -m, -g, --si -m agree with jc', () => {
    compare('free-b', 'free -b', 1);
    compare('free-k', 'free -k', 1024);
    compare('free-m', 'free -m', 1024 ** 2);
    compare('free-g', 'free -g', 1024 ** 3);
    compare('free--si-m', 'free --si -m', 1e6);
  });

  it('free -b without a command line is recognised as bytes', () => {
    const c = parseText(fixture('free', 'free-b.txt'));
    expect(c.facts.memory_total_bytes).toBe(25276510208);
  });

  it('-w (buffers and cache apart) and -t (Total row) agree with jc', () => {
    compare('free-w', 'free -w', 1024);
    compare('free-t', 'free -t', 1024);
    const t = parseText(fixture('free', 'free-t.txt'));
    expect(v(t, 'memory_plus_swap_total_bytes')).toBe(Number(jc('free-t').find((r) => r.type === 'Total')!.total) * 1024);
  });

  it('-h human sizes ("23Gi", "8.7Mi", "0B")', () => {
    const c = parseText(fixture('free', 'free-h.txt'));
    expect(c.facts.memory_total_bytes).toBe(23 * 1024 ** 3);
    expect(v(c, 'memory_shared_bytes')).toBe(Math.round(8.7 * 1024 ** 2));
    expect(c.facts.swap_total_bytes).toBe(0);
    expect(c.warnings).toEqual([]);
    const hwt = parseText(fixture('free', 'free-h-w-t.txt'));
    expect(v(hwt, 'memory_cache_bytes')).toBe(617 * 1024 ** 2);
    expect(v(hwt, 'memory_plus_swap_used_bytes')).toBe(467 * 1024 ** 2);
  });

  it('-h keeps the human units as printed beside the bytes (facts, and the as_printed table)', () => {
    const c = parseText(fixture('free', 'free-h.txt'));
    expect([c.facts.memory_total_printed, c.facts.swap_total_printed]).toEqual(['23Gi', '0B']);
    const t = c.tables!.as_printed!;
    expect(t.columns).toEqual(['row', 'column', 'printed', 'bytes']);
    expect(t.rows).toContainEqual(['Mem', 'shared', '8.7Mi', Math.round(8.7 * 1024 ** 2)]);
    expect(t.rows).toContainEqual(['Mem', 'buff/cache', '636Mi', 636 * 1024 ** 2]);
    expect(t.rows).toHaveLength(9);
    // free in KiB prints no units: nothing is added
    const k = parseText(fixture('free', 'free-k.txt'));
    expect(k.facts.memory_total_printed).toBeUndefined();
    expect(k.tables?.as_printed).toBeUndefined();
  });

  it('zh_CN and de_DE locales agree with jc', () => {
    const zh = parseText(fixture('free', 'free-zh_CN.txt'));
    expect(zh.kind).toBe('free');
    const zref = jc('free-zh_CN')[0]!;
    expect(zh.facts.memory_total_bytes).toBe(Number(zref.total) * 1024);
    expect(v(zh, 'memory_available_bytes')).toBe(Number(zref.available) * 1024);
    const de = parseText(fixture('free', 'free-de_DE.txt'));
    expect(de.kind).toBe('free');
    const dref = jc('free-de_DE')[0]!;
    expect(de.facts.memory_total_bytes).toBe(Number(dref.gesamt) * 1024);
    expect(v(de, 'memory_shared_bytes')).toBe(Number(dref['gemns.']) * 1024);
    expect(v(de, 'memory_available_bytes')).toBe(Number(dref['verfügbar']) * 1024);
  });

  it('old procps 3.3 layout with "-/+ buffers/cache:" (reshaped from the real free -w capture)', () => {
    const ref = jc('free-w');
    const mem = ref.find((r) => r.type === 'Mem')!;
    const swap = ref.find((r) => r.type === 'Swap')!;
    const n = (k: string) => Number(mem[k]);
    const pad = (xs: (string | number)[]) => xs.map((x) => String(x).padStart(11)).join('');
    const old = [
      '            ' + pad(['total', 'used', 'free', 'shared', 'buffers', 'cached']),
      'Mem:        ' + pad([n('total'), n('used') + n('buffers') + n('cache'), n('free'), n('shared'), n('buffers'), n('cache')]),
      '-/+ buffers/cache:' + pad([n('used'), n('free') + n('buffers') + n('cache')]),
      'Swap:       ' + pad([Number(swap.total), Number(swap.used), Number(swap.free)]),
    ].join('\n');
    const c = parseText('# free\n' + old);
    expect(c.kind).toBe('free');
    expect(c.facts.memory_total_bytes).toBe(n('total') * 1024);
    expect(v(c, 'memory_cache_bytes')).toBe(n('cache') * 1024);
    expect(v(c, 'memory_used_excluding_cache_bytes')).toBe(n('used') * 1024);
    expect(c.facts.swap_total_bytes).toBe(Number(swap.total) * 1024);
    expect(c.warnings).toEqual([]);
  });

  it('repeated reports (free -s) become series; junk lines are warned about', () => {
    const one = fixture('free', 'free-m.txt');
    const c = parseText('$ free -m -s 1\n' + one + '\n' + one + 'garbage here\n');
    expect(c.series.find((s) => s.name === 'memory_used_bytes')!.values).toHaveLength(2);
    expect(c.warnings.some((w) => /could not read line: garbage here/.test(w))).toBe(true);
  });
});

describe('free without its command line: the unit is read from the size of the total', () => {
  const bytes = v(parseText('$ free -b\n' + fixture('free', 'free-b.txt')), 'memory_total_bytes')!;
  it.each([
    ['free-m', 1024 ** 2, /values look like MiB \(free -m\)/],
    ['free-g', 1024 ** 3, /values look like GiB \(free -g\)/],
    ['free-b', 1, /values look like bytes \(free -b\)/],
  ])('%s', (name, unit, warning) => {
    const c = parseText(fixture('free', name + '.txt'));
    const total = v(c, 'memory_total_bytes')!;
    // the same machine a moment apart: equal to within the unit free rounded to
    expect(Math.abs(total - bytes)).toBeLessThan(unit);
    expect(c.warnings.join('\n')).toMatch(warning);
  });

  it('keeps the KiB default when the total is plausible in KiB', () => {
    const c = parseText(fixture('free', 'free-k.txt'));
    expect(Math.abs(v(c, 'memory_total_bytes')! - bytes)).toBeLessThan(1024);
    expect(c.warnings.join('\n')).toMatch(/assumed to be KiB/);
  });
});

describe('free -h --si without its command line (a review on real output)', () => {
  it('reads the bare "G" units as binary, and says so and how to read them as decimal', () => {
    const text = readFileSync(join(__dirname, '..', 'fixtures', 'captures', 'free', 'free-h-si.txt'), 'utf8');
    const bare = parseText(text);
    expect(bare.warnings.join('\n')).toMatch(/read as binary units.*free -h --si/);
    const told = parseText(text, { context: { command: 'free -h --si' } });
    expect(told.warnings).toEqual([]);
    const total = (c: typeof bare) => c.metrics.find((m) => m.name === 'memory_total_bytes')!.value;
    expect(total(bare) / total(told)).toBeCloseTo(1024 ** 3 / 1e9, 5);
  });
});
