import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

// jc 1.22.5 on this machine has no lscpu parser, so values are checked against the fixture text itself.
describe('lscpu', () => {
  const plain = parseText(fixture('lscpu', 'lscpu.txt'));
  const json = parseText(fixture('lscpu', 'lscpu-json.txt'));

  it('detects plain and -J output', () => {
    expect(plain.kind).toBe('lscpu');
    expect(plain.confidence).toBeGreaterThanOrEqual(0.9);
    expect(json.kind).toBe('lscpu');
    expect(json.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('gives the hardware-profile facts', () => {
    expect(plain.facts).toMatchObject({
      cpu_model: 'AMD EPYC', arch: 'x86_64', cpu_threads: 2, cpu_sockets: 1, cpu_cores: 2, cpu_threads_per_core: 1,
      virtualization: 'KVM', virtualization_type: 'full', numa_nodes: 1, cpu_vendor: 'AuthenticAMD',
      cpu_l1d_cache_bytes: 96 * 1024, cpu_l2_cache_bytes: 2 * 1024 * 1024, cpu_l3_cache_bytes: 32 * 1024 * 1024,
    });
    expect(plain.settings['Socket(s)']).toBe('1');
    expect(plain.warnings).toEqual([]);
  });

  it('lscpu -J gives the same facts as plain lscpu', () => {
    expect(json.facts).toEqual(plain.facts);
    expect(json.warnings).toEqual([]);
  });

  it('old lscpu (util-linux 2.23) layout with CPU MHz and "32K" caches, prompt line', () => {
    const old = fixture('lscpu', 'lscpu.txt')
      .replace('L1d cache:                               96 KiB (2 instances)', 'L1d cache:                               32K')
      .replace('BogoMIPS:', 'CPU MHz:                                 2596.122\nBogoMIPS:');
    const c = parseText('[root@7DGroup ~]# lscpu\n' + old);
    expect(c.kind).toBe('lscpu');
    expect(c.command).toBe('lscpu');
    expect(c.facts.cpu_mhz).toBe(2596.122);
    expect(c.facts.cpu_l1d_cache_bytes).toBe(32768);
  });

  it('truncated JSON and odd lines give warnings, never exceptions', () => {
    const t = parseText(fixture('lscpu', 'lscpu-json.txt').slice(0, 300), { kind: 'lscpu' });
    expect(t.warnings.join(' ')).toMatch(/could not read lscpu JSON/);
    const w = parseText('Architecture: x86_64\nCPU(s): 4\nSocket(s): 1\n???\n', { kind: 'lscpu' });
    expect(w.warnings).toEqual(['line 4: could not read line: ???']);
    expect(w.facts.cpu_threads).toBe(4);
  });
});
