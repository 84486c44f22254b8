import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/captures/uptime', name), 'utf8');
const v = (c: ParsedCapture, name: string) => c.metrics.find((m) => m.name === name)?.value;

describe('uptime', () => {
  it('agrees with jc --uptime', () => {
    const c = parseText(fixture('uptime.txt'));
    expect(c.kind).toBe('uptime');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    const ref = JSON.parse(fixture('uptime.jc.json')) as Record<string, number>;
    expect(v(c, 'load_average_1m')).toBe(ref.load_1m);
    expect(v(c, 'load_average_5m')).toBe(ref.load_5m);
    expect(v(c, 'load_average_15m')).toBe(ref.load_15m);
    expect(v(c, 'uptime_seconds')).toBe(ref.uptime_total_seconds);
    expect(v(c, 'users_count')).toBe(ref.users);
    expect(c.metrics.find((m) => m.name === 'load_average_1m')!.unit).toBe('count');
    expect(c.metrics.find((m) => m.name === 'uptime_seconds')!.unit).toBe('s');
  });

  it('days, minutes only, one user', () => {
    const a = parseText(' 23:10:01 up 3 days,  4:05,  2 users,  load average: 0.52, 0.58, 0.59');
    expect(a.kind).toBe('uptime');
    expect(v(a, 'uptime_seconds')).toBe(3 * 86400 + 4 * 3600 + 5 * 60);
    expect(v(a, 'users_count')).toBe(2);
    expect(v(a, 'load_average_15m')).toBe(0.59);
    const b = parseText(' 10:00:00 up 5 min,  1 user,  load average: 0.00, 0.01, 0.05');
    expect(v(b, 'uptime_seconds')).toBe(300);
    expect(v(b, 'users_count')).toBe(1);
    const c = parseText(' 10:00:00 up 1 day, 10 min,  0 users,  load average: 1.00, 2.00, 3.00');
    expect(v(c, 'uptime_seconds')).toBe(86400 + 600);
    expect([a, b, c].flatMap((x) => x.warnings)).toEqual([]);
  });

  it('uptime -p (real capture) and uptime -s under its command line', () => {
    const p = parseText(fixture('uptime-p.txt'));
    expect(p.kind).toBe('uptime');
    expect(v(p, 'uptime_seconds')).toBe(8 * 3600 + 2 * 60);
    expect(parseText('up 1 week, 3 days, 8 hours, 2 minutes').metrics[0]!.value).toBe(7 * 86400 + 3 * 86400 + 8 * 3600 + 120);
    const s = parseText('$ uptime -s\n' + fixture('uptime-s.txt'));
    expect(s.kind).toBe('uptime');
    expect(s.facts.up_since).toBe(fixture('uptime-s.txt').trim());
    expect(s.warnings).toEqual([]);
  });

  it('a bare date is not taken for uptime -s; other text is not uptime', () => {
    expect(parseText(fixture('uptime-s.txt')).kind).not.toBe('uptime');
    expect(parseText('the server was up 3 days before the crash\nand then it was not').kind).not.toBe('uptime');
  });
});
