/**
 * Every parser, fed mutated real captures and random input: it never throws, always finishes in
 * bounded time (a hang detector, not a speed test), and says so in warnings when it read nothing.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaptureStream, PARSERS, parseText } from '../../shared/capture/registry';
import type { CaptureParser, ParseOutput } from '../../shared/capture/types';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');

function listFiles(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try { names = readdirSync(dir); } catch { return out; }
  for (const n of names) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(listFiles(p));
    else if (!/\.(cmd\.txt|jc\.json|md)$/.test(n) && statSync(p).size < 512 * 1024) out.push(p);
  }
  return out;
}

const samples = listFiles(FIXTURES).map((f) => readFileSync(f, 'utf8'));

/** Run a parser's sink directly, so a throw is seen here rather than swallowed by the registry. */
function runSink(p: CaptureParser, text: string): ParseOutput {
  const sink = p.open();
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((l, i) => sink.line(l, i + 1));
  return sink.end();
}

const readNothing = (o: ParseOutput) =>
  o.metrics.length === 0 && o.series.length === 0 && Object.keys(o.facts).length === 0 && Object.keys(o.settings).length === 0 &&
  Object.keys(o.tables ?? {}).length === 0;

/** Mutations real pasted output suffers. */
const mutation = fc.oneof(
  fc.constant((t: string) => t.replace(/\n/g, '\r\n')),
  fc.constant((t: string) => t.replace(/(\d)/g, '\x1b[1;31m$1\x1b[0m')),
  fc.nat().map((n) => (t: string) => t.slice(0, n % (t.length + 1))),
  fc.nat().map((n) => (t: string) => t.slice(n % (t.length + 1))),
  fc.nat().map((n) => (t: string) => { const l = t.split('\n'); l.splice(n % (l.length + 1), 1); return l.join('\n'); }),
  fc.tuple(fc.nat(), fc.string()).map(([n, s]) => (t: string) => { const l = t.split('\n'); l.splice(n % (l.length + 1), 0, s); return l.join('\n'); }),
  fc.nat().map((n) => (t: string) => { const l = t.split('\n'); const i = n % l.length; return [...l.slice(0, i), l[i] + (l[i + 1] ?? ''), ...l.slice(i + 2)].join('\n'); }),
  fc.constant((t: string) => t.replace(/\./g, ',')),
  fc.constant((t: string) => t.replace(/ +/g, '\t')),
  fc.uint8Array({ maxLength: 200 }).map((b) => (t: string) => t + String.fromCharCode(...b)),
);

describe('every parser survives mangled and random input', () => {
  it('has parsers registered', () => {
    expect(PARSERS.length).toBeGreaterThan(0);
  });

  for (const parser of PARSERS) {
    describe(parser.id, () => {
      it('never throws on mutated real captures', () => {
        fc.assert(fc.property(fc.constantFrom(...(samples.length ? samples : [''])), fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, muts) => {
          const t = muts.reduce((acc, m) => m(acc), text);
          const out = runSink(parser, t);
          expect(Array.isArray(out.warnings)).toBe(true);
          parser.detect(t.split('\n').slice(0, 200));
        }), { numRuns: 60 });
      });

      it('never throws on random text, and warns when it read nothing', () => {
        fc.assert(fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('', ' ', '0', '-', '%', ':', 'Average:', '[', '{', '"', '===', '|')), { maxLength: 40 }), (lines) => {
          const out = runSink(parser, lines.join('\n'));
          if (readNothing(out)) expect(out.warnings.length, `${parser.id} read nothing but gave no warning`).toBeGreaterThan(0);
        }), { numRuns: 80 });
      });

      it('finishes in bounded time on pathological lines', () => {
        const evil = [
          'a'.repeat(200_000),
          ' '.repeat(100_000) + 'x',
          '1 '.repeat(50_000),
          '('.repeat(20_000) + ')'.repeat(20_000),
          '"'.repeat(30_000),
          '9'.repeat(50_000) + '.' + '9'.repeat(50_000),
          ('-'.repeat(60) + '\n').repeat(5_000),
          ('0: 1 2 3\n').repeat(20_000),
        ];
        const started = Date.now();
        for (const t of evil) runSink(parser, t);
        // generous: linear parsers take milliseconds; a backtracking regex takes minutes
        expect(Date.now() - started).toBeLessThan(20_000);
      });
    });
  }

  it('the registry keeps any input as a capture, binary garbage included', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 4000 }), (bytes) => {
      const c = parseText(Buffer.from(bytes).toString('latin1'));
      expect(typeof c.kind).toBe('string');
      expect(c.confidence).toBeGreaterThanOrEqual(0);
    }), { numRuns: 100 });
  });

  it('streams: the same result whatever the chunk boundaries', () => {
    const text = samples.find((s) => s.split('\n').length > 15) ?? 'a\nb\r\nc\rd';
    const whole = parseText(text);
    fc.assert(fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      const s = new CaptureStream();
      let prev = 0;
      for (const p of [...points, text.length]) { s.write(text.slice(prev, p)); prev = p; }
      const c = s.end();
      expect(c.kind).toBe(whole.kind);
      expect(c.metrics).toEqual(whole.metrics);
      expect(c.series.map((x) => x.values)).toEqual(whole.series.map((x) => x.values));
    }), { numRuns: 40 });
  });
});
