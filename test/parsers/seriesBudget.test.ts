/**
 * The per-series point budget (MAX_POINTS_PER_SERIES): long series are thinned 2:1 (values[j] is
 * sample j × stride, times alike) while count/min/mean/max/last stay exact, through SeriesSet, the
 * sysstat Collector/ValueStore, and end to end through CaptureStream on day-long iostat logs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_POINTS_PER_SERIES, SeriesSet, summarizeSeries } from '../../shared/capture/series';
import { Collector } from '../../shared/capture/parsers/sysstat/common';
import { CaptureStream, parseText } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import type { ParsedCapture, Series, SeriesSummary } from '../../shared/capture/types';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures', 'iostat');

/** the summary brute force computes over every sample (an un-thinned series) */
function bruteSummary(like: Series, all: number[], sinceBoot: boolean): SeriesSummary {
  const s: Series = { name: like.name, column: like.column, unit: like.unit, values: all };
  if (like.labels) s.labels = like.labels;
  if (sinceBoot) s.firstSampleSinceBoot = true;
  return summarizeSeries(s);
}

/** values/times are exactly the samples 0, stride, 2·stride … of the full sequence */
function expectThinnedFrom(s: Series, all: number[], allTimes: (number | null)[] | undefined, budget: number): void {
  const stride = s.stride ?? 1;
  expect(s.values.length).toBeLessThanOrEqual(budget);
  expect(s.values.length).toBe(Math.ceil(all.length / stride));
  if (stride === 1) expect(s.stats).toBeUndefined();
  else {
    expect(all.length).toBeGreaterThan(budget);
    expect(s.stats!.count).toBe(all.length);
    // the stride is the smallest power of two that fits the budget
    expect(Math.ceil(all.length / (stride / 2))).toBeGreaterThan(budget);
  }
  const every = <T>(a: readonly T[]): T[] => Array.from({ length: s.values.length }, (_, j) => a[j * stride]!);
  // toEqual: NaN equals NaN, and 0 is not -0
  expect(s.values).toEqual(every(all));
  if (s.times === undefined) {
    // no times kept: then no kept point had one (a time that only fell on skipped samples is gone)
    expect(every(allTimes ?? []).every((t) => t === null || t === undefined)).toBe(true);
  } else {
    expect(allTimes).toBeDefined();
    expect(s.times).toEqual(every(allTimes!));
  }
}

/** a value: mostly finite, sometimes NaN (a missing sample), ±0 or ±Infinity */
const sample = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 2, arbitrary: fc.constant(NaN) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0) }, // ties: the earlier sample wins, as in a plain scan
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity) },
);
const timed = fc.option(fc.integer({ min: 0, max: 2 ** 45 }), { nil: undefined, freq: 3 });

describe('SeriesSet point budget', () => {
  it('keeps every sample below the budget (no stride, no stats)', () => {
    const set = new SeriesSet();
    for (let i = 0; i < 1000; i++) set.push('x', 'x', '', undefined, i, i + 1);
    const s = set.list[0]!;
    expect(s.values).toHaveLength(1000);
    expect(s.stride).toBeUndefined();
    expect(s.stats).toBeUndefined();
    expect(MAX_POINTS_PER_SERIES).toBe(50_000);
  });

  it('thins 2:1 at the budget with exact statistics (random samples, NaN, since-boot first)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 16 }), fc.array(fc.tuple(sample, timed), { maxLength: 400 }), fc.integer({ min: -1, max: 50 }),
      (budget, samples, timesFrom) => {
        budget &= ~1;
        const set = new SeriesSet(budget);
        const all: number[] = [];
        const allTimes: (number | null)[] = [];
        let anyTime = false;
        samples.forEach(([v, t], i) => {
          // times start at sample `timesFrom` (null before), as when a clock shows up late
          const time = timesFrom >= 0 && i >= timesFrom ? (t ?? null) : undefined;
          set.push('x', 'col', '1/s', { device: 'vda' }, v, i + 1, time);
          all.push(v);
          if (time !== undefined) anyTime = true;
          allTimes.push(time ?? null);
        });
        if (!samples.length) return;
        const s = set.list[0]!;
        expectThinnedFrom(s, all, anyTime ? allTimes : undefined, budget);
        expect(summarizeSeries(s)).toEqual(bruteSummary(s, all, false));
        s.firstSampleSinceBoot = true;
        expect(summarizeSeries(s)).toEqual(bruteSummary(s, all, true));
        expect(s.lines).toEqual([1, samples.length]);
      },
    ), { numRuns: 300 });
  });

  it('at the real budget: 200,000 samples keep ≤ 50,000 points, stride 4, exact summary, JSON stride', () => {
    const set = new SeriesSet();
    const all: number[] = [];
    const times: number[] = [];
    let x = 12345;
    for (let i = 0; i < 200_000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const v = i % 997 === 5 ? NaN : (x % 100_000) / 100;
      const t = 1.7e12 + i * 1000;
      set.push('latency_seconds', 'ttime', 's', undefined, v, i + 1, t);
      all.push(v);
      times.push(t);
    }
    const s = set.list[0]!;
    expect(s.stride).toBe(4);
    expect(s.times).toBeDefined();
    expectThinnedFrom(s, all, times, MAX_POINTS_PER_SERIES);
    expect(summarizeSeries(s)).toEqual(bruteSummary(s, all, false));
    s.firstSampleSinceBoot = true;
    expect(summarizeSeries(s)).toEqual(bruteSummary(s, all, true));
    const capture: ParsedCapture = { kind: 'ab', confidence: 1, metrics: [], series: [s], facts: {}, settings: {}, warnings: [], findings: [] };
    const withPoints = toCaptureJson(capture, { series: true }).series[0]!;
    expect(withPoints.stride).toBe(4);
    expect(withPoints.values).toHaveLength(s.values.length);
    expect(withPoints.count).toBe(200_000);
    const summaryOnly = toCaptureJson(capture).series[0]!;
    expect(summaryOnly.stride).toBeUndefined();
    expect(summaryOnly.values).toBeUndefined();
    // JSON round trip (the notebook stores captures as JSON): still exact
    const back = JSON.parse(JSON.stringify(s)) as Series;
    expect(summarizeSeries(back)).toEqual(summarizeSeries(s));
  });
});

