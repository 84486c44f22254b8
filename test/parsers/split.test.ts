/**
 * A capture cut in two and parsed as two halves (shared/capture/split.ts) gives what one parse of
 * the whole gives, or refuses to join (SplitMismatch, and the hosts read it whole): every iostat and
 * vmstat fixture cut at every line, with the point budget as it is and so small that every series
 * is thinned (the joined statistics and strides), and long logs made of the fixtures' own reports.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CaptureStream, parseText } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { SplitMismatch, endSecondHalf, headLines, joinHalves, joinStats, parseTextInHalves, secondHalfStream, splitPlan } from '../../shared/capture/split';
import { statSum, statSumAll, statsOf } from '../../shared/capture/series';
import { RowStore, thinningAt } from '../../shared/capture/parsers/sysstat/common';
import type { ParsedCapture, Series } from '../../shared/capture/types';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures');
const fixtures = (dir: string): string[] =>
  readdirSync(path.join(FIX, dir)).filter((f) => f.endsWith('.txt') && !f.endsWith('.cmd.txt')).map((f) => path.join(dir, f));

/** what `tunebook parse --json --series --tables` prints, without the findings (the hosts add them after) */
const json = (c: ParsedCapture): unknown => JSON.parse(JSON.stringify({ ...toCaptureJson(c, { series: true, tables: true }), findings: [] }));

/** each line start of the text */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** cut at every line (or at `cuts` lines spread over it): joined or refused, never different; returns how many cuts joined */
function everyCut(text: string, kind: string, budget?: number, cuts?: number): number {
  const opts = { kind, ...(budget !== undefined ? { budget } : {}) };
  const whole = json(parseText(text, opts));
  let joined = 0;
  const starts = lineStarts(text);
  const at = cuts === undefined ? starts : Array.from({ length: cuts }, (_, i) => starts[Math.floor(((i + 0.5) * starts.length) / cuts)]!);
  for (const near of at) {
    // the whole's count told to both halves, the first once it has read none, half or all of its
    // text, or never (a host that was done first); or told to neither
    let joins = 0;
    for (const planAt of [0, Math.floor(near / 2), Infinity, null]) {
      let halves: ParsedCapture | null;
      try { halves = parseTextInHalves(text, near, { ...opts, planAt }); } catch (e) {
        expect(e).toBeInstanceOf(SplitMismatch);
        continue;
      }
      if (halves === null) continue;
      expect(json(halves), `cut near ${near}, told at ${planAt}`).toEqual(whole);
      joins++;
    }
    // told the count or not, a cut joins or not alike
    expect([0, 4], `cut near ${near}`).toContain(joins);
    if (joins) joined++;
  }
  return joined;
}

/** the text repeated: the fixture's reports (after its banner) again and again */
function longer(text: string, times: number): string {
  const lines = text.split('\n');
  const banner = lines.findIndex((l) => l.startsWith('Linux '));
  const head = lines.slice(0, banner + 1).join('\n') + '\n';
  const body = lines.slice(banner + 1).join('\n').replace(/\n*$/, '\n');
  return head + body.repeat(times);
}

