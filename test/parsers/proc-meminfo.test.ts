import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

describe('proc-meminfo', () => {
  const text = fixture('proc-meminfo', 'meminfo.txt');
  const jc = JSON.parse(fixture('proc-meminfo', 'meminfo.jc.json')) as Record<string, number>;
  const c = parseText(text);

  it('detects /proc/meminfo', () => {
    expect(c.kind).toBe('proc-meminfo');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('facts and every line agree with jc --proc-meminfo', () => {
    expect(c.facts.memory_total_bytes).toBe(jc.MemTotal! * 1024);
    expect(c.facts.swap_total_bytes).toBe(jc.SwapTotal! * 1024);
    expect(c.facts.memory_available_bytes).toBe(jc.MemAvailable! * 1024);
    expect(c.metrics).toHaveLength(Object.keys(jc).length);
    for (const [key, value] of Object.entries(jc)) {
      const m = c.metrics.find((x) => x.column === key)!;
      expect(m, key).toBeDefined();
      expect(m.value, key).toBe(m.unit === 'B' ? value * 1024 : value);
    }
    expect(c.metrics.find((m) => m.column === 'Active(anon)')!.name).toBe('meminfo_active_anon_bytes');
    expect(c.metrics.find((m) => m.column === 'HugePages_Total')!.unit).toBe('count');
    expect(c.warnings).toEqual([]);
  });

  it('prompt line, CRLF, and a bad line', () => {
    const m = parseText('$ cat /proc/meminfo\r\n' + text.replace(/\n/g, '\r\n') + 'oops\r\n');
    expect(m.command).toBe('cat /proc/meminfo');
    expect(m.facts.memory_total_bytes).toBe(jc.MemTotal! * 1024);
    expect(m.warnings).toHaveLength(1);
    expect(m.warnings[0]).toMatch(/could not read line: oops/);
  });
});