type Op =
  | { kind: 'store'; v: number; t: number | null | undefined }
  | { kind: 'push'; v: number; idx: number; t: number | null | undefined };

describe('sysstat Collector / ValueStore point budget', () => {
  /** run the same operations through a Collector with `budget` and return its series */
  function runOps(budget: number, ops: Op[], samples: number | undefined, sinceBoot: boolean): Series[] {
    const col = new Collector(budget);
    const a = col.get('a', 'a', '1/s', { device: 'vda' });
    const b = col.get('b', 'b', '%');
    col.get('never', 'never', ''); // a series created but never pushed (padded by finish)
    const st = col.store(a);
    let lineNo = 0;
    for (const op of ops) {
      lineNo++;
      if (op.kind === 'store') {
        // the iostat/vmstat hot path: push straight into the store, then the sample's time
        st.push(op.v);
        if (op.t !== undefined) st.time(op.t);
      } else {
        col.push(b, op.v, op.idx, lineNo, op.t);
      }
    }
    return col.finish(sinceBoot, samples);
  }

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('store' as const), v: sample, t: fc.option(fc.integer({ min: 0, max: 2 ** 45 }), { nil: undefined }) }),
    // idx: the sample number timeTable/iostat's cpu rows pass (ahead = NaN padding, behind = duplicate, -1 = append)
    fc.record({ kind: fc.constant('push' as const), v: sample, idx: fc.integer({ min: -1, max: 300 }), t: fc.option(fc.integer({ min: 0, max: 2 ** 45 }), { nil: undefined }) }),
  );

  it('thinned series equal the un-thinned run sampled by stride, with the same summaries', () => {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 20 }), fc.array(op, { maxLength: 300 }), fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }), fc.boolean(),
      (budget, ops, samples, sinceBoot) => {
        budget &= ~1;
        // sort the indexed pushes so most go forward, as parsers do (a few duplicates stay)
        let next = 0;
        const fwd = ops.map((o) => (o.kind === 'push' && o.idx >= 0 ? { ...o, idx: (next = Math.max(next, o.idx % 7 === 0 ? next : next + (o.idx % 3))) } : o));
        const full = runOps(1e9, fwd, samples, sinceBoot);
        const thin = runOps(budget, fwd, samples, sinceBoot);
        expect(thin.map((s) => s.name)).toEqual(full.map((s) => s.name));
        thin.forEach((s, i) => {
          const f = full[i]!;
          expect(f.stride).toBeUndefined();
          expectThinnedFrom(s, Array.from(f.values), f.times, budget);
          expect(s.firstSampleSinceBoot).toBe(f.firstSampleSinceBoot);
          expect(summarizeSeries(s)).toEqual(summarizeSeries(f));
          expect(summarizeSeries(s)).toEqual(bruteSummary(s, Array.from(f.values), sinceBoot && f.values.length > 0));
          expect(s.lines).toEqual(f.lines);
        });
      },
    ), { numRuns: 300 });
  });

  it('pads a late series with NaN and ignores duplicate sample numbers across a thinning', () => {
    const col = new Collector(4);
    const s = col.get('x', 'x', '');
    col.push(s, 5, 3, 1, 1000); // samples 0..2 missing
    col.push(s, 6, 3, 2, 2000); // duplicate of sample 3: ignored
    col.push(s, 7, 4, 3, null);
    col.push(s, 8, 6, 4, 4000); // sample 5 missing
    const [out] = col.finish(true, 9);
    // samples: NaN NaN NaN 5 7 NaN 8 NaN NaN → budget 4: stride 4 → samples 0, 4, 8
    expect(out!.stride).toBe(4);
    expect(out!.values).toEqual([NaN, 7, NaN]);
    expect(out!.times).toEqual([null, null, null]);
    expect(summarizeSeries(out!)).toEqual({ name: 'x', column: 'x', unit: '', count: 9, min: 5, mean: 6.666667, max: 8, last: 8, firstSampleSinceBoot: true });
    expect(out!.lines).toEqual([1, 4]);
  });
});

