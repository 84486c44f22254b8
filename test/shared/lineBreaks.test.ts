/**
 * The byte-level line rule of stored captures agrees with the parser's (CaptureStream): "\n",
 * "\r\n" and a lone "\r" each end a line, however the bytes are cut into pieces. If the two ever
 * disagreed, a finding's "lines 5-25" would point at the wrong lines of the raw-text view.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineBreakCounter, LineSplitter, lastLineEnd, safeCut } from '../../shared/capture/lineBreaks';
import { parseText } from '../../shared/capture/registry';
import { minMaxDownsample } from '../../shared/downsample';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** the lines a text has, by the rule (a final empty piece after the last break is not a line) */
function expectedLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const textArb = fc.array(fc.tuple(fc.string({ maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constantFrom('\n', '\r\n', '\r', '')), { maxLength: 40 })
  .map((parts) => parts.map(([a, b]) => a + b).join(''));

function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...at, bytes.length]) { out.push(bytes.subarray(prev, p)); prev = p; }
  return out;
}

describe('line breaks of stored captures', () => {
  it('count and split lines like the parser, whatever the cuts', () => {
    fc.assert(fc.property(textArb, fc.array(fc.nat(), { maxLength: 6 }), (text, points) => {
      const bytes = enc.encode(text);
      const counter = new LineBreakCounter();
      const lines: string[] = [];
      const splitter = new LineSplitter((b) => { lines.push(dec.decode(b)); });
      for (const piece of cut(bytes, points)) { counter.push(piece); splitter.push(piece); }
      splitter.end();
      const want = expectedLines(text);
      expect(counter.lines()).toBe(want.length);
      expect(lines).toEqual(want);
      const parsed = parseText(text, { kind: 'text' });
      expect(parsed.warnings[0]).toContain(`(${want.length} lines)`);
    }));
  });

  it('starts at any line when told how many breaks to skip', () => {
    const text = 'a\r\nb\rc\n\nd';
    for (let skip = 0; skip < 5; skip++) {
      const lines: [string, number][] = [];
      const s = new LineSplitter((b, n) => { lines.push([dec.decode(b), n]); }, skip + 1, skip);
      s.push(enc.encode(text));
      s.end();
      expect(lines).toEqual(expectedLines(text).map((l, i) => [l, i + 1] as [string, number]).slice(skip));
    }
  });

  it('cuts pieces only after a line end, and never between \\r and \\n', () => {
    expect(lastLineEnd(enc.encode('ab\ncd'))).toBe(3);
    expect(lastLineEnd(enc.encode('ab\r\ncd'))).toBe(4);
    expect(lastLineEnd(enc.encode('ab\rcd'))).toBe(3);
    expect(lastLineEnd(enc.encode('abcd\r'))).toBe(-1); // the byte after \r is unknown yet
    expect(lastLineEnd(enc.encode('abcd'))).toBe(-1);
    expect(safeCut(enc.encode('ab\r\ncd'), 3)).toBe(4);
    expect(safeCut(enc.encode('abcd'), 2)).toBe(2);
  });
});

describe('min/max downsampling', () => {
  it('keeps every point of a short series, and the peaks of a long one', () => {
    const x = Array.from({ length: 10_000 }, (_, i) => i);
    const y = x.map((i) => (i === 7_777 ? 1e6 : i === 2_222 ? -5 : Math.sin(i / 50)));
    const d = minMaxDownsample(x, y, 0, 9_999, 500);
    expect(d.downsampled).toBe(true);
    expect(d.x.length).toBeLessThanOrEqual(500);
    expect(d.y).toContain(1e6);
    expect(d.y).toContain(-5);
    expect(d.x).toEqual([...d.x].sort((a, b) => a - b));
    // each point kept says where it came from (a chart shows that point's hover text)
    expect(d.index.map((i) => [x[i], y[i]])).toEqual(d.x.map((v, k) => [v, d.y[k]]));
    const within = minMaxDownsample(x, y, 100, 109, 500);
    expect(within).toMatchObject({ total: 10, downsampled: false, x: x.slice(100, 110), index: x.slice(100, 110) });
  });

  it('shows missing samples as gaps', () => {
    const d = minMaxDownsample([0, 1, 2, 3], [1, NaN, 3, 4], 0, 3, 100);
    expect(d.y).toEqual([1, null, 3, 4]);
    expect(d.index).toEqual([0, 1, 2, 3]);
  });
});
