import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { group } from '../../shared/capture/parsers/sysstat/index';
import { parseText } from '../../shared/capture/registry';
import { FIX } from './sysstat-helpers';

const samples: string[] = [];
for (const id of ['iostat', 'vmstat', 'pidstat', 'mpstat', 'sar']) {
  for (const f of readdirSync(path.join(FIX, id))) {
    if (f.endsWith('.txt') && !f.endsWith('.cmd.txt')) samples.push(readFileSync(path.join(FIX, id, f), 'utf8'));
  }
}
const allLines = samples.flatMap((s) => s.split('\n'));

describe('sysstat parsers never throw', () => {
  it('on shuffled, cut and mutated real lines, for every parser', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(allLines.length - 1), fc.nat(200), fc.oneof(fc.constant(''), fc.string({ maxLength: 6 }))), { maxLength: 60 }),
      (picks) => {
        const lines = picks.map(([i, cut, junk]) => allLines[i]!.slice(0, cut) + junk);
        for (const p of group.parsers) {
          const sink = p.open();
          lines.forEach((l, k) => sink.line(l, k + 1));
          const out = sink.end();
          expect(Array.isArray(out.series)).toBe(true);
          expect(p.detect(lines)).toBeGreaterThanOrEqual(0);
        }
      },
    ), { numRuns: 150 });
  });

  it('on arbitrary text', () => {
    fc.assert(fc.property(fc.array(fc.string({ maxLength: 120 }), { maxLength: 40 }), (lines) => {
      for (const p of group.parsers) {
        const sink = p.open();
        lines.forEach((l, k) => sink.line(l, k + 1));
        sink.end();
        p.detect(lines);
      }
    }), { numRuns: 200 });
  });

  it('every fixture parses as its own kind without warnings it should not have', () => {
    for (const id of ['iostat', 'vmstat', 'pidstat', 'mpstat', 'sar']) {
      for (const f of readdirSync(path.join(FIX, id))) {
        if (!f.endsWith('.txt') || f.endsWith('.cmd.txt')) continue;
        const c = parseText(readFileSync(path.join(FIX, id, f), 'utf8'));
        expect(c.kind, `${id}/${f}`).toBe(id);
        // a unit guessed for want of the command line is said in a warning (vmstat -S M)
        const unexpected = c.warnings.filter((w) => !/no command line: memory columns look like MiB/.test(w));
        if (!(id === 'pidstat' && f.startsWith('l-'))) expect(unexpected, `${id}/${f}`).toEqual([]);
      }
    }
  });
});
