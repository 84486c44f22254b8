import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'perf-report');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('perf-report parser', () => {
  it('reads --no-children with call graphs: rows, overhead per symbol, chains', () => {
    const c = parseText(read('perf-report-no-children.txt'));
    expect(c.kind).toBe('perf-report');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'samples_total')).toBe(275);
    expect(val(c, 'event_count_total')).toBe(275275275);
    expect(c.facts.perf_event).toBe('cpu-clock:ppp');
    expect(c.facts.perf_lost_samples).toBe(0);
    const t = c.tables!.entries!;
    expect(t.columns).toEqual(['event', 'overhead_percent', 'command', 'object', 'symbol', 'line']);
    expect(t.rows.length).toBe(132);
    expect(t.rows[0]).toEqual(['cpu-clock:ppp', 10.91, 'ls', '[kernel.kallsyms]', '[k] finish_task_switch.isra.0', 12]);
    expect(val(c, 'overhead_percent', { command: 'python3', object: 'python3.11', symbol: '[.] _PyEval_EvalFrameDefault' })).toBe(8.73);
    expect(c.metrics.filter((m) => m.name === 'overhead_percent')).toHaveLength(20);
    const ch = c.tables!.callchains!;
    expect(ch.rows[0]!.slice(0, 4)).toEqual([1, 'ls [k] finish_task_switch.isra.0', 8.73, 19]);
    expect(String(ch.rows[0]![4])).toMatch(/^finish_task_switch\.isra\.0 <- __schedule <- schedule <- io_schedule <- bit_wait_io <- .* <- __GI___getdents64 <- 0$/);
    expect(ch.rows[1]!.slice(0, 5)).toEqual([1, 'ls [k] finish_task_switch.isra.0', 1.09, 6, 'finish_task_switch.isra.0 <- __schedule <- schedule <- exit_to_user_mode_loop <- do_syscall_64 <- entry_SYSCALL_64_after_hwframe']);
  });

  it('reads the default children/self layout and branches without a "---" root', () => {
    const c = parseText(read('perf-report-g-children.txt'));
    expect(c.warnings).toEqual([]);
    const t = c.tables!.entries!;
    expect(t.columns).toEqual(['event', 'children_percent', 'self_percent', 'command', 'object', 'symbol', 'line']);
    expect(t.rows[0]).toEqual(['cpu-clock:ppp', 59.27, 0, 'ls', '[kernel.kallsyms]', '[k] entry_SYSCALL_64_after_hwframe', 12]);
    expect(val(c, 'children_percent', { command: 'ls', object: '[kernel.kallsyms]', symbol: '[k] do_syscall_64' })).toBe(59.27);
    expect(val(c, 'overhead_percent', { command: 'ls', object: '[kernel.kallsyms]', symbol: '[k] do_syscall_64' })).toBe(0.36);
    const ch = c.tables!.callchains!.rows;
    expect(ch[0]!.slice(2, 4)).toEqual([21.09, 10]);
    expect(ch[1]!.slice(0, 5)).toEqual([2, 'ls [k] do_syscall_64', 21.09, 9, 'do_syscall_64 <- __x64_sys_getdents64 <- iterate_dir <- ext4_readdir <- ext4_htree_fill_tree <- htree_dirblock_to_tree <- __ext4_read_dirblock <- ext4_bread <- ext4_read_bh']);
  });

  it('reads --header facts (hostname, kernel, cpu, memory, perf version, record command)', () => {
    const c = parseText(read('perf-report-header-no-children-limit3.txt'));
    expect(c.kind).toBe('perf-report');
    expect(c.toolVersion).toBe('perf 6.1.192');
    expect(c.facts).toMatchObject({ hostname: 'vm', kernel: '6.18.44-fc-v657', arch: 'x86_64', cpu_threads: 2, cpu_model: 'AMD EPYC', memory_total_bytes: 24684092 * 1024 });
    expect(c.facts.perf_record_command).toMatch(/^\/usr\/bin\/perf record -g -F 999 /);
    expect(c.tables!.entries!.rows.length).toBe(4);
  });

  it('reads other --sort keys and -n (Samples column); no call graph', () => {
    const cd = parseText(read('perf-report-sort-comm-dso.txt'));
    expect(cd.tables!.entries!.rows.map((r) => r.slice(1, 4))).toEqual([
      [61.45, 'ls', '[kernel.kallsyms]'], [21.09, 'python3', 'python3.11'], [8.36, 'ls', 'ls'], [7.27, 'ls', 'libc.so.6'],
      [1.09, 'python3', '[kernel.kallsyms]'], [0.36, 'ls', 'ld-linux-x86-64.so.2'], [0.36, 'sh', '[kernel.kallsyms]'],
    ]);
    expect(val(cd, 'overhead_percent', { command: 'ls', object: '[kernel.kallsyms]' })).toBe(61.45);
    const sym = parseText(read('perf-report-sort-sym-n.txt'));
    expect(sym.tables!.entries!.columns).toEqual(['event', 'overhead_percent', 'samples', 'symbol', 'line']);
    expect(sym.tables!.entries!.rows[0]).toEqual(['cpu-clock:ppp', 10.91, 30, '[k] finish_task_switch.isra.0', 12]);
    const flat = parseText(read('perf-report-nocallgraph.txt'));
    expect(val(flat, 'samples_total')).toBe(68);
    expect(flat.tables!.entries!.rows.length).toBe(52);
    expect(flat.tables!.callchains).toBeUndefined();
    expect(flat.warnings).toEqual([]);
  });

  it('reads two events (one section each) and the Pid:Command sort key', () => {
    const c = parseText(read('perf-report-two-events-sort-dso-sym.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'samples_total', { event: 'cpu-clock' })).toBe(20);
    expect(val(c, 'samples_total', { event: 'task-clock' })).toBe(19);
    expect(val(c, 'event_count_total', { event: 'task-clock' })).toBe(38076152);
    expect(val(c, 'overhead_percent', { object: '[kernel.kallsyms]', symbol: '[k] iowrite16', event: 'task-clock' })).toBe(36.84);
    expect(val(c, 'overhead_percent', { object: '[kernel.kallsyms]', symbol: '[k] iowrite16', event: 'cpu-clock' })).toBe(35);
    expect(c.tables!.entries!.rows.length).toBe(24);
    const p = parseText(read('perf-report-two-events-sort-pid-comm.txt'));
    expect(p.tables!.entries!.columns).toEqual(['event', 'overhead_percent', 'pid_command', 'command', 'line']);
    expect(p.tables!.entries!.rows[0]).toEqual(['cpu-clock', 100, '24777:ls', 'ls', 12]);
    expect(val(p, 'overhead_percent', { command: 'ls', pid_command: '24777:ls', event: 'task-clock' })).toBe(100);
  });

  it('reads -g folded chains like the graph ones', () => {
    const folded = parseText(read('perf-report-g-folded.txt'));
    expect(folded.warnings).toEqual([]);
    expect(folded.tables!.entries!.rows.length).toBe(3);
    const graph = parseText(read('perf-report-no-children.txt'));
    expect(folded.tables!.callchains!.rows[0]).toEqual(graph.tables!.callchains!.rows[0]);
  });

  it('survives CRLF, a prompt and a cut end; "10K" sample counts', () => {
    const lines = read('perf-report-nocallgraph.txt').split('\n').slice(0, 20);
    lines[5] = "# Samples: 10K of event 'cpu-clock'";
    const c = parseText(['$ perf report --stdio', ...lines, '    2.94%  ls   '].join('\r\n'));
    expect(c.kind).toBe('perf-report');
    expect(c.command).toBe('perf report --stdio');
    expect(val(c, 'samples_total')).toBe(10000);
    expect(c.tables!.entries!.rows.length).toBe(10);
    // the cut row keeps its percentage (it was NaN: its cells were cut where the header's columns are)
    expect(c.tables!.entries!.rows.at(-1)!.slice(1, 5)).toEqual([2.94, 'ls', '', '']);
    expect(c.warnings).toEqual([]);
  });
});
