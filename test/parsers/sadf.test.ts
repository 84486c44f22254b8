/**
 * sadf -d (kind sadf-csv) and sadf -j (kind sadf-json), issue 11. Real output of sysstat 12.6.1
 * from two sa files (see each fixture's .cmd.txt): the same file read by sadf -d, sadf -d -h and
 * sadf -j must give the same series. jc 1.22.5 has no sar/sadf parser; `jc --csv` reads a
 * one-activity sadf -d file (d-U-q.jc.json) and is compared against.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAll, parseText } from '../../shared/capture/registry';
import { sadfCsv, sadfJson, jsonColumn, sadfTime } from '../../shared/capture/parsers/sysstat/sadf';
import type { ParsedCapture, Series } from '../../shared/capture/types';
import { FIX, read, readJc, series } from './sysstat-helpers';

const csv = (n: string): ParsedCapture => parseText(read('sadf-csv', n));
const json = (n: string): ParsedCapture => parseText(read('sadf-json', n));
const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 30, h, m, s);
const KB = 1024;
const key = (s: Series): string => `${s.name} ${JSON.stringify(s.labels ?? {})}`;

/** every series of `a` is in `b` with the same column, unit, values and times */
function sameSeries(a: ParsedCapture, b: ParsedCapture): number {
  const byKey = new Map(b.series.map((s) => [key(s), s]));
  let n = 0;
  for (const s of a.series) {
    const o = byKey.get(key(s));
    expect(o, key(s)).toBeDefined();
    expect({ column: o!.column, unit: o!.unit, values: o!.values, times: o!.times }, key(s)).toEqual({ column: s.column, unit: s.unit, values: s.values, times: s.times });
    n++;
  }
  return n;
}

