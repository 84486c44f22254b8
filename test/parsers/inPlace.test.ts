/**
 * Lines read in place (LineSink.span: the registry hands a sink the chunk and the line's offsets,
 * not a cut-out string) give exactly what the same lines give through line(): whole texts against
 * the same texts written a few characters at a time (every line then crosses a chunk boundary and
 * is fed as a string), lines with ANSI colour codes or control characters (refused in place,
 * cleaned, then read), ValueStore.padTo against one push(NaN) per missing sample, and a RowStore
 * (the columns of a row pushed at once, as vmstat and iostat rows are) against one ValueStore per
 * column, split or not.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CaptureStream, DETECT_BYTES, parseText } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { Collector, RowSet, RowStore, SCAN, ValueStore, numAt, scanNumbers } from '../../shared/capture/parsers/sysstat/common';
import type { Series } from '../../shared/capture/types';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures');
const fixtures = (dir: string): string[] =>
  readdirSync(path.join(FIX, dir)).filter((f) => f.endsWith('.txt') && !f.endsWith('.cmd.txt')).map((f) => path.join(dir, f));

/** the capture JSON with points and tables, as `tunebook parse --json --series --tables` prints it */
function parsed(text: string, pieces: number | null, kind?: string): unknown {
  const s = new CaptureStream(kind ? { kind } : {});
  if (pieces === null) s.write(text);
  else for (let i = 0; i < text.length; i += pieces) s.write(text.slice(i, i + pieces));
  return JSON.parse(JSON.stringify(toCaptureJson(s.end(), { series: true, tables: true })));
}

/**
 * The text again and again, past the lines detection reads (DETECT_BYTES: those go through line()
 * whole), so that a sink reading spans gets most of them in place.
 */
function pastHead(text: string): string {
  let out = text;
  while (out.length < DETECT_BYTES + text.length) out += '\n' + text;
  return out;
}

