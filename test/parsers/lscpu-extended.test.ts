/**
 * lscpu -e / -p / -C (util-linux 2.38.1), read by the `lscpu` kind. Real runs on this VM and real
 * runs of the same lscpu on util-linux's own sysfs dumps of real machines (`lscpu -s DUMP`: a Dell
 * laptop, a 2-socket EPYC, a 4-socket Xeon, an IBM Z LPAR; one with a CPU taken offline). jc 1.22.5 has
 * no lscpu parser, so each form is checked against lscpu's own summary of the same machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAll, parseText, parserForCommand } from '../../shared/capture/registry';
import { cpuList, cpuListCount } from '../../shared/capture/parsers/facts/lscpu';
import type { ParsedCapture } from '../../shared/capture/types';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/captures/lscpu', name), 'utf8');
const read = (name: string): ParsedCapture => {
  const c = parseText(fixture(name), { file: name });
  expect(c.kind, name).toBe('lscpu');
  expect(c.confidence, name).toBeGreaterThanOrEqual(0.9);
  expect(c.warnings, name).toEqual([]);
  return c;
};
/** the facts of `c` that `summary` also gives, each equal */
function agrees(c: ParsedCapture, summary: ParsedCapture, keys: readonly string[]): void {
  for (const k of keys) {
    expect(summary.facts[k], `summary ${k}`).toBeDefined();
    expect(c.facts[k], k).toEqual(summary.facts[k]);
  }
}
const TOPOLOGY = ['cpu_threads', 'cpu_cores', 'cpu_sockets', 'cpu_threads_per_core', 'numa_nodes'];

