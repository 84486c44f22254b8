import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateFindings, parseText } from '../../shared/capture/registry';
import type { ParsedCapture, Series } from '../../shared/capture/types';
import { expectLinear } from './scaling';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'top');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const series = (c: ParsedCapture, name: string, labels?: Record<string, string>): Series | undefined =>
  c.series.find((s) => s.name === name && JSON.stringify(s.labels ?? {}) === JSON.stringify(labels ?? {}));

interface JcFrame {
  // tasks_* are absent for top -H (jc does not read "Threads:")
  load_1m: number; load_5m: number; load_15m: number; tasks_total: number; tasks_running: number; tasks_sleeping: number;
  tasks_stopped: number; tasks_zombie: number; mem_total: number; mem_free: number; mem_used: number; mem_buff_cache: number;
  mem_available?: number;
  processes: { pid: number; user: string; priority: number | string; nice: number; virtual_mem: number; resident_mem: number; shared_mem: number; percent_cpu: number; percent_mem: number; command: string }[];
}

/** Compare our frames with jc --top (same capture); jc keeps memory in the unit top printed. */
function compareWithJc(c: ParsedCapture, jc: JcFrame[], memUnit: number, procMemUnit: number): void {
  expect(series(c, 'load_1m')!.values.length).toBe(jc.length);
  jc.forEach((f, i) => {
    expect(series(c, 'load_1m')!.values[i]).toBe(f.load_1m);
    expect(series(c, 'load_5m')!.values[i]).toBe(f.load_5m);
    expect(series(c, 'load_15m')!.values[i]).toBe(f.load_15m);
    // jc reads "Tasks:" but not the "Threads:" line of top -H
    if (f.tasks_total !== undefined) for (const k of ['total', 'running', 'sleeping', 'stopped', 'zombie'] as const) expect(series(c, `tasks_${k}`)!.values[i]).toBe(f[`tasks_${k}`]);
    expect(series(c, 'memory_total_bytes')!.values[i]).toBe(Math.round(f.mem_total * memUnit));
    expect(series(c, 'memory_free_bytes')!.values[i]).toBe(Math.round(f.mem_free * memUnit));
    expect(series(c, 'memory_used_bytes')!.values[i]).toBe(Math.round(f.mem_used * memUnit));
    expect(series(c, 'memory_buff_cache_bytes')!.values[i]).toBe(Math.round(f.mem_buff_cache * memUnit));
    if (f.mem_available !== undefined) expect(series(c, 'memory_available_bytes')!.values[i]).toBe(Math.round(f.mem_available * memUnit));
  });
  const t = c.tables!.processes!;
  const col = (n: string) => t.columns.indexOf(n);
  const all = jc.flatMap((f, i) => f.processes.map((p) => ({ ...p, frame: i + 1 })));
  expect(t.rows.length).toBe(all.length);
  all.forEach((p, k) => {
    const r = t.rows[k]!;
    expect(r[col('frame')]).toBe(p.frame);
    expect(r[col('PID')]).toBe(p.pid);
    expect(r[col('USER')]).toBe(p.user);
    expect(r[col('NI')]).toBe(p.nice);
    expect(r[col('%CPU')]).toBe(p.percent_cpu);
    expect(r[col('%MEM')]).toBe(p.percent_mem);
    expect(r[col('VIRT')]).toBe(Math.round(p.virtual_mem * procMemUnit));
    expect(r[col('RES')]).toBe(Math.round(p.resident_mem * procMemUnit));
    expect(r[col('SHR')]).toBe(Math.round(p.shared_mem * procMemUnit));
    expect(r[col('COMMAND')]).toBe(p.command);
  });
}