describe('lines read in place', () => {
  const files = [...fixtures('iostat'), ...fixtures('vmstat'), ...fixtures('pidstat'), ...fixtures('sar'), ...fixtures('mpstat'), ...fixtures('top')];

  it.each(files)('%s: whole chunks read the same as lines fed one by one', (f) => {
    const text = readFileSync(path.join(FIX, f), 'utf8');
    const whole = parsed(text, null);
    expect(parsed(text, 7, undefined)).toEqual(whole);
    // past the head, in one chunk the lines are read in place; in pieces of 5, each line is cut out and fed whole
    const long = pastHead(text);
    expect(parsed(long, null)).toEqual(parsed(long, 5));
  });

  it('top: rows past the processes table read in place equal line(), on mutated real rows', () => {
    // 3 frames of 88 rows, again and again past the table's 200,000 rows (only those rows are read in place)
    const frames = readFileSync(path.join(FIX, 'top/top-b-n3.txt'), 'utf8').replace(/\n+$/, '');
    const reps = Math.ceil(210_000 / 264);
    const lines = Array.from({ length: reps }, () => frames).join('\n').split('\n');
    // the rows of the last frames; half the edits go to those of a busy process (an idle one has no series)
    const rowAt: number[] = [], busyAt: number[] = [];
    lines.forEach((l, i) => {
      if (i > lines.length * 0.96 && /^\s*\d+ /.test(l)) (/ (?!0\.0 )\d+\.\d +\d+\.\d +\d+:/.test(l) ? busyAt : rowAt).push(i);
    });
    // what a row read in place must tell from one: a frame glued on, an escape, a field too many or
    // too few, a PID that is not one, a ":" after it, a "%" after %CPU, another process in its place
    const mutations: ((l: string) => string)[] = [
      (l) => l + 'top - 22:46:09 up 4 min,  0 user,  load average: 0.40, 0.40, 0.19',
      (l) => l.replace(/(?:\S+\s+){3}\S+\s*$/, 'top - 22:46:09 up'),
      (l) => l.replace(/ (\S+)$/, ' \u001b[1m$1\u001b[0m'),
      (l) => l.replace(/ (\S+)$/, ' $1\u0007'),
      (l) => l + ' more',
      (l) => l.replace(/\s+\S+\s*$/, ''),
      (l) => l.replace(/^(\s*)(\d+)/, '$1$2x'),
      (l) => l.replace(/^(\s*\d+)\s+/, '$1 :'),
      (l) => l.replace(/(\d+\.\d) +(\d+\.\d +\d+:)/, '$1% $2'),
      (l) => l.replace(/(\d+\.\d) +(\d+\.\d +\d+:)/, '-- $2'),
      (l) => l.replace(/^(\s*)(\d+)/, '$1${2}7'),
      (l) => l.replace(/ (\S+)$/, ' other'),
      (l) => l.replace(/(\S)$/, '$1x'),
      (l) => l.replace(/ +/g, '\t'),
    ];
    let seed = 7;
    const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    expect(busyAt.length).toBeGreaterThan(50);
    mutations.forEach((m) => {
      for (let j = 0; j < 30; j++) { const at = j % 2 ? busyAt : rowAt; const i = at[rnd(at.length)]!; lines[i] = m(lines[i]!); }
    });
    const text = lines.join('\n');
    const whole = new CaptureStream({});
    whole.write(text);
    // a line cut across two writes is fed whole to line(), never read in place
    const byLine = new CaptureStream({});
    for (const l of lines) { byLine.write(l); byLine.write('\n'); }
    const json = (st: CaptureStream): string => JSON.stringify(toCaptureJson(st.end(), { series: true, tables: true }));
    const a = json(whole), b = json(byLine);
    expect(a.length).toBeGreaterThan(1e6);
    expect(a === b).toBe(true);
  });

  it('pidstat, sar and mpstat rows read in place equal line() on mutated real lines', () => {
    const texts = [...fixtures('pidstat'), ...fixtures('sar'), ...fixtures('mpstat')].map((f) => readFileSync(path.join(FIX, f), 'utf8').split('\n'));
    // what a row read in place must tell from a row: a "-" cell, a new or 12-hour time, a restart, a
    // command of several words or a thread's, odd white space, escapes, a cell too many or too few
    const mutations: ((l: string) => string)[] = [
      (l) => l.replace(/\d+\.\d+/, '-'),
      (l) => l.replace(/ (\S+)$/, ' $1 extra'),
      (l) => l.replace(/ (\S+)$/, ' my command'),
      (l) => l.replace(/ (\S+)$/, ' |__$1'),
      (l) => l.replace(/ (\S+)$/, ' \u00a0$1'),
      (l) => l.replace(/ (\S+)$/, ' $1\u001b[0m'),
      (l) => l.replace(/\s+\S+\s*$/, ''),
      (l) => l.replace(/^(\S+)/, '$1 AM'),
      (l) => l.replace(/^(\S+)\s+/, '$1 pm\t'),
      (l) => l.replace(/^(\S+)\s+/, '$1\u00a0'),
      (l) => l.replace(/^(\S+)\s+\S+/, '$1 LINUX RESTART'),
      (l) => l.replace(/^(\S+)\s+\S+/, '$1 COM'),
      (l) => l.replace(/^(\d\d:\d\d:)(\d\d)/, (_, a: string, b: string) => a + String((Number(b) + 1) % 60).padStart(2, '0')),
      (l) => l.replace(/^(\S+)/, '1795992407'),
      (l) => l.replace(/^(\S+)\s+(\S+)/, '$1 $2 $2'),
      // a key that the one expected there begins ("lo" → "lox", pid 1 → 11)
      (l) => l.replace(/^(\S+\s+)(\S+)/, '$1$2x'),
      (l) => l.replace(/^(\S+\s+\S+\s+)(\S+)/, '$1$21'),
      (l) => l.replace(/(\d)\.(\d)/, '$1,$2'),
      (l) => l.replace(/ +/g, '\t'),
      (l) => '  ' + l,
      (l) => l + ' \t',
    ];
    fc.assert(fc.property(
      fc.nat(texts.length - 1),
      fc.array(fc.tuple(fc.nat(), fc.nat(mutations.length - 1)), { minLength: 1, maxLength: 12 }),
      (t, edits) => {
        const lines = texts[t]!.slice();
        for (const [at, m] of edits) { const i = at % lines.length; lines[i] = mutations[m]!(lines[i]!); }
        const long = pastHead(lines.join('\n'));
        expect(parsed(long, null)).toEqual(parsed(long, 5));
      },
    ), { numRuns: 60 });
  });

  it('iostat and vmstat rows with colour codes or control characters are cleaned, then read', () => {
    for (const f of ['iostat/x-1-3.txt', 'iostat/x-p-all-1-2.txt', 'vmstat/plain-1-30.txt']) {
      const text = readFileSync(path.join(FIX, f), 'utf8');
      const lines = text.split('\n');
      // colour every data row's first token (as a terminal log would) and put a stray BEL in others
      const dirty = lines.map((l, i) => {
        if (/^(?:vda|loop\d|sda)\b/.test(l)) return l.replace(/^(\S+)/, '\x1b[1;32m$1\x1b[0m');
        if (/^\s*\d/.test(l)) return i % 2 ? `\x07${l}` : l.replace(/ (\d)/, ' \x1b[31m$1\x1b[0m');
        return l;
      }).join('\n');
      expect(dirty).not.toBe(text);
      const clean = parsed(text, null) as { series: Series[]; warnings: string[] };
      expect(clean.series.length).toBeGreaterThan(0);
      expect(parsed(dirty, null)).toEqual(clean);
      expect(parsed(dirty, 3)).toEqual(clean);
    }
  });

  it('a new device whose name carries an escape code is read by its clean name', () => {
    const text = readFileSync(path.join(FIX, 'iostat/x-p-all-1-2.txt'), 'utf8');
    const dirty = text.replace(/^zram0\b/m, '\x1b[7mzram0\x1b[0m');
    const devices = (p: unknown) => [...new Set((p as { series: Series[] }).series.map((s) => s.labels?.device).filter(Boolean))].sort();
    expect(devices(parsed(dirty, null))).toEqual(devices(parsed(text, null)));
    expect(devices(parsed(text, null))).toContain('zram0');
  });

  it('the plain-text parser counts the lines it reads in place', () => {
    const p = parseText('a\nb\r\nc\rd\n\n', { kind: 'text' });
    expect(p.warnings[0]).toContain('(5 lines)');
  });
});