describe('a capture cut in two', () => {
  it.each([...fixtures('iostat'), ...fixtures('vmstat')])('%s: every cut joins to the parse of the whole, or is refused', (f) => {
    const text = readFileSync(path.join(FIX, f), 'utf8');
    const kind = f.split('/')[0]!;
    everyCut(text, kind);
    everyCut(text, kind, 2);
  });

  it('iostat -x, -x -t, -d and vmstat, -t, -w logs join at their cuts, thinned or not', () => {
    const cases: [string, string, number][] = [
      ['iostat/x-1-3.txt', 'iostat', 40], ['iostat/x-t-1-3.txt', 'iostat', 40], ['iostat/x-p-all-1-2.txt', 'iostat', 10],
      ['iostat/d-k-1-2.txt', 'iostat', 40], ['iostat/x-y-1-2.txt', 'iostat', 40], ['iostat/x-t-iso.txt', 'iostat', 30],
      ['vmstat/plain-1-30.txt', 'vmstat', 20], ['vmstat/t-1-3.txt', 'vmstat', 60], ['vmstat/w-1-3.txt', 'vmstat', 60],
      ['vmstat/a-1-3.txt', 'vmstat', 60], ['vmstat/SK-1-2.txt', 'vmstat', 60],
    ];
    for (const [f, kind, times] of cases) {
      const text = f.startsWith('iostat') ? longer(readFileSync(path.join(FIX, f), 'utf8'), times) : readFileSync(path.join(FIX, f), 'utf8').replace(/\n*$/, '\n');
      const long = f.startsWith('iostat') ? text : vmLonger(text, times);
      for (const budget of [undefined, 8, 6, 2]) expect(everyCut(long, kind, budget, 12), `${f} budget ${budget}`).toBeGreaterThan(6);
    }
  });

  it('refuses to join what the two halves would each guess (vmstat -S M without its command line)', () => {
    const long = vmLonger(readFileSync(path.join(FIX, 'vmstat/SM-1-3.txt'), 'utf8'), 20);
    expect(everyCut(long, 'vmstat', undefined, 8)).toBe(0);
    const text = '$ vmstat -S M 1\n' + long;
    expect(everyCut(text, 'vmstat', 4, 8)).toBeGreaterThan(4);
  });

  it('plans only what it can cut', () => {
    const text = (f: string): string[] => headLines(readFileSync(path.join(FIX, f), 'utf8'));
    expect(splitPlan('iostat', text('iostat/json-x-1-2.txt'))).toBeNull();
    expect(splitPlan('vmstat', text('vmstat/d-1-2.txt'))).toBeNull();
    expect(splitPlan('vmstat', text('vmstat/s.txt'))).toBeNull();
    expect(splitPlan('pidstat', ['Linux 6.1.0 (h) 11/29/26 _x86_64_ (2 CPU)'])).toBeNull();
    const plan = splitPlan('iostat', text('iostat/x-t-1-3.txt'))!;
    expect(plan.primer.some((l) => l.startsWith('Linux '))).toBe(true);
    expect(plan.primer.some((l) => l.startsWith('avg-cpu:'))).toBe(false);
  });
});

/** a vmstat capture's rows repeated under its header */
function vmLonger(text: string, times: number): string {
  const lines = text.trimEnd().split('\n');
  const header = lines.findIndex((l) => /^\s*r\s+b\s/.test(l));
  return lines.slice(0, header + 1).join('\n') + '\n' + (lines.slice(header + 1).join('\n') + '\n').repeat(times);
}

/** a second half's series with its lead as the missing points it stands for (what a store padded from sample 0 holds) */
function withLead(s: Series): Series {
  const { lead = 0, ...rest } = s;
  const out: Series = { ...rest, values: [...new Array<number>(lead).fill(NaN), ...s.values] };
  if (s.times) out.times = [...new Array<null>(lead).fill(null), ...s.times];
  return out;
}

describe('a store started part way (RowStore.skipTo)', () => {
  it('is where one padded with as many missing samples is, goes on the same, and holds only its own points', () => {
    for (const budget of [2, 4, 6, 64, 200]) {
      for (const n of [1, 2, 3, 5, 63, 64, 65, 127, 128, 129, 199, 200, 201, 401, 777, 1600, 3001]) {
        const a = new RowStore(3, budget), b = new RowStore(3, budget);
        a.skipTo(n);
        b.padTo(n);
        for (let i = 0; i < 700; i++) {
          const row = [i, -i, i % 7 === 0 ? NaN : i / 3];
          a.pushRow(row); b.pushRow(row);
          if (i % 3 === 0) { a.time(1e12 + i); b.time(1e12 + i); }
          if (i % 50 === 0) { a.padTo(a.len + 2); b.padTo(b.len + 2); }
        }
        for (let c = 0; c < 3; c++) {
          const sa = { name: 'x', column: 'x', unit: '', values: [] } as Series, sb = { ...sa, values: [] } as Series;
          a.finishColumn(c, sa); b.finishColumn(c, sb);
          // the points before n are not held: lead of them, where the padded store has NaN
          const lead = Math.ceil(n / (sb.stride ?? 1));
          expect(sa.lead ?? 0, `budget ${budget}, n ${n}, column ${c}`).toBe(lead);
          expect(sa.values.length).toBe(sb.values.length - lead);
          expect(sb.values.slice(0, lead).every((v) => Number.isNaN(v))).toBe(true);
          expect(withLead(sa), `budget ${budget}, n ${n}, column ${c}`).toEqual(sb);
        }
      }
    }
  });
});