describe('top parser', () => {
  it('takes linear time on a summary line holding a long run of digits (20,000 digits took seconds; found by fuzzing)', () => {
    const tasks = (n: number) => {
      const lines = read('top-b-1-Ek-em.txt').split('\n');
      const i = lines.findIndex((l) => l.startsWith('Tasks:'));
      lines[i] = lines[i]!.replace(/(\d+) running/, `${'9'.repeat(n)}, $1 running`);
      return lines.join('\n');
    };
    expectLinear((n) => parseText(tasks(n), { kind: 'top' }), 2_500, 'top Tasks:');
    const c = parseText(tasks(20_000), { kind: 'top' });
    expect(series(c, 'tasks_sleeping')?.values.length).toBeGreaterThan(0);
    // the memory line, the load averages and the user count of the first line too
    for (const [find, at] of [[/Mem\s*:/, /total,/], [/^top - /, /load average: [\d.]+/], [/^top - /, /load average: [\d.]+, [\d.]+/]] as const) {
      const withDigits = (n: number) => {
        const more = read('top-b-1-Ek-em.txt').split('\n');
        const j = more.findIndex((l) => find.test(l));
        more[j] = more[j]!.replace(at, (m) => `${m} ${'9'.repeat(n)}.${'9'.repeat(n)},`);
        return more.join('\n');
      };
      expectLinear((n) => parseText(withDigits(n), { kind: 'top' }), 2_000, `top ${String(at)}`);
    }
  });

  it('reads three frames of top -b (procps-ng 4.0.2), same figures as jc', () => {
    const c = parseText(read('top-b-n3.txt'));
    expect(c.kind).toBe('top');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    compareWithJc(c, JSON.parse(read('top-b-n3.jc.json')) as JcFrame[], 1024 * 1024, 1024);
    // jc does not read "%Cpu(s):100.0 us" (no space after the colon); we do
    expect(series(c, 'cpu_user_percent')!.values).toEqual([100, 88.5, 96.1]);
    expect(series(c, 'cpu_system_percent')!.values).toEqual([0, 11.5, 3.9]);
    expect(series(c, 'cpu_user_percent')!.firstSampleSinceBoot).toBe(true);
    expect(series(c, 'cpu_steal_percent')!.values).toEqual([0, 0, 0]);
    expect(series(c, 'tasks_total')!.values).toEqual([86, 91, 87]);
    expect(series(c, 'tasks_total')!.lines).toEqual([2, 195]);
    expect(series(c, 'swap_total_bytes')!.values).toEqual([0, 0, 0]);
    expect(series(c, 'memory_available_bytes')!.values[0]).toBe(Math.round(23593.5 * 1024 * 1024));
    expect(series(c, 'uptime_seconds')!.values[0]).toBe(240);
    expect(c.tables!.frames!.rows).toEqual([[1, '22:46:05', 1], [2, '22:46:06', 95], [3, '22:46:06', 194]]);
    const py = series(c, 'cpu_percent', { pid: '8436', command: 'python3' })!;
    expect(py.values).toEqual([50, 47.1, 50]);
    expect(py.firstSampleSinceBoot).toBe(true);
    // a process that only shows up in a later frame is padded with NaN before it
    expect(series(c, 'cpu_percent', { pid: '8478', command: 'localedef' })!.values).toEqual([NaN, 68.6, 96]);
    expect(c.facts.memory_total_bytes).toBe(Math.round(24105.6 * 1024 * 1024));
    expect(c.findings).toEqual([]);
  });

  it('reads top -H (Threads:) frames', () => {
    const c = parseText(read('top-b-H-n2.txt'));
    expect(c.kind).toBe('top');
    expect(c.warnings).toEqual([]);
    compareWithJc(c, JSON.parse(read('top-b-H-n2.jc.json')) as JcFrame[], 1024 * 1024, 1024);
    expect(series(c, 'tasks_total')!.column).toBe('Threads total');
    expect(series(c, 'tasks_total')!.values).toEqual([102, 102]);
    expect(series(c, 'tasks_zombie')!.values).toEqual([2, 2]);
  });

  it('reads per-CPU lines (-1, two per line), KiB summary (-E k) and MiB process memory (-e m)', () => {
    const c = parseText(read('top-b-1-Ek-em-w250.txt'));
    expect(c.kind).toBe('top');
    expect(c.warnings).toEqual([]);
    compareWithJc(c, JSON.parse(read('top-b-1-Ek-em-w250.jc.json')) as JcFrame[], 1024, 1024 * 1024);
    expect(series(c, 'cpu_user_percent', { cpu: '0' })!.values).toEqual([100, 100]);
    expect(series(c, 'cpu_system_percent', { cpu: '1' })!.values).toEqual([100, 36.8]);
    expect(series(c, 'cpu_software_irq_percent', { cpu: '1' })!.values).toEqual([0, 5.3]);
    expect(series(c, 'cpu_user_percent')).toBeUndefined();
    // "KiB Mem : … buff/cache       KiB Swap: … avail Mem" on one line
    expect(series(c, 'memory_total_bytes')!.values[0]).toBe(24684092 * 1024);
    expect(series(c, 'memory_available_bytes')!.values[0]).toBe(24216944 * 1024);
    expect(series(c, 'swap_total_bytes')!.values).toEqual([0, 0]);
    expect(c.facts.cpu_threads).toBe(2);
    const t = c.tables!.processes!;
    expect(t.rows[0]!.slice(0, 6)).toEqual([1, 8954, 'root', 20, 0, Math.round(22.4 * 1024 * 1024)]);
  });

  it('reads lines cut by a narrow terminal (-w 120) without inventing figures', () => {
    const c = parseText(read('top-b-1-Ek-em.txt'));
    expect(c.kind).toBe('top');
    expect(series(c, 'cpu_idle_percent', { cpu: '1' })).toBeUndefined(); // "0.0 ni,  0" cut before "id"
    expect(series(c, 'cpu_nice_percent', { cpu: '1' })!.values).toEqual([0, 0]);
    expect(series(c, 'swap_total_bytes')!.values).toEqual([0, 0]);
    expect(series(c, 'swap_free_bytes')).toBeUndefined(); // "0 fre"
  });

  it('reads translated output: de_DE (decimal commas, MiB Spch, ZEIT+, BEFEHL) and zh_CN (任务:, blank S title)', () => {
    const de = parseText(read('top-b-n2-de_DE.txt'));
    expect(de.kind).toBe('top');
    expect(de.warnings).toEqual([]);
    expect(series(de, 'load_1m')!.values).toEqual([9.53, 9.53]);
    expect(series(de, 'cpu_user_percent')!.values).toEqual([50, 67.7]);
    expect(series(de, 'memory_total_bytes')!.values[0]).toBe(Math.round(24105.6 * 1024 * 1024));
    expect(series(de, 'memory_available_bytes')!.values[0]).toBe(Math.round(22764.2 * 1024 * 1024));
    expect(series(de, 'swap_total_bytes')!.values).toEqual([0, 0]);
    expect(de.tables!.processes!.columns).toEqual(['frame', 'PID', 'USER', 'PR', 'NI', 'VIRT', 'RES', 'SHR', 'S', '%CPU', '%MEM', 'TIME+', 'COMMAND']);
    expect(de.tables!.processes!.rows[0]).toEqual([1, 15008, 'root', 20, 0, 1176120 * 1024, 256184 * 1024, 40632 * 1024, 'R', 35.3, 1, '0:04.59', 'node']);
    const zh = parseText(read('top-b-n2-zh_CN.txt'));
    expect(zh.kind).toBe('top');
    expect(zh.warnings).toEqual([]);
    expect(series(zh, 'tasks_total')!.values).toEqual([105, 109]);
    expect(series(zh, 'tasks_total')!.column).toBe('任务 total');
    expect(zh.tables!.processes!.columns).toEqual(['frame', 'PID', 'USER', 'PR', 'NI', 'VIRT', 'RES', 'SHR', 'S', '%CPU', '%MEM', 'TIME+', 'COMMAND']);
    expect(zh.tables!.processes!.rows[0]).toEqual([1, 15162, 'root', 20, 0, 1079692 * 1024, 152116 * 1024, 40568 * 1024, 'S', 68.8, 0.6, '0:00.97', 'node']);
  });

  it('reads user-chosen fields after COMMAND and -c command lines with spaces', () => {
    const c = parseText(read('top-b-c-custom-fields.txt'));
    expect(c.warnings).toEqual([]);
    const t = c.tables!.processes!;
    expect(t.columns).toEqual(['frame', 'PID', 'USER', 'PR', 'NI', 'VIRT', 'RES', 'SHR', 'S', '%CPU', '%MEM', 'TIME+', 'COMMAND', 'PGRP', 'nTH', 'P']);
    expect(t.rows[0]).toEqual([1, 26468, 'root', 20, 0, 20532 * 1024, 9068 * 1024, 5556 * 1024, 'R', 25, 0, '0:00.14', '/usr/bin/python3 -c while True: pass', 26467, 1, 1]);
    expect(series(c, 'cpu_percent', { pid: '26468', command: '/usr/bin/python3 -c while True: pass' })!.values).toEqual([25, 37.3]);
  });

  it('reads BusyBox top -b (no "top -" line; Mem/CPU/Load average; STAT, %VSZ, percent cells)', () => {
    const c = parseText(read('busybox-top-b-n2.txt'));
    expect(c.kind).toBe('top');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(series(c, 'memory_used_bytes')!.values).toEqual([3171748 * 1024, 3236364 * 1024]);
    expect(series(c, 'memory_cached_bytes')!.values).toEqual([1975992 * 1024, 1992824 * 1024]);
    expect(series(c, 'memory_buffers_bytes')!.values).toEqual([38040 * 1024, 38040 * 1024]);
    expect(series(c, 'cpu_user_percent')!.values).toEqual([65, 63]);
    expect(series(c, 'cpu_nice_percent')!.values).toEqual([10, 13]);
    expect(series(c, 'load_1m')!.values).toEqual([11.67, 11.67]);
    expect(series(c, 'tasks_running')!.values).toEqual([10, 22]);
    expect(series(c, 'tasks_total')!.values).toEqual([379, 428]);
    const t = c.tables!.processes!;
    expect(t.columns).toEqual(['frame', 'PID', 'PPID', 'USER', 'STAT', 'VSZ', '%VSZ', '%CPU', 'COMMAND']);
    expect(t.rows.length).toBe(10);
    expect(t.rows[5]).toEqual([2, 6, 3, 'root', 'R', 20532 * 1024, 0, 7, '/usr/bin/python3 -c while True: pass']);
    expect(series(c, 'cpu_percent', { pid: '6', command: '/usr/bin/python3 -c while True: pass' })!.values).toEqual([25, 7]);
  });

  it('splits the VSZ and %VSZ that BusyBox glues together for huge processes', () => {
    // a row of a real BusyBox top capture on this machine (a chromium renderer, command line cut)
    const lines = read('busybox-top-b-n2.txt').split('\n');
    lines.splice(4, 0, ' 2266  1628 root     S    1447g5792%  21% /usr/lib/chromium/chromium --type=renderer');
    const c = parseText(lines.join('\n'));
    expect(c.warnings).toEqual([]);
    expect(c.tables!.processes!.rows[0]).toEqual([1, 2266, 1628, 'root', 'S', 1447 * 1024 ** 3, 5792, 21, '/usr/lib/chromium/chromium --type=renderer']);
  });

  it('takes the command from a prompt line and survives CRLF, colours and a cut end', () => {
    const text = read('top-b-n3.txt');
    const lines = text.split('\n');
    const mangled = ['user@web1:~$ top -b -n 3 -d 0.5', ...lines.slice(0, 12), lines[12]!.slice(0, 20)].join('\r\n').replace(/load average/g, '\x1b[1mload average\x1b[0m');
    const c = parseText(mangled);
    expect(c.kind).toBe('top');
    expect(c.command).toBe('top -b -n 3 -d 0.5');
    expect(series(c, 'load_1m')!.values).toEqual([0.4]);
    expect(c.tables!.processes!.rows.length).toBe(5);
    expect(c.warnings).toEqual(['line 14: could not read process row "3 root      20"']);
    // a single frame: its cpu figures are not flagged as a since-start sample
    expect(series(c, 'cpu_user_percent')!.firstSampleSinceBoot).toBeUndefined();
  });

  it('flags sleeping processes that still use CPU (php-fpm style), steal and iowait', () => {
    const base = parseText(read('top-b-n3.txt'));
    const t = base.tables!.processes!;
    const iS = t.columns.indexOf('S');
    const iCpu = t.columns.indexOf('%CPU');
    const iCmd = t.columns.indexOf('COMMAND');
    // the rows of a real capture, re-labelled: 8 sleeping php-fpm workers each with a little CPU in frame 2
    const rows = t.rows.map((r) => r.slice());
    let n = 0;
    for (const r of rows) if (r[0] === 2 && n < 8) { r[iS] = 'S'; r[iCpu] = 1.5; r[iCmd] = 'php-fpm'; n++; }
    const steal: Series = { name: 'cpu_steal_percent', column: 'st', unit: '%', values: [0, 25, 15], firstSampleSinceBoot: true, lines: [3, 196] };
    const c: ParsedCapture = { ...base, tables: { ...base.tables, processes: { ...t, rows } }, series: [...base.series.filter((s) => s.name !== 'cpu_steal_percent'), steal] };
    const f = evaluateFindings([c])[0]!;
    const busy = f.find((x) => x.id === 'cpu.sleeping-processes-busy')!;
    expect(busy.severity).toBe('info');
    expect(busy.message).toMatch(/^8 processes in state S \(sleeping\) still used CPU in frame 2 \(12\.0 % together; php-fpm ×8\)/);
    const st = f.find((x) => x.id === 'cpu.steal-high')!;
    expect(st.severity).toBe('warning');
    expect(st.message).toMatch(/CPU steal time averages 20\.0 % \(max 25\.0 %\)/);
    expect(st.evidence).toBe('lines 3-196');
    expect(f.find((x) => x.id === 'cpu.iowait-high')).toBeUndefined();
  });

  it('detects top and nothing else', () => {
    const c = parseText(read('top-b-H-n2.txt'));
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(parseText('Tasks: 1 total\nhello\n').kind).not.toBe('top');
  });
});

