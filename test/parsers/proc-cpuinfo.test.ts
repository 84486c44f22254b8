import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

describe('proc-cpuinfo', () => {
  const text = fixture('proc-cpuinfo', 'cpuinfo.txt');
  const jc = JSON.parse(fixture('proc-cpuinfo', 'cpuinfo.jc.json')) as Record<string, unknown>[];
  const c = parseText(text);

  it('detects /proc/cpuinfo', () => {
    expect(c.kind).toBe('proc-cpuinfo');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('agrees with jc --proc-cpuinfo', () => {
    expect(c.facts.cpu_threads).toBe(jc.length);
    expect(c.facts.cpu_model).toBe(jc[0]!['model name']);
    expect(c.facts.cpu_mhz).toBe(jc[0]!['cpu MHz']);
    const sockets = new Set(jc.map((p) => p['physical id'])).size;
    const cores = new Set(jc.map((p) => `${String(p['physical id'])}/${String(p['core id'])}`)).size;
    expect(c.facts.cpu_sockets).toBe(sockets);
    expect(c.facts.cpu_cores).toBe(cores);
    expect(c.facts.cpu_flags).toEqual(jc[0]!.flags);
    expect(c.tables?.processors?.rows).toHaveLength(jc.length);
    expect(c.warnings).toEqual([]);
  });

  it('reads a prompt line and CRLF line ends', () => {
    const m = parseText('$ cat /proc/cpuinfo\r\n' + text.replace(/\n/g, '\r\n'));
    expect(m.kind).toBe('proc-cpuinfo');
    expect(m.command).toBe('cat /proc/cpuinfo');
    expect(m.facts.cpu_threads).toBe(2);
  });

  it('truncated after the first processor still gives the model', () => {
    const cut = text.slice(0, text.indexOf('processor\t: 1'));
    const t = parseText(cut);
    expect(t.facts.cpu_threads).toBe(1);
    expect(t.facts.cpu_model).toBe('AMD EPYC');
  });
});