describe('a store told the whole\'s count ahead (RowStore.plan)', () => {
  const finish = (st: RowStore, c: number): Series => { const s = { name: 'x', column: 'x', unit: '', values: [] } as Series; st.finishColumn(c, s); return s; };

  it('ends as one not told, whenever it is told, and holds its points in just the room they take', () => {
    fc.assert(fc.property(
      fc.constantFrom(2, 4, 6, 64), fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.nat(), fc.boolean(),
      (budget, total, atSeed, baseSeed, started) => {
        // a second half starts part way (skipTo); the count comes before any sample or after some
        const base = started ? baseSeed % total : 0;
        const at = base + (atSeed % (total - base + 1));
        const told = new RowStore(2, budget), plain = new RowStore(2, budget);
        if (base) { told.skipTo(base); plain.skipTo(base); }
        for (let i = base; i <= total; i++) {
          if (i === at) told.plan(total);
          if (i === total) break;
          const row = [i, i % 5 === 0 ? NaN : -i / 7];
          told.pushRow(row); plain.pushRow(row);
          if (i % 3 === 0) { told.time(1e12 + i); plain.time(1e12 + i); }
        }
        for (const c of [0, 1]) expect(finish(told, c)).toEqual(finish(plain, c));
        const { stride, kept } = thinningAt(total, budget);
        expect(told.len).toBe(total);
        // told before its points grew: one array of exactly the points it ends with
        if (at === base && kept > Math.ceil(base / stride)) expect((told as unknown as { cap: number }).cap).toBe(kept - Math.ceil(base / stride));
      },
    ), { numRuns: 3000, seed: 12 });
  });

  it('thins ahead as far as it is told the whole surely will, and ends as one not told (RowStore.follow)', () => {
    fc.assert(fc.property(
      fc.constantFrom(2, 4, 6, 64), fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }), fc.nat(),
      (budget, total, endSeed, tells, planSeed) => {
        // a first half of samples [0, end): told at sample `when` that at least `n` follow its end
        // (never more than do), then the whole's count; and here it reads the rest all the same
        const end = endSeed % (total + 1);
        const when = new Map(tells.map(([a, n]) => [a % (end + 1), n % (total - end + 1)]));
        const planAt = planSeed % (end + 1);
        const told = new RowStore(2, budget), plain = new RowStore(2, budget);
        for (let i = 0; i < total; i++) {
          const n = when.get(i);
          if (n !== undefined && i <= planAt) told.follow(n);
          if (i === planAt) told.plan(total);
          const row = [i, i % 5 === 0 ? NaN : -i / 7];
          told.pushRow(row); plain.pushRow(row);
          if (i % 4 === 0) { told.time(1e12 + i); plain.time(1e12 + i); }
        }
        for (const c of [0, 1]) expect(finish(told, c)).toEqual(finish(plain, c));
      },
    ), { numRuns: 3000, seed: 13 });
  });

  it('told that many samples follow, a full store thins instead of growing', () => {
    const told = new RowStore(1, 6000), plain = new RowStore(1, 6000);
    told.follow(1_000_000);
    for (let i = 0; i < 5000; i++) { told.pushRow([i]); plain.pushRow([i]); }
    const cap = (st: RowStore): number => (st as unknown as { cap: number }).cap;
    expect(cap(told)).toBe(64);
    expect(cap(plain)).toBeGreaterThan(4096);
    // a stride of 256 (what 1,005,000 samples need within 6,000 points) from the first full array on
    expect(finish(told, 0).values).toEqual(Array.from({ length: Math.ceil(5000 / 256) }, (_, j) => j * 256));
  });

  it('thins at the budget as one not told when more samples come than it was told', () => {
    const told = new RowStore(1, 8), plain = new RowStore(1, 8);
    told.plan(20);
    for (let i = 0; i < 100; i++) { told.pushRow([i]); plain.pushRow([i]); }
    expect(finish(told, 0)).toEqual(finish(plain, 0));
  });

  it('the second half makes the whole\'s arrays and the first half\'s points go into their front (HalfSeries.whole)', () => {
    // cut at a quarter and at three quarters, thinned (budget 64) and not
    const text = longer(readFileSync(path.join(FIX, 'iostat/x-1-3.txt'), 'utf8'), 400);
    for (const [budget, share] of [[undefined, 0.25], [64, 0.25], [64, 0.75]] as const) {
      const opts = { kind: 'iostat', ...(budget !== undefined ? { budget } : {}) };
      const whole = parseText(text, opts);
      const plan = splitPlan('iostat', headLines(text))!;
      const cut = plan.boundary(text, text.lastIndexOf('\n', text.length * share) + 1);
      const enc = new TextEncoder();
      const base = plan.count(enc.encode(text.slice(0, cut)));
      const total = base + plan.count(enc.encode(text.slice(cut)));
      const second = secondHalfStream('iostat', plan, base, opts);
      second.stream.planSamples(total);
      second.stream.write(text.slice(cut));
      const half = endSecondHalf(second, base, total);
      // (told a long input's size, as the hosts' streams are: its points in Float64Arrays)
      const first = new CaptureStream({ ...opts, size: 32 << 20 });
      first.planSamples(total, base);
      first.write(text.slice(0, cut));
      let own: Series[] = [];
      const joined = first.end((out, at) => {
        own = out.series.slice();
        return joinHalves(out, at, half);
      });
      expect(json(joined)).toEqual(json(whole));
      half.out.series.forEach((s2, i) => {
        const w = whole.series[i]!;
        const label = `${s2.name} ${JSON.stringify(s2.labels)}`;
        // the second half's array has the whole's length, the first half's points' room in front …
        expect(s2.whole, label).toBe(true);
        expect(s2.values.length, label).toBe(w.values.length);
        expect(s2.lead, label).toBeGreaterThan(0);
        // … and becomes the joined series' own
        expect(joined.series[i]!.values, label).toBe(s2.values);
        // the first half holds its own points only, in Float64Arrays as the second half does
        expect(own[i]!.values, label).toBeInstanceOf(Float64Array);
        expect(own[i]!.values.length, label).toBe(Math.ceil(base / (w.stride ?? 1)));
      });
    }
  });

  it('a join refuses halves told a count that is not the whole\'s: a store told too many is thinned too far', () => {
    const text = longer(readFileSync(path.join(FIX, 'iostat/x-1-3.txt'), 'utf8'), 40);
    const opts = { kind: 'iostat', budget: 8 };
    const whole = json(parseText(text, opts));
    const plan = splitPlan('iostat', headLines(text))!;
    const cut = plan.boundary(text, text.lastIndexOf('\n', text.length / 2) + 1);
    const enc = new TextEncoder();
    const base = plan.count(enc.encode(text.slice(0, cut)));
    const total = base + plan.count(enc.encode(text.slice(cut)));
    expect(thinningAt(total * 3, 8).stride).toBeGreaterThan(thinningAt(total, 8).stride);
    for (const told of [total, total + 1, total * 3]) {
      const second = secondHalfStream('iostat', plan, base, opts);
      second.stream.planSamples(told);
      second.stream.write(text.slice(cut));
      const half = endSecondHalf(second, base, told);
      // a second half keeps its points in Float64Arrays: they cross to the host's thread as they are
      expect(half.out.series.every((s) => s.values instanceof Float64Array)).toBe(true);
      const first = new CaptureStream(opts);
      first.planSamples(told);
      first.write(text.slice(0, cut));
      const join = (): ParsedCapture => first.end((out, at) => joinHalves(out, at, half));
      if (told === total) expect(json(join())).toEqual(whole);
      else expect(join, `told ${told} of ${total}`).toThrow(SplitMismatch);
    }
  });
});