describe('top run interactively, as script(1) records it (issue 11)', () => {
  it('reads through colour, charset and keypad escapes and CRLF: the first frame whole, the summary of each', () => {
    const c = parseText(read('top-interactive-script.txt'));
    expect(c.kind).toBe('top');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(series(c, 'load_1m')?.values.length).toBeGreaterThanOrEqual(1);
    expect(series(c, 'tasks_total')?.values[0]).toBeGreaterThan(0);
    // no escape left over in anything it says ("(B" was ESC ( B, the charset designation)
    expect(c.warnings.join('\n')).not.toMatch(/\(B|\x1b/);
  });

  it('reads every redrawn frame: the one glued to the last row before it, its rows under the header not printed again', () => {
    const text = read('top-interactive-script-n4.txt');
    const c = parseText(text, { kind: 'top' });
    expect(c.warnings).toEqual([]); // script(1)'s "Script started/done" lines are its own, not top's
    const frames = c.tables!.frames!.rows;
    expect(frames.map((r) => r[1])).toEqual(['01:07:56', '01:07:57', '01:07:58', '01:07:59']);
    expect(series(c, 'load_1m')?.values).toHaveLength(4);
    expect(series(c, 'tasks_total')?.values.every((v) => v > 0)).toBe(true);
    // every frame's process rows, as many as the screen had room for (the raw text, frame by frame)
    const rows = c.tables!.processes!.rows;
    for (const f of [1, 2, 3, 4]) expect(rows.filter((r) => r[0] === f).length).toBeGreaterThanOrEqual(25);
    // a row of frame 2 read with frame 1's columns: its PID, %CPU and command as the screen showed them
    expect(text).toContain('32687 root      20   0   12.6g 356876  60480 S  72.3   1.4   0:02.44 node');
    const cols = c.tables!.processes!.columns;
    const row = rows.find((r) => r[0] === 2 && r[cols.indexOf('PID')] === 32687)!;
    expect(row[cols.indexOf('%CPU')]).toBe(72.3);
    expect(row[cols.indexOf('COMMAND')]).toBe('node');
  });
});

describe('top rows past the processes table (200,000 rows)', () => {
  it('still give each process its %CPU, with a COMMAND of several words, and warn about a row it cannot read', () => {
    // a long top -b run: the real three frames over and over until the table is full, then the
    // frames of top -b -c with custom fields (COMMAND with spaces, columns after it), and one of its
    // rows with a PID mangled (as a cut-off line could leave it)
    const n3 = read('top-b-n3.txt').replace(/\n*$/, '\n\n');
    const rowsPerRepeat = n3.split('\n').filter((l) => /^\s*\d+\s/.test(l)).length;
    const repeats = Math.ceil(200_000 / rowsPerRepeat) + 2;
    const custom = read('top-b-c-custom-fields.txt').replace(/\n*$/, '\n');
    const customRows = custom.split('\n').filter((l) => /^\s*\d+\s/.test(l)).length;
    const mangled = custom.replace(/^26472 /m, '26x72 ');
    const c = parseText(n3.repeat(repeats) + custom + mangled, { kind: 'top' });
    const frames = series(c, 'load_1m')!.values.length;
    const customFrames = custom.split('\n').filter((l) => l.startsWith('top - ')).length;
    expect(c.tables!.processes!.rows.length).toBe(200_000);
    // every row past the table but the mangled one is counted, and that one is named
    expect(c.warnings).toContain(`${repeats * rowsPerRepeat + 2 * customRows - 1 - 200_000} process rows beyond 200000 were not kept in the processes table`);
    expect(c.warnings.filter((w) => w.includes('could not read process row') && w.includes('26x72'))).toHaveLength(1);
    // python3 -c was busy in every custom frame: its %CPU in the last frames, under its whole command line
    const py = series(c, 'cpu_percent', { pid: '26468', command: '/usr/bin/python3 -c while True: pass' })!;
    expect(py.values.length).toBe(frames);
    const last = py.values.slice(-2 * customFrames);
    const expected = custom.split('\n').filter((l) => l.startsWith('26468 ')).map((l) => Number(l.trim().split(/\s+/)[8]));
    expect(last).toEqual([...expected, ...expected]);
    expect(py.values.slice(0, frames - 2 * customFrames).every((v) => Number.isNaN(v))).toBe(true);
  });
});