describe('ValueStore.padTo', () => {
  const finish = (st: ValueStore): Series => {
    const s: Series = { name: 'x', column: 'x', unit: '', values: [] };
    st.finishInto(s);
    return s;
  };

  it('equals one push(NaN) per missing sample, thinned or not, with times', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(40), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.boolean()), { maxLength: 120 }),
      fc.constantFrom(2, 4, 6, 16),
      (steps, budget) => {
        const a = new ValueStore(budget);
        const b = new ValueStore(budget);
        let idx = 0;
        for (const [gap, v, timed] of steps) {
          idx += gap;
          a.padTo(idx);
          while (b.len < idx) b.push(NaN);
          a.push(v);
          b.push(v);
          if (timed) { a.time(idx * 1000); b.time(idx * 1000); }
          idx++;
        }
        expect(a.len).toBe(b.len);
        expect(finish(a)).toEqual(finish(b));
      },
    ), { numRuns: 300 });
  });
});

describe('RowStore', () => {
  const finish = (st: RowStore, c: number): Series => {
    const s: Series = { name: 'x', column: 'x', unit: '', values: [] };
    st.finishColumn(c, s);
    return s;
  };
  const value = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(NaN), fc.constant(Infinity));

  it('keeps each column exactly as a store of its own would, padded, timed, thinned and split part way', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.tuple(fc.nat(12), fc.array(value, { minLength: 4, maxLength: 4 }), fc.boolean()), { maxLength: 150 }),
      fc.constantFrom(2, 4, 6, 16),
      fc.nat(160),
      fc.option(fc.nat(30), { nil: undefined }),
      (columns, steps, budget, splitAt, tail) => {
        const rows = new RowStore(columns, budget);
        const own = Array.from({ length: columns }, () => new ValueStore(budget));
        let parts: ValueStore[] | null = null;
        let idx = 0;
        steps.forEach(([gap, vals, timed], step) => {
          idx += gap;
          if (step === splitAt) parts = rows.split();
          for (let c = 0; c < columns; c++) { own[c]!.padTo(idx); own[c]!.push(vals[c]!); }
          if (parts) parts.forEach((p, c) => { p.padTo(idx); p.push(vals[c]!); });
          else { rows.padTo(idx); rows.pushRow(vals); }
          if (timed) {
            for (const st of [...own, ...(parts ?? [rows])]) st.time(idx * 1000);
          }
          idx++;
        });
        expect(rows.dissolved).toBe(parts !== null);
        for (let c = 0; c < columns; c++) {
          if (tail !== undefined) { own[c]!.padTo(idx + tail); (parts?.[c] ?? rows).padTo(idx + tail); }
          const got = parts ? finish(parts[c]!, 0) : finish(rows, c);
          expect(got).toEqual(finish(own[c]!, 0));
        }
      },
    ), { numRuns: 400 });
  });

  it('Collector: series pushed a row at a time share a store until one of them is asked for again', () => {
    const col = new Collector(4);
    const [a, b] = [col.get('a', 'a', ''), col.get('b', 'b', '')];
    const rows = col.rows([a, b])!;
    expect(col.rows([a, b])).toBe(rows); // the same columns again: the same store
    for (let i = 0; i < 9; i++) rows.pushRow([i, 10 * i]);
    // another layout shares column b: the shared store is split, each series goes on in its own
    const c = col.get('c', 'c', '');
    expect(col.rows([b, c])).toBeNull();
    expect(rows.dissolved).toBe(true);
    col.store(b).push(90);
    col.store(c).push(7);
    const out = col.finish(false, 10);
    // budget 4: a's 9 samples are thinned to stride 4 (0, 4, 8), padded to 10 samples with NaN at 9
    expect(out.map((s) => [s.name, s.values, s.stride])).toEqual([
      ['a', [0, 4, 8], 4],
      ['b', [0, 40, 80], 4],
      ['c', [7, NaN, NaN], 4], // 7 and nine NaN: thinned too
    ]);
    expect(out[1]!.stats).toMatchObject({ count: 10, min: 10, max: 90, last: 90 });
  });

  it('RowSet.pushPresent: a row whose NaN cells are no point equals Collector.push of each number, shared times and all', () => {
    const cell = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }, { weight: 1, arbitrary: fc.constant(NaN) });
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.tuple(fc.nat(3), fc.array(cell, { minLength: 4, maxLength: 4 }), fc.option(fc.nat(1e6), { nil: null })), { maxLength: 120 }),
      fc.constantFrom(2, 4, 6, 16),
      fc.boolean(),
      (columns, steps, budget, padded) => {
        const mine = new Collector(budget), ref = new Collector(budget);
        const names = Array.from({ length: columns }, (_, c) => `s${c}`);
        const set = new RowSet(mine, names.map((n) => mine.get(n, n, '')));
        const refSeries = names.map((n) => ref.get(n, n, ''));
        let idx = -1;
        steps.forEach(([gap, vals, time], step) => {
          // padded (sar, mpstat): sample idx, with gaps and repeats; else (pidstat) each series' next
          idx = padded ? Math.max(0, idx + gap - 1) : -1;
          const any = set.pushPresent(idx, vals, time, step + 1);
          let refAny = false;
          refSeries.forEach((s, c) => { if (vals[c] === vals[c]) { ref.push(s, vals[c]!, idx, step + 1, time); refAny = true; } });
          expect(any).toBe(refAny);
        });
        const got = mine.finish(false), want = ref.finish(false);
        expect(got).toEqual(want);
        // columns that never missed a cell kept one store: they share one array of times
        if (columns > 1 && got[0]!.times && steps.every(([, v]) => v.slice(0, columns).every((x) => x === x))) expect(got[1]!.times).toBe(got[0]!.times);
      },
    ), { numRuns: 400 });
  });

  it('Collector: a row set of one series asked for alone gives a store that takes single values', () => {
    const col = new Collector();
    const a = col.get('a', 'a', '');
    col.rows([a])!.pushRow([1]);
    col.store(a).push(2);
    expect(col.finish(false)[0]!.values).toEqual([1, 2]);
  });
});