describe('the statistics of two halves (joinStats)', () => {
  it('add up to those of one pass, to the last bit: the sums are compensated both ways', () => {
    // values as sysstat prints them, scaled to base units: two decimals, times 1024 or ÷ 1000
    const value = fc.tuple(fc.integer({ min: -1, max: 5e9 }), fc.constantFrom(1024 / 100, 1 / 100, 1 / 100000, 512 / 100))
      .map(([k, m]) => (k < 0 ? NaN : k * m));
    fc.assert(fc.property(fc.array(value, { minLength: 2, maxLength: 400 }), fc.nat(), (vals, at) => {
      const cut = 1 + (at % (vals.length - 1));
      const whole = new RowStore(1, 2), first = new RowStore(1, 2), second = new RowStore(1, 2);
      second.skipTo(cut);
      vals.forEach((v, i) => { whole.pushRow([v]); (i < cut ? first : second).pushRow([v]); });
      const [w, a, b] = [whole, first, second].map((st) => { const s = { name: 'x', column: 'x', unit: '', values: [] } as Series; st.finishColumn(0, s); return s.stats ?? statsOf(withLead(s).values); });
      const j = joinStats(a!, b!);
      expect(statSum(j)).toBe(statSum(w!));
      expect(statSumAll(j)).toBe(statSumAll(w!));
      expect([j.count, j.first, j.n, j.min, j.max, j.last]).toEqual([w!.count, w!.first, w!.n, w!.min, w!.max, w!.last]);
    }), { numRuns: 2000, seed: 9 });
  });
});