describe('lscpu -e, -p and -C', () => {
  it('this VM: -e, -e -J, -e --output-all, -p and -p=COLUMNS agree with its summary', () => {
    const summary = read('lscpu-vm.txt');
    for (const name of ['lscpu-e.txt', 'lscpu-e-J.txt', 'lscpu-e-output-all.txt', 'lscpu-p.txt', 'lscpu-p-columns.txt']) {
      const c = read(name);
      agrees(c, summary, TOPOLOGY);
      expect(c.metrics.map((m) => [m.name, m.value])).toEqual([['cpu_threads', 2], ['cpu_cores', 2]]);
    }
    for (const name of ['lscpu-e.txt', 'lscpu-e-J.txt', 'lscpu-p-columns.txt']) agrees(read(name), summary, ['cpu_threads_online', 'cpu_online_list']);
    expect(read('lscpu-e-output-all.txt').facts.cpu_mhz).toBe(2445.426);
  });

  it('-e: a table of the CPUs with the columns as printed; -e -J gives the same table', () => {
    const e = read('lscpu-e.txt');
    expect(e.tables!.cpus).toEqual({ columns: ['CPU', 'NODE', 'SOCKET', 'CORE', 'L1d:L1i:L2:L3', 'ONLINE'], rows: [[0, 0, 0, 0, '0:0:0:0', 'yes'], [1, 0, 0, 1, '1:1:1:0', 'yes']] });
    expect(read('lscpu-e-J.txt').tables).toEqual(e.tables);
    expect(e.metrics[0]).toEqual({ name: 'cpu_threads', value: 2, unit: 'count', column: 'CPU', lines: [2, 3] });
  });

  it('-p: the "#" header names the columns, the empty one before the caches is dropped', () => {
    const p = read('lscpu-p.txt');
    expect(p.tables!.cpus).toEqual({ columns: ['CPU', 'Core', 'Socket', 'Node', 'L1d', 'L1i', 'L2', 'L3'], rows: [[0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 1, 1, 1, 0]] });
    expect(read('lscpu-p-columns.txt').tables!.cpus!.columns).toEqual(['CPU', 'Core', 'Socket', 'Node', 'Online', 'Maxmhz', 'Minmhz', 'Mhz', 'L1d', 'L1i', 'L2', 'L3']);
  });

  it('-C: the cache sizes of the summary', () => {
    const c = read('lscpu-C.txt');
    agrees(c, read('lscpu-vm.txt'), ['cpu_l1d_cache_bytes', 'cpu_l1i_cache_bytes', 'cpu_l2_cache_bytes', 'cpu_l3_cache_bytes']);
    expect(c.facts).toEqual({ cpu_l1d_cache_bytes: 64 * 1024, cpu_l1i_cache_bytes: 64 * 1024, cpu_l2_cache_bytes: 1024 ** 2, cpu_l3_cache_bytes: 32 * 1024 ** 2 });
    expect(c.tables!.caches!.rows[0]).toEqual(['L1d', '32K', '64K', 8, 'Data', 1, 64, 1, 64]);
  });

  it('a 2-socket EPYC 7451 with 8 NUMA nodes: -e and -p give the summary\'s topology; -e its clocks', () => {
    const summary = read('lscpu-epyc.txt');
    expect(summary.facts).toMatchObject({ cpu_threads: 96, cpu_cores: 48, cpu_sockets: 2, cpu_threads_per_core: 2, numa_nodes: 8, cpu_max_mhz: 2300, cpu_min_mhz: 1200 });
    const e = read('lscpu-e-epyc.txt');
    agrees(e, summary, [...TOPOLOGY, 'cpu_mhz', 'cpu_max_mhz', 'cpu_min_mhz', 'cpu_threads_online', 'cpu_online_list']);
    agrees(read('lscpu-p-epyc.txt'), summary, TOPOLOGY);
    expect(e.tables!.cpus!.rows).toHaveLength(96);
  });

  it('a laptop (2 cores × 2 threads) with max/min clocks; -e=COLUMNS without NODE gives no NUMA count', () => {
    const e = read('lscpu-e-dell.txt');
    expect(e.facts).toEqual({
      cpu_threads: 4, cpu_threads_online: 4, cpu_online_list: '0-3', cpu_sockets: 1, cpu_cores: 2, cpu_threads_per_core: 2, numa_nodes: 1,
      cpu_mhz: 2667, cpu_max_mhz: 2667, cpu_min_mhz: 1199,
    });
    const cols = read('lscpu-e-columns-dell.txt');
    expect(cols.tables!.cpus!.columns).toEqual(['CPU', 'CORE', 'SOCKET', 'ONLINE', 'MAXMHZ', 'MINMHZ']);
    const { numa_nodes: _numa, ...rest } = e.facts;
    expect(cols.facts).toEqual(rest);
  });

  it('-p -y (physical ids: core ids repeat in every socket) on a 4-socket Xeon X7550: cores counted per socket', () => {
    // lscpu -s of the same dump says: CPU(s) 64, Core(s) per socket 8, Socket(s) 4, NUMA node(s) 3
    const c = read('lscpu-p-y-64cpu.txt');
    expect(c.facts).toEqual({ cpu_threads: 64, cpu_sockets: 4, cpu_cores: 32, cpu_threads_per_core: 2, numa_nodes: 3 });
    const coreIds = new Set(c.tables!.cpus!.rows.map((r) => r[1]));
    expect(coreIds.size).toBeLessThan(32);
  });

  it('IBM Z with drawers and books: sockets and cores counted within them; polarization and addresses in the table', () => {
    const c = read('lscpu-e-s390-drawer.txt');
    expect(c.facts).toEqual({ cpu_threads: 8, cpu_threads_online: 8, cpu_online_list: '0-7', cpu_sockets: 2, cpu_cores: 8, cpu_threads_per_core: 1, numa_nodes: 1 });
    expect(c.tables!.cpus!.columns).toEqual(['CPU', 'NODE', 'DRAWER', 'BOOK', 'SOCKET', 'CORE', 'L1d:L1i:L2d:L2i', 'ONLINE', 'CONFIGURED', 'POLARIZATION', 'ADDRESS']);
    expect(c.tables!.cpus!.rows[0]).toEqual([0, 0, 0, 0, 0, 0, '0:0:0:0', 'yes', 'yes', 'horizontal', 0]);
  });

  it('an offline CPU: -e says no (and "-" for its clocks), -p leaves it out unless -a; lscpu\'s invalid -e -J is read', () => {
    const summary = read('lscpu-offline.txt');
    expect(summary.facts).toMatchObject({ cpu_threads: 4, cpu_threads_online: 3, cpu_online_list: '0-2', cpu_offline_list: '3', cpu_max_mhz: 2667 });
    // its summary says "CPU min MHz: 0.0000" (the offline CPU's missing clock): no clock is 0 MHz
    expect(fixture('lscpu-offline.txt')).toMatch(/CPU min MHz:\s+0\.0000/);
    expect(summary.facts.cpu_min_mhz).toBeUndefined();
    const e = read('lscpu-e-offline.txt');
    agrees(e, summary, ['cpu_threads', 'cpu_threads_online', 'cpu_online_list', 'cpu_offline_list', 'cpu_cores', 'cpu_sockets', 'numa_nodes', 'cpu_max_mhz']);
    expect(e.facts.cpu_min_mhz).toBe(1199);
    expect(e.tables!.cpus!.rows[3]).toEqual([3, 0, 0, 1, '1:1:1:0', 'no', null, null, null]);
    expect(fixture('lscpu-e-J-offline.txt')).toContain('"maxmhz": -,');
    const j = read('lscpu-e-J-offline.txt');
    expect(j.facts).toEqual(e.facts);
    expect(j.tables).toEqual(e.tables);
    expect(read('lscpu-p-offline.txt').facts).toMatchObject({ cpu_threads: 3 });
    agrees(read('lscpu-p-a-columns-offline.txt'), summary, ['cpu_threads', 'cpu_threads_online', 'cpu_online_list', 'cpu_offline_list']);
  });

  it('lscpu in any form is the lscpu kind\'s command', () => {
    for (const cmd of ['lscpu', 'lscpu -e', 'lscpu -p=CPU,CORE', 'lscpu -C', 'lscpu -e -J']) expect(parserForCommand(cmd)?.id, cmd).toBe('lscpu');
    expect(parseText(fixture('lscpu-p-epyc.txt'), { context: { command: 'lscpu -p' } }).facts).toEqual(read('lscpu-p-epyc.txt').facts);
  });

  it('nothing else claims these captures', () => {
    for (const name of ['lscpu-e.txt', 'lscpu-e-J.txt', 'lscpu-e-output-all.txt', 'lscpu-p.txt', 'lscpu-p-y-64cpu.txt', 'lscpu-C.txt', 'lscpu-e-s390-drawer.txt']) {
      const found = detectAll(fixture(name).split('\n'));
      expect(found.map((d) => d.kind), name).toEqual(['lscpu']);
    }
  });

  it('a kit\'s file with the summary, -e and -p one after another, under prompt lines: the summary has the last word', () => {
    const text = ['$ lscpu', fixture('lscpu-offline.txt'), '$ lscpu -e', fixture('lscpu-e-offline.txt'), '$ lscpu -p', fixture('lscpu-p-offline.txt')].join('\n');
    const c = parseText(text);
    expect(c.kind).toBe('lscpu');
    expect(c.command).toBe('lscpu');
    expect(c.facts).toMatchObject({ cpu_threads: 4, cpu_threads_online: 3, cpu_model: 'Intel(R) Core(TM) i5 CPU       M 560  @ 2.67GHz', cpu_min_mhz: 1199 });
    expect(c.warnings).toEqual([]);
    // -e and -p of one machine without the summary: each CPU counted once, what each form says merged
    const ep = parseText(['$ lscpu -e', fixture('lscpu-e-offline.txt'), '$ lscpu -p', fixture('lscpu-p-offline.txt')].join('\n'));
    expect(ep.facts).toEqual(read('lscpu-e-offline.txt').facts);
    // JSON documents one after another
    const jj = parseText(['$ lscpu -J', fixture('lscpu-json.txt'), '$ lscpu -e -J', fixture('lscpu-e-J-offline.txt')].join('\n'));
    expect(jj.warnings).toEqual([]);
    expect(jj.facts).toMatchObject({ cpu_model: 'AMD EPYC', cpu_offline_list: '3' });
  });

  it('rows it cannot read are warnings', () => {
    const e = parseText(fixture('lscpu-e.txt') + '  2    0      0\n');
    expect(e.warnings).toEqual(['line 4: could not read lscpu -e row: 2    0      0']);
    expect(e.facts.cpu_threads).toBe(2);
    const p = parseText(fixture('lscpu-p.txt') + '2,1\n');
    expect(p.warnings).toEqual(['line 7: could not read lscpu -p row: 2,1']);
    const o = parseText('CPU CORE ONLINE\n  0    0 perhaps\n');
    expect(o.kind).toBe('lscpu');
    expect(o.warnings).toEqual(['line 2: could not read ONLINE value "perhaps"']);
  });

  it('CPU lists as lscpu prints them', () => {
    expect(cpuList([0, 1])).toBe('0,1');
    expect(cpuList([0, 1, 2, 5, 7, 8])).toBe('0-2,5,7,8');
    expect(cpuListCount('0-5,48-53')).toBe(12);
    expect(cpuListCount('0,1')).toBe(2);
    expect(cpuListCount('none')).toBeUndefined();
  });
});