describe('sadf -d (sadf-csv)', () => {
  it('one block per activity: memory, queue, disk (device), network (interface)', () => {
    const c = csv('d-n-DEV-r-q.txt');
    expect(c.kind).toBe('sadf-csv');
    expect(c.confidence).toBeGreaterThanOrEqual(0.95);
    expect(c.warnings).toEqual([]);
    expect(c.facts.hostname).toBe('vm');
    const times = [T(22, 45, 16), T(22, 45, 17), T(22, 45, 18)];
    expect(series(c, 'memory_free_bytes')).toMatchObject({ column: 'kbmemfree', unit: 'B', values: [21389108 * KB, 21505108 * KB, 21473404 * KB], times });
    expect(series(c, 'memory_used_percent').values).toEqual([3.07, 2.6, 2.73]);
    expect(series(c, 'memory_inactive_bytes').values[0]).toBe(1606568 * KB);
    expect(series(c, 'run_queue_size').values).toEqual([8, 8, 7]);
    expect(series(c, 'load_average_15m').values).toEqual([6.03, 6.03, 6.03]);
    const vda = { device: 'vda' };
    expect(series(c, 'transfers_per_second', vda).values).toEqual([1470.87, 5, 0]);
    expect(series(c, 'read_bytes_per_second', vda).values).toEqual([0, 24 * KB, 0]);
    expect(series(c, 'write_bytes_per_second', vda).values[0]).toBe(93700.97 * KB);
    expect(series(c, 'await_seconds', vda).values[1]).toBeCloseTo(0.4 / 1000, 12);
    expect(series(c, 'util_percent', vda)).toMatchObject({ values: [20.19, 0.4, 0], times });
    expect(series(c, 'rx_packets_per_second', { iface: 'lo' }).values).toEqual([133.98, 450, 308]);
    expect(series(c, 'tx_bytes_per_second', { iface: 'lo' }).values).toEqual([21.46 * KB, 70.91 * KB, 48.68 * KB]);
    expect(series(c, 'ifutil_percent', { iface: 'eth0' }).values).toEqual([0, 0, 0]);
    for (const s of c.series) { expect(s.values).toHaveLength(3); expect(s.firstSampleSinceBoot).toBe(false); }
    expect(c.metrics).toEqual([]);
  });

  it('TCP, ETCP and CPU blocks (CPU -1 is "all")', () => {
    const c = csv('d-n-TCP-ETCP-u.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'cpu_user_percent', { cpu: 'all' }).values).toEqual([89.22, 79.6, 86.5]);
    expect(series(c, 'tcp_active_opens_per_second').values).toEqual([18.45, 65, 44]);
    expect(series(c, 'tcp_segments_in_per_second').values[1]).toBe(450);
    expect(series(c, 'tcp_attempt_fails_per_second').values[0]).toBe(8.74);
    expect(series(c, 'tcp_resets_out_per_second').values[0]).toBe(8.74);
    expect(series(c, 'tcp_retransmits_per_second').values).toEqual([0, 0, 0]);
  });

  it('-P ALL with -t (local time stamps, no zone): one series per CPU', () => {
    const c = csv('d-t-P-ALL.txt');
    expect(c.warnings).toEqual([]);
    expect(new Set(c.series.map((s) => s.labels?.cpu))).toEqual(new Set(['all', '0', '1']));
    expect(series(c, 'cpu_system_percent', { cpu: '0' }).values[1]).toBe(32.67);
    expect(series(c, 'cpu_system_percent', { cpu: '1' }).times![1]).toBe(T(22, 45, 17));
  });

  it('de_DE: decimal commas', () => {
    const c = csv('de_DE-d-q-n-DEV.txt');
    expect(c.warnings).toEqual([]);
    expect(sameSeries(c, csv('d-n-DEV-r-q.txt'))).toBe(c.series.length);
    expect(series(c, 'load_average_1m').values).toEqual([3.94, 3.94, 3.94]);
  });

  it('-U (epoch seconds) read as jc --csv reads it', () => {
    const c = csv('d-U-q.txt');
    expect(c.warnings).toEqual([]);
    const jc = readJc('sadf-csv', 'd-U-q.txt')!;
    expect(jc).toHaveLength(3);
    const cols: [string, string][] = [['runq-sz', 'run_queue_size'], ['plist-sz', 'process_list_size'], ['ldavg-1', 'load_average_1m'], ['ldavg-5', 'load_average_5m'], ['ldavg-15', 'load_average_15m'], ['blocked', 'procs_blocked']];
    for (const [col, name] of cols) {
      const s = series(c, name);
      expect(s.column).toBe(col);
      expect(s.values, col).toEqual(jc.map((r) => Number(r[col])));
      expect(s.times).toEqual(jc.map((r) => Number(r.timestamp) * 1000));
    }
  });

  it('-h (all activities on one line) gives the series of the one-block-per-activity form', () => {
    const h = csv('d-h-d-n-DEV-r-q.txt');
    expect(h.warnings).toEqual([]);
    const d = csv('d-n-DEV-r-q.txt');
    expect(h.series).toHaveLength(d.series.length);
    expect(sameSeries(d, h)).toBe(d.series.length);
  });

  it('-C: LINUX-RESTART and COM records go to tables.records; each activity continues after them', () => {
    const c = csv('d-C-restart-q-DEV.txt');
    expect(c.warnings).toEqual([]);
    expect(c.tables!.records!.rows.map((r) => r.slice(0, 3))).toEqual([
      ['2026-11-30 22:45:37 UTC', 'LINUX RESTART', '(2 CPU)'],
      ['2026-11-30 22:45:37 UTC', 'COM', 'after restart'],
    ]);
    expect(series(c, 'run_queue_size')).toMatchObject({ values: [7, 8], times: [T(22, 45, 34), T(22, 45, 39)] });
    expect(series(c, 'procs_blocked').values).toEqual([0, 1]);
    expect(series(c, 'rx_packets_per_second', { iface: 'lo' }).values).toEqual([130.69, 113]);
  });

  it('time stamps as sadf prints them', () => {
    expect(sadfTime('2026-11-30 22:45:16 UTC')).toBe(T(22, 45, 16));
    expect(sadfTime('2026-11-30 22:45:16')).toBe(T(22, 45, 16));
    expect(sadfTime('1796078716')).toBe(T(22, 45, 16));
    expect(sadfTime('yesterday')).toBeNull();
  });
});

describe('sadf -j (sadf-json)', () => {
  it('memory, queue, disk, net-dev, net-tcp, net-etcp: the series of sadf -d on the same file', () => {
    const j = json('j-d-n-DEV-TCP-ETCP-r-q.txt');
    expect(j.kind).toBe('sadf-json');
    expect(j.confidence).toBeGreaterThanOrEqual(0.95);
    expect(j.warnings).toEqual([]);
    expect(j.facts).toMatchObject({ hostname: 'vm', kernel: '6.18.44-fc-v657', arch: 'x86_64', cpu_threads: 2, date: '2026-11-30' });
    expect(series(j, 'memory_free_bytes').values).toEqual([21389108 * KB, 21505108 * KB, 21473404 * KB]);
    expect(series(j, 'memory_inactive_bytes').column).toBe('kbinact');
    expect(series(j, 'write_bytes_per_second', { device: 'vda' })).toMatchObject({ column: 'wkB/s', values: [93700.97 * KB, 0, 0] });
    expect(series(j, 'util_percent', { device: 'vda' }).column).toBe('%util');
    expect(series(j, 'tcp_passive_opens_per_second').values).toEqual([9.71, 32, 22]);
    expect(series(j, 'tcp_resets_out_per_second').column).toBe('orsts/s');
    // the sector and old-name duplicates (rd_sec, avgrq-sz, avgqu-sz) are not series of their own
    expect(j.series.some((s) => /sec|avgrq|avgqu/.test(s.column))).toBe(false);
    const n = sameSeries(csv('d-n-DEV-r-q.txt'), j);
    const tcp = csv('d-n-TCP-ETCP-u.txt');
    const m = sameSeries({ ...tcp, series: tcp.series.filter((s) => !s.labels?.cpu) }, j);
    expect(n + m).toBe(j.series.length);
  });

  it('cpu-load of -P ALL is sadf -d -P ALL', () => {
    const j = json('j-u-P-ALL.txt');
    expect(j.warnings).toEqual([]);
    const d = csv('d-t-P-ALL.txt');
    expect(sameSeries(d, j)).toBe(j.series.length);
  });

  it('-b -w -W -B -S: io, paging, process-and-context-switch, swap-pages, swap memory', () => {
    const j = json('j-t-b-w-W-B-S.txt');
    expect(j.warnings).toEqual([]);
    expect(series(j, 'context_switches_per_second').values[0]).toBe(5496.12);
    expect(series(j, 'processes_created_per_second').values[0]).toBe(28.16);
    expect(series(j, 'paged_out_bytes_per_second').values[0]).toBe(93887.38 * KB);
    expect(series(j, 'page_faults_per_second').values[0]).toBe(13062.14);
    expect(series(j, 'pgfree_per_second')).toMatchObject({ column: 'pgfree/s', unit: '1/s' });
    expect(series(j, 'writes_per_second')).toMatchObject({ column: 'wtps' });
    expect(series(j, 'writes_per_second').values[0]).toBe(1466.99);
    expect(series(j, 'write_bytes_per_second')).toMatchObject({ column: 'bwrtn/s', unit: 'B/s' });
    expect(series(j, 'write_bytes_per_second').values[0]).toBe(187774.76 * 512);
    expect(series(j, 'discard_bytes_per_second').values[0]).toBe(248551.46 * 512);
    expect(series(j, 'swap_used_percent').values[0]).toBe(0);
    expect(series(j, 'vmeff_percent').column).toBe('%vmeff');
    expect(series(j, 'context_switches_per_second').times![0]).toBe(T(22, 45, 16));
  });

  it('restarts and comments go to tables.records; statistics around them are samples', () => {
    const j = json('j-C-restart-q-DEV.txt');
    expect(j.warnings).toEqual([]);
    expect(j.tables!.records!.rows.map((r) => r.slice(0, 3))).toEqual([
      ['2026-11-30 22:45:37 UTC', 'LINUX RESTART', '(2 CPU)'],
      ['2026-11-30 22:45:37 UTC', 'COM', 'after restart'],
    ]);
    expect(sameSeries(csv('d-C-restart-q-DEV.txt'), j)).toBe(j.series.length);
  });

  it('the same document on one line (jq -c, a pasted file) is read whole', () => {
    const text = read('sadf-json', 'j-d-n-DEV-TCP-ETCP-r-q.txt');
    const one = parseText(JSON.stringify(JSON.parse(text)));
    expect(one.kind).toBe('sadf-json');
    expect(one.warnings).toEqual([]);
    const j = json('j-d-n-DEV-TCP-ETCP-r-q.txt');
    expect(one.series).toHaveLength(j.series.length);
    for (const s of j.series) expect(series(one, s.name, s.labels as Record<string, string> | undefined).values).toEqual(s.values);
    // pretty-printed by jq (or JSON.stringify): "{" alone on the first line
    const pretty = parseText(JSON.stringify(JSON.parse(text), null, 2));
    expect(pretty.kind).toBe('sadf-json');
    expect(pretty.warnings).toEqual([]);
    expect(pretty.series.map((s) => s.values)).toEqual(j.series.map((s) => s.values));
  });

  it('a cut-off document warns', () => {
    const text = read('sadf-json', 'j-d-n-DEV-TCP-ETCP-r-q.txt');
    const cut = parseText(text.slice(0, Math.floor(text.length * 0.6)));
    expect(cut.kind).toBe('sadf-json');
    expect(cut.warnings.some((w) => /truncated sadf -j record/.test(w))).toBe(true);
  });

  it('maps sadf -j keys to sar columns', () => {
    expect(jsonColumn('memory', 'memfree')).toBe('kbmemfree');
    expect(jsonColumn('memory', 'inactive')).toBe('kbinact');
    expect(jsonColumn('memory', 'memused-percent')).toBe('%memused');
    expect(jsonColumn('net-tcp', 'active')).toBe('active/s');
    expect(jsonColumn('net-dev', 'rxkB')).toBe('rxkB/s');
    expect(jsonColumn('disk', 'await')).toBe('await');
    expect(jsonColumn('queue', 'runq-sz')).toBe('runq-sz');
    expect(jsonColumn('cpu-load', 'user')).toBe('%user');
    expect(jsonColumn('net-sock', 'totsck')).toBe('totsck');
  });
});

describe('sadf -A: every activity', () => {
  it('sar -A -f, sadf -d -- -A and sadf -j -- -A of the same file give the same series', () => {
    const f = parseText(read('sar', 'f-A-restart.txt'));
    const d = csv('d-A-restart.txt');
    const j = json('j-A-restart.txt');
    for (const c of [f, d, j]) expect(c.warnings).toEqual([]);
    expect(d.series.length).toBeGreaterThan(400);
    expect(sameSeries(d, j)).toBe(j.series.length);
    expect(sameSeries(d, f)).toBe(f.series.length);
    // -I: per interrupt and CPU (sadf -d "INTR;CPU*", sadf -j "all"/"CPU0", sar "all CPU0 CPU1")
    expect(series(d, 'interrupts_per_second', { irq: 'sum', cpu: '1' }).values).toEqual([2373.27, 2365]);
    expect(series(d, 'interrupts_per_second', { irq: 'sum', cpu: 'all' }).column).toBe('all');
    // -y serial lines, -m CPU frequency, PSI
    expect(series(j, 'rcvin_per_second', { tty: '0' }).values).toEqual([0, 0]);
    expect(series(j, 'mhz', { cpu: 'all' }).column).toBe('MHz');
    expect(series(j, 'scpu_10_percent').values[0]).toBe(86.27);
    expect(series(j, 'blg_len', { cpu: '0' }).unit).toBe('');
    expect(j.tables!.records!.rows.map((r) => r[1])).toEqual(['LINUX RESTART']);
  });
});

describe('sadf detection', () => {
  it('each form is its kind, ahead of every other parser', () => {
    for (const [dir, p] of [['sadf-csv', sadfCsv], ['sadf-json', sadfJson]] as const) {
      for (const n of readdirSync(path.join(FIX, dir)).filter((f) => /\.txt$/.test(f) && !f.endsWith('.cmd.txt'))) {
        const head = read(dir, n).split('\n');
        expect(p.detect(head), n).toBeGreaterThanOrEqual(0.95);
        const all = detectAll(head);
        expect(all[0]!.kind, n).toBe(dir);
        expect(all.slice(1).every((d) => d.confidence < all[0]!.confidence), n).toBe(true);
      }
    }
  });

  it('no other fixture is taken for sadf (iostat/mpstat -o JSON start alike)', () => {
    let checked = 0;
    for (const dir of readdirSync(FIX)) {
      if (dir.startsWith('sadf')) continue;
      const walk = (d: string): void => {
        for (const n of readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, n.name);
          if (n.isDirectory()) { walk(p); continue; }
          if (/\.(cmd\.txt|jc\.json|md)$/.test(n.name)) continue;
          const head = read(path.dirname(path.relative(FIX, p)), n.name).split('\n');
          expect(sadfCsv.detect(head), p).toBe(0);
          expect(sadfJson.detect(head), p).toBe(0);
          checked++;
        }
      };
      walk(path.join(FIX, dir));
    }
    expect(checked).toBeGreaterThan(100);
  });
});