// ---------------------------------------------------------------------------------------------
// End to end: day-long iostat logs built from the real fixture reports, streamed through CaptureStream

/** deterministic picks (LCG) */
function picker(seed: number): (n: number) => number {
  let x = seed;
  return (n) => { x = (x * 1103515245 + 12345) % 2147483648; return Math.floor((x / 2147483648) * n); };
}

/** stream a generated text through CaptureStream in ~1 MiB chunks, as the app reads files */
function stream(gen: Iterable<string>, file: string): ParsedCapture {
  const cs = new CaptureStream({ file });
  let buf = '';
  for (const piece of gen) {
    buf += piece;
    if (buf.length > 1 << 20) { cs.write(buf); buf = ''; }
  }
  cs.write(buf);
  return cs.end();
}

const two = (n: number): string => String(n).padStart(2, '0');
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${two(d.getUTCFullYear() % 100)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

describe('end to end: iostat logs longer than the budget', () => {
  it('iostat -x -t: 60,001 reports (vda all along, vdb late and gone early), summaries exact, times aligned', () => {
    const text = readFileSync(path.join(FIX, 'x-t-1-3.txt'), 'utf8');
    const ref = parseText('$ iostat -x -t 1\n' + text); // the 3 real reports, each series [since-boot, r1, r2]
    const lines = text.split('\n');
    const banner = lines[0]!;
    // the fixture's reports: [stamp, avg-cpu header, cpu row, device header, vda row]
    const reports = text.split(/\n\n\n/).map((r) => r.split('\n').filter((l) => l !== '' && !l.startsWith('Linux '))).filter((r) => r.length);
    expect(reports.map((r) => r.length)).toEqual([5, 5, 5]);
    const cpuHeader = reports[0]![1]!;
    const devHeader = reports[0]![3]!;
    const cpuRows = reports.map((r) => r[2]!);
    const vdaRows = reports.map((r) => r[4]!);
    const vdbRows = vdaRows.map((r) => r.replace(/^vda/, 'vdb'));
    const N = 60_001;
    const VDB_FROM = 1234, VDB_UNTIL = N - 500;
    const t0 = Date.UTC(2026, 10, 29, 22, 46, 40);
    const pickCpu = picker(1), pickDev = picker(2);
    const cpuPick: number[] = [], vdaPick: number[] = [];
    for (let k = 0; k < N; k++) {
      // report 0 is the since-boot one (fixture report 0); the others are the fixture's interval reports
      cpuPick.push(k === 0 ? 0 : 1 + pickCpu(2));
      vdaPick.push(k === 0 ? 0 : 1 + pickDev(2));
    }
    function* gen(): Generator<string> {
      yield `$ iostat -x -t 1\n${banner}\n\n`;
      for (let k = 0; k < N; k++) {
        let r = `${stamp(t0 + k * 1000)}\n${cpuHeader}\n${cpuRows[cpuPick[k]!]}\n\n${devHeader}\n${vdaRows[vdaPick[k]!]}\n`;
        if (k >= VDB_FROM && k < VDB_UNTIL) r += `${vdbRows[vdaPick[N - 1 - k]!]}\n`;
        yield r + '\n\n';
      }
    }
    const c = stream(gen(), 'iostat-day.log');
    expect(c.kind).toBe('iostat');
    expect(c.warnings).toEqual([]);
    const times = Array.from({ length: N }, (_, k) => t0 + k * 1000);
    // a device's times are those of the reports it is in (null where it is missing)
    const vdbTimes = times.map((t, k) => (k >= VDB_FROM && k < VDB_UNTIL ? t : null));
    let checked = 0;
    for (const s of c.series) {
      const r = ref.series.find((x) => x.name === s.name && x.column === s.column && (x.labels === undefined) === (s.labels === undefined))!;
      expect(r, s.name).toBeDefined();
      let all: number[];
      if (!s.labels) all = cpuPick.map((p) => r.values[p]!);
      else if (s.labels.device === 'vda') all = vdaPick.map((p) => r.values[p]!);
      else all = vdaPick.map((_, k) => (k >= VDB_FROM && k < VDB_UNTIL ? r.values[vdaPick[N - 1 - k]!]! : NaN));
      expect(s.firstSampleSinceBoot).toBe(true);
      expect(s.stride).toBe(2);
      expect(s.times).toBeDefined();
      expectThinnedFrom(s, all, s.labels?.device === 'vdb' ? vdbTimes : times, MAX_POINTS_PER_SERIES);
      expect(summarizeSeries(s), `${s.name} ${JSON.stringify(s.labels)}`).toEqual(bruteSummary(s, all, true));
      checked++;
    }
    expect(checked).toBe(6 + 2 * 22);
    // the since-boot report is kept (values[0], counted) but left out: its r/s (1218.16) is not the max
    const rs = c.series.find((s) => s.name === 'reads_per_second' && s.labels?.device === 'vda')!;
    expect(rs.values[0]).toBe(1218.16);
    const sum = summarizeSeries(rs);
    expect(sum.count).toBe(N);
    expect(sum.max).toBe(16);
    expect(sum.min).toBe(3);
    expect(sum.last).toBe(vdaPick[N - 1] === 1 ? 16 : 3);
    // vdb: NaN before it appeared and after it left; last is its last real report
    const vdb = c.series.find((s) => s.name === 'reads_per_second' && s.labels?.device === 'vdb')!;
    expect(summarizeSeries(vdb).last).toBe(vdaPick[N - VDB_UNTIL] === 1 ? 16 : 3);
    expect(Number.isNaN(vdb.values[0]!)).toBe(true);
    expect(vdb.stats!.count).toBe(N);
    expect(vdb.stats!.n).toBe(VDB_UNTIL - VDB_FROM);
  });

  it('iostat -x -d (sysstat 10 seed, rows only): 150,001 reports → stride 4, summary equal to the un-thinned one', () => {
    const text = readFileSync(path.join(FIX, 'iostat-x-d-1-during-randwrite.txt'), 'utf8');
    const ref = parseText(text);
    const rows = text.split('\n').filter((l) => l.startsWith('vda '));
    const head = text.slice(0, text.indexOf(rows[0]!));
    const N = 150_001;
    const pick = picker(7);
    const picks = Array.from({ length: N }, (_, k) => (k === 0 ? 0 : 1 + pick(rows.length - 1)));
    function* gen(): Generator<string> {
      yield head;
      for (let k = 0; k < N; k += 1000) {
        let chunk = '';
        for (let j = k; j < Math.min(N, k + 1000); j++) chunk += rows[picks[j]!] + '\n';
        yield chunk;
      }
    }
    const c = stream(gen(), 'iostat-seed-day.log');
    expect(c.kind).toBe('iostat');
    expect(c.warnings).toEqual([]);
    expect(c.series).toHaveLength(13);
    for (const s of c.series) {
      const r = ref.series.find((x) => x.name === s.name && x.column === s.column)!;
      const all = picks.map((p) => r.values[p]!);
      expect(s.stride).toBe(4);
      expect(s.firstSampleSinceBoot).toBe(true);
      expectThinnedFrom(s, all, undefined, MAX_POINTS_PER_SERIES);
      expect(summarizeSeries(s)).toEqual(bruteSummary(s, all, true));
    }
    // the seed capture itself is unchanged: 21 samples, since-boot left out
    const w = summarizeSeries(ref.series.find((s) => s.name === 'writes_per_second')!);
    expect([w.count, w.min, w.max, w.last]).toEqual([21, 779, 2270, 779]);
  });
});

describe('top: a day of frames stays under the point budget', () => {
  it('60,001 frames of top -b: series thinned, summaries exact, per-process series too', () => {
    const frame = readFileSync(path.join(__dirname, '..', 'fixtures', 'captures', 'top', 'top-b-H-n2.txt'), 'utf8')
      .split('\n').slice(0, 10).join('\n') + '\n\n';
    const frames = 60_001;
    const s = new CaptureStream({ kind: 'top' });
    for (let i = 0; i < frames; i += 1000) s.write(frame.repeat(Math.min(1000, frames - i)));
    const c = s.end();
    const load = c.series.find((x) => x.name === 'load_1m')!;
    expect(load.values.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(load.stride).toBe(2);
    expect(summarizeSeries(load)).toMatchObject({ count: frames, min: 0.4, max: 0.4, mean: 0.4, last: 0.4 });
    const proc = c.series.find((x) => x.name === 'cpu_percent' && x.labels?.pid === '8401')!;
    expect(proc.values.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    // the first frame of top -b is not an interval: left out of the summary
    expect(summarizeSeries(proc)).toMatchObject({ count: frames, min: 93.8, max: 93.8, last: 93.8, firstSampleSinceBoot: true });
  });
});
