/**
 * A store that knows how much of its input is read (SinkOptions.pace: the share a CaptureStream
 * told the input's size has read) sizes its arrays from the rate of samples so far (RowStore.grown):
 * it ends exactly as one that does not know, and grows once to about the points it ends with where
 * the other doubles its way up to the budget.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureStream } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { RowStore } from '../../shared/capture/parsers/sysstat/common';
import type { Series } from '../../shared/capture/types';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures');

const finish = (st: RowStore, c: number): Series => {
  const s = { name: 'x', column: 'x', unit: '', values: [] } as Series;
  st.finishColumn(c, s);
  return s;
};
const capOf = (st: RowStore): number => (st as unknown as { cap: number }).cap;

/**
 * Push `n` samples (every 7th a gap of up to 3 missing samples, padTo; a NaN now and then; a time
 * on most) into a store told the pace `share(i)` before sample i (null: no pace); returns the
 * store and each size its arrays had.
 */
function fill(n: number, budget: number, share: ((i: number) => number) | null): { st: RowStore; caps: number[] } {
  const pace = { share: 0 };
  const st = new RowStore(2, budget, false, share === null ? null : pace);
  const caps: number[] = [];
  for (let i = 0; i < n; i++) {
    if (share !== null) pace.share = share(i);
    if (i % 7 === 3) st.padTo(st.len + (i % 4));
    st.pushRow([i, i % 11 === 0 ? NaN : -i / 3]);
    if (i % 5 !== 0) st.time(1.7e12 + i * 1000);
    if (capOf(st) !== caps[caps.length - 1]) caps.push(capOf(st));
  }
  return { st, caps };
}

describe('a store told the pace of its input (RowStore.grown)', () => {
  it('ends as one not told, whatever the pace says', () => {
    fc.assert(fc.property(
      fc.constantFrom(2, 6, 64, 700, 50_000), fc.integer({ min: 0, max: 4000 }), fc.double({ min: 0.2, max: 4, noNaN: true }), fc.nat(),
      (budget, n, skew, from) => {
        // the share read as it would be told, off by `skew` (the rate of samples drifts), and 0 before sample `from`
        const share = (i: number): number => (i < from % (n + 1) ? 0 : Math.min(1, ((i + 1) / Math.max(1, n)) * skew));
        const told = fill(n, budget, share).st, plain = fill(n, budget, null).st;
        expect(told.len).toBe(plain.len);
        for (const c of [0, 1]) expect(finish(told, c)).toEqual(finish(plain, c));
      },
    ), { numRuns: 1500, seed: 41 });
  });

  it('grows once to about the points it ends with, where one not told doubles up to the budget', () => {
    // told the share from the 1,000th sample on, as a stream is once it has read 4 MiB
    const n = 30_000;
    const told = fill(n, 50_000, (i) => (i < 1000 ? 0 : i / n));
    const plain = fill(n, 50_000, null);
    const held = told.st.len; // the padded gaps count as samples
    expect(plain.caps).toEqual([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 50_000]);
    // doubling while the pace is unknown (the first 1,000 samples and their gaps), then once
    expect(told.caps.slice(0, -1)).toEqual([64, 128, 256, 512, 1024, 2048]);
    const last = told.caps[told.caps.length - 1]!;
    expect(last).toBeGreaterThanOrEqual(held);
    expect(last).toBeLessThanOrEqual(Math.ceil(held * 1.12));
  });

  it('grows on to the budget when the samples come faster than guessed, and thins there as ever', () => {
    // the share read runs ahead of the samples (a head of long lines, then short rows): the guess is low
    const n = 60_000;
    const told = fill(n, 50_000, (i) => (i < 1000 ? 0 : Math.min(0.99, (3 * i) / n)));
    const plain = fill(n, 50_000, null);
    expect(told.caps[5]).toBeLessThan(20_000);
    expect(told.caps[told.caps.length - 1]).toBe(50_000);
    for (const c of [0, 1]) expect(finish(told.st, c)).toEqual(finish(plain.st, c));
  });

  it('a store that will thin grows as one not told: its arrays reach the budget either way', () => {
    const n = 200_000;
    const told = fill(n, 50_000, (i) => (i < 1000 ? 0 : i / n));
    const plain = fill(n, 50_000, null);
    expect(told.caps).toEqual(plain.caps);
  });
});

describe('a stream told the size of its input (ParseOptions.size)', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  /** iostat -x's real reports over and over: 20 MiB, about 15,600 samples a series (under the budget) */
  function longIostat(): string {
    const lines = readFileSync(path.join(FIX, 'iostat/x-1-3.txt'), 'utf8').split('\n');
    const banner = lines.findIndex((l) => l.startsWith('Linux '));
    const body = lines.slice(banner + 1).join('\n').replace(/\n*$/, '\n');
    return lines.slice(0, banner + 1).join('\n') + '\n' + body.repeat(Math.ceil((20 << 20) / body.length));
  }

  /** the parse of `text` written 64 KiB at a time (as the hosts decode it), and how often a store grew */
  function parse(text: string, size?: number): { json: string; grows: number } {
    const grow = vi.spyOn(RowStore.prototype as unknown as { grow(): void }, 'grow');
    const s = new CaptureStream({ kind: 'iostat', ...(size !== undefined ? { size } : {}) });
    for (let o = 0; o < text.length; o += 65_536) s.write(text.slice(o, o + 65_536));
    const json = JSON.stringify(toCaptureJson(s.end(), { series: true, tables: true }));
    const grows = grow.mock.calls.length;
    grow.mockRestore();
    return { json, grows };
  }

  it('gives the same parse, its stores sized from the share read once 4 MiB are', () => {
    const text = longIostat();
    const told = parse(text, text.length), plain = parse(text);
    expect(told.json).toBe(plain.json);
    // every store: 64 … 4,096 points (3,100 samples in the first 4 MiB), then once to about its
    // 15,600; not told: 8,192 and 16,384
    expect(told.grows).toBeLessThan(plain.grows);
    // a size the input outgrows (a file still being written): the share stops at the whole, the same parse
    expect(parse(text, 5 << 20).json).toBe(plain.json);
  });

  it('of 32 MiB or more, keeps the points in Float64Arrays and the times as a series has them', () => {
    // pidstat (times on every sample) and iostat -x, told a long input's size or a short one's
    for (const [kind, file] of [['pidstat', 'pidstat/urd-1-2.txt'], ['iostat', 'iostat/x-t-1-3.txt']] as const) {
      const text = readFileSync(path.join(FIX, file), 'utf8');
      const read = (size: number): ReturnType<CaptureStream['end']> => {
        const s = new CaptureStream({ kind, size });
        s.write(text);
        return s.end();
      };
      const long = read(32 << 20), short = read(text.length);
      expect(long.series.length, file).toBeGreaterThan(0);
      for (const [i, x] of long.series.entries()) {
        expect(x.values, `${file} ${x.name}`).toBeInstanceOf(Float64Array);
        expect(Array.isArray(short.series[i]!.values), `${file} ${x.name}`).toBe(true);
        // times stay an array, null for none, as every reader of a series expects
        expect(x.times === undefined || Array.isArray(x.times), `${file} ${x.name}`).toBe(true);
      }
      expect(long.series.some((x) => x.times !== undefined), file).toBe(true);
      expect(JSON.stringify(toCaptureJson(long, { series: true, tables: true })), file)
        .toBe(JSON.stringify(toCaptureJson(short, { series: true, tables: true })));
    }
  });
});