describe('scanNumbers', () => {
  /** what it must do: each blank-separated token of line[pos, end) read by numAt, up to the first that is no number */
  function reference(line: string, pos: number, max: number, end: number): { values: number[]; end: number } {
    const values: number[] = [];
    let i = pos;
    while (values.length < max) {
      while (i < end && (line[i] === ' ' || line[i] === '\t')) i++;
      if (i >= end) break;
      const start = i;
      while (i < end && line[i] !== ' ' && line[i] !== '\t') i++;
      const v = numAt(line, start, i);
      if (Number.isNaN(v)) return { values, end: start };
      values.push(v);
    }
    return { values, end: i };
  }
  const token = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.tuple(fc.nat(99999), fc.nat(9999)).map(([a, b]) => `${a}.${b}`),
    fc.tuple(fc.nat(999), fc.nat(99)).map(([a, b]) => `-${a},${b}`),
    fc.constantFrom('-', '+5', '.5', '5.', '-0', '1.2.3', '12345678901234567', '0.000001', '1e5', '7%', 'vda', '-.5', '\r', '0,'),
  );
  it('reads every token as numAt would, stops at the first that is no number, and says where', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(token, fc.constantFrom(' ', '  ', '\t', ' \t ')), { maxLength: 30 }), fc.nat(40), fc.nat(3), fc.nat(3),
      (parts, max, cutStart, cutEnd) => {
        const line = parts.map(([t, sep]) => sep + t).join('') + '  ';
        const pos = Math.min(cutStart, line.length);
        const end = Math.max(pos, line.length - cutEnd);
        const out = new Float64Array(64);
        const k = scanNumbers(line, pos, out, max, end);
        const want = reference(line, pos, max, end);
        expect([...out.subarray(0, k)]).toEqual(want.values);
        expect(SCAN.end).toBe(want.end);
      },
    ), { numRuns: 3000 });
  });
});
