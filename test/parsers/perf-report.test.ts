import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAll, parserForCommand, parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'perf-report');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;
/** the warnings other than the one about a rounded "# Samples: 2K" header (tested on its own) */
const ROUNDED = /samples_total [\d,]+ .*is perf's rounded header \(\d+[KMG]: [\d,]+–[\d,]+\); perf record's summary gives the exact count$/;
const unrounded = (c: ParsedCapture): string[] => c.warnings.filter((w) => !ROUNDED.test(w));

describe('perf-report parser', () => {
  it('reads --no-children with call graphs: rows, overhead per symbol, chains', () => {
    const c = parseText(read('perf-report-no-children.txt'));
    expect(c.kind).toBe('perf-report');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(unrounded(c)).toEqual([]);
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
    expect(unrounded(c)).toEqual([]);
    const t = c.tables!.entries!;
    expect(t.columns).toEqual(['event', 'children_percent', 'self_percent', 'command', 'object', 'symbol', 'line']);
    expect(t.rows[0]).toEqual(['cpu-clock:ppp', 59.27, 0, 'ls', '[kernel.kallsyms]', '[k] entry_SYSCALL_64_after_hwframe', 12]);
    expect(val(c, 'children_percent', { command: 'ls', object: '[kernel.kallsyms]', symbol: '[k] do_syscall_64' })).toBe(59.27);
    expect(val(c, 'overhead_percent', { command: 'ls', object: '[kernel.kallsyms]', symbol: '[k] do_syscall_64' })).toBe(0.36);
    const ch = c.tables!.callchains!.rows;
    expect(ch[0]!.slice(2, 4)).toEqual([21.09, 10]);
    expect(ch[1]!.slice(0, 5)).toEqual([2, 'ls [k] do_syscall_64', 21.09, 9, 'ext4_read_bh <- ext4_bread <- __ext4_read_dirblock <- htree_dirblock_to_tree <- ext4_htree_fill_tree <- ext4_readdir <- iterate_dir <- __x64_sys_getdents64 <- do_syscall_64']);
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
    expect(unrounded(flat)).toEqual([]);
  });

  it('reads two events (one section each) and the Pid:Command sort key', () => {
    const c = parseText(read('perf-report-two-events-sort-dso-sym.txt'));
    expect(unrounded(c)).toEqual([]);
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
    expect(unrounded(folded)).toEqual([]);
    expect(folded.tables!.entries!.rows.length).toBe(3);
    const graph = parseText(read('perf-report-no-children.txt'));
    // the same chain, value and percent (the line each was printed on differs)
    expect(folded.tables!.callchains!.rows[0]!.slice(0, 6)).toEqual(graph.tables!.callchains!.rows[0]!.slice(0, 6));
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
    expect(unrounded(c)).toEqual([]);
  });
});

// ---- issue 11: the whole of perf report --stdio, from real captures of perf 6.1.187 (see how-these-were-made.md)

const tableOf = (c: ParsedCapture, name: string) => {
  const t = c.tables?.[name];
  if (!t) throw new Error(`no table ${name}`);
  return t;
};
/** rows of a table as objects, by column name */
const objects = (c: ParsedCapture, name: string): Record<string, unknown>[] => {
  const t = tableOf(c, name);
  return t.rows.map((r) => Object.fromEntries(t.columns.map((k, i) => [k, r[i]])));
};
const chains = (c: ParsedCapture): string[] => objects(c, 'callchains').map((r) => `${String(r.percent ?? r.value)} ${String(r.chain)}`);
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');

describe('perf-report: detection stays unambiguous', () => {
  it('every perf-report fixture is read as perf-report, and no other fixture is', () => {
    for (const kind of readdirSync(FIXTURES)) {
      for (const f of readdirSync(path.join(FIXTURES, kind)).filter((n) => n.endsWith('.txt') && !n.endsWith('.cmd.txt'))) {
        const head = readFileSync(path.join(FIXTURES, kind, f), 'utf8').split(/\r?\n/).slice(0, 400);
        const best = detectAll(head)[0];
        if (kind === 'perf-report') {
          expect(best?.kind, f).toBe('perf-report');
          // --header-only is the perf.data header alone: surer of it than of nothing, less than of a report;
          // -q's rows have no header either (surest with symbols and call graphs)
          const least = f === 'perf-report-header-only.txt' ? 0.5 : f.startsWith('perf-report-quiet') && !f.includes('header') ? 0.45 : 0.9;
          expect(best!.confidence, f).toBeGreaterThanOrEqual(least);
        } else {
          expect(best?.kind, `${kind}/${f}`).not.toBe('perf-report');
        }
      }
    }
  });
});

describe('perf-report: call graphs of perf record -g, Children and Self', () => {
  it('reads perf record\'s summary in front of its report (one terminal: 2>&1), and the default --children graph', () => {
    const c = parseText(read('perf-report-record-then-report.txt'));
    expect(c.kind).toBe('perf-report');
    // perf record's lines: the exact sample count (the report rounds it: "1K")
    expect(val(c, 'record_wakeups_total')).toBe(1);
    expect(val(c, 'recorded_samples_total')).toBe(1272);
    expect(val(c, 'recorded_bytes')).toBe(Math.round(0.101 * 1024 * 1024));
    expect(c.facts.perf_record_output).toBe('/tmp/pr/fp.data');
    expect(val(c, 'samples_total')).toBe(1000);
    expect(val(c, 'event_count_total')).toBe(318000000);
    expect(val(c, 'lost_samples_total')).toBe(0);
    expect(c.facts.perf_event).toBe('cpu-clock');
    // the recorded program's own line is said, once
    expect(c.warnings).toEqual([expect.stringMatching(/^line 1: 1 line before the report, not perf's .*burn: 60 rounds/)]);
    // top symbols by Self and by Children: __libc_start_call_main never ran itself, yet holds 64.31 % below it
    const mix = { command: 'burn', object: 'burn', symbol: '[.] mix' };
    expect(val(c, 'overhead_percent', mix)).toBe(60.69);
    expect(c.metrics.find((m) => m.name === 'overhead_percent' && m.labels?.symbol === '[.] mix')?.column).toBe('Self');
    expect(val(c, 'children_percent', mix)).toBe(61.56);
    const start = { command: 'burn', object: 'libc.so.6', symbol: '[.] __libc_start_call_main' };
    expect(val(c, 'children_percent', start)).toBe(64.31);
    expect(val(c, 'overhead_percent', start)).toBe(0);
    expect(val(c, 'children_percent', { command: 'burn', object: 'burn', symbol: '[.] sort_block' })).toBe(53.62);
    // the first 20 entries by Self come first, as before; those by Children are added after them
    expect(c.metrics.filter((m) => m.name === 'children_percent').length).toBeGreaterThan(20);
    expect(tableOf(c, 'entries').rows[0]).toEqual(['cpu-clock', 64.31, 0, 'burn', 'libc.so.6', '[.] __libc_start_call_main', 15]);
    // children's graphs are printed caller first (from the entry down to what it called); paths read callee first
    expect(c.facts).toMatchObject({ perf_callgraph_order: 'caller', perf_callgraph_mode: 'graph', perf_callgraph_value: 'percent' });
    expect(chains(c).slice(0, 3)).toEqual([
      '51.65 mix <- sort_block <- main <- __libc_start_call_main',
      '9.75 mix <- hash_block <- main <- __libc_start_call_main',
      '0.71 __GI___libc_write <- main <- __libc_start_call_main',
    ]);
    // the tree as printed: the "---" root (the entry's whole share), its branches with their parents
    expect(objects(c, 'callgraph').slice(0, 5)).toEqual([
      { entry: 1, node: 1, parent: null, level: 0, percent: 64.31, value: null, frames: 'main;__libc_start_call_main', line: 17 },
      { entry: 1, node: 2, parent: 1, level: 1, percent: 53.62, value: 53.62, frames: 'sort_block', line: 20 },
      { entry: 1, node: 3, parent: 2, level: 2, percent: 51.65, value: 51.65, frames: 'mix', line: 22 },
      { entry: 1, node: 4, parent: 1, level: 1, percent: 9.75, value: 9.75, frames: 'mix;hash_block', line: 24 },
      { entry: 1, node: 5, parent: 1, level: 1, percent: 0.71, value: 0.71, frames: '__GI___libc_write', line: 27 },
    ]);
    // mix's graph: its own samples (the whole chain down to it) and what it called (0.86 %, below the graph's limit)
    expect(objects(c, 'callchains').filter((r) => r.entry === 3).map((r) => [r.percent, r.chain])).toEqual([
      [50.94, 'mix <- sort_block <- main <- __libc_start_call_main'], [9.59, 'mix <- hash_block <- main <- __libc_start_call_main'], [0.86, 'mix'],
    ]);
  });

  it('--no-children (callee first) and --no-children -G (caller first): the same paths, reversed', () => {
    const callee = parseText(read('perf-report-no-children-callee.txt'));
    const caller = parseText(read('perf-report-no-children-G.txt'));
    for (const c of [callee, caller]) {
      expect(unrounded(c)).toEqual([]);
      expect(tableOf(c, 'entries').columns).toEqual(['event', 'overhead_percent', 'command', 'object', 'symbol', 'line']);
      expect(val(c, 'overhead_percent', { command: 'burn', object: 'burn', symbol: '[.] mix' })).toBe(60.69);
      expect(c.metrics.some((m) => m.name === 'children_percent')).toBe(false);
    }
    expect(callee.facts.perf_callgraph_order).toBe('callee');
    expect(caller.facts.perf_callgraph_order).toBe('caller');
    expect(chains(callee).slice(0, 2)).toEqual(['50.94 mix <- sort_block <- main <- __libc_start_call_main', '9.59 mix <- hash_block <- main <- __libc_start_call_main']);
    expect(chains(caller).slice(0, 2)).toEqual(['50.94 mix <- sort_block <- main <- __libc_start_call_main', '9.59 mix <- hash_block <- main <- __libc_start_call_main']);
    // a root chain alone ("---msort_with_tmp.part.0"): the entry's whole share, no value printed
    expect(objects(callee, 'callchains')[2]).toMatchObject({ entry: 2, percent: 23.58, chain: 'cmp <- msort_with_tmp.part.0' });
    expect(objects(callee, 'callchains')[3]).toMatchObject({ entry: 3, percent: 7.39, value: null, depth: 1, chain: 'msort_with_tmp.part.0' });
  });

  it('-g callee with Children: the order comes from the command line when the capture shows it', () => {
    const text = read('perf-report-children-callee.txt');
    const c = parseText(`$ perf report -i /tmp/pr/fp.data --stdio -g callee\n${text}`);
    expect(c.command).toBe('perf report -i /tmp/pr/fp.data --stdio -g callee');
    expect(c.facts.perf_callgraph_order).toBe('callee');
    expect(chains(c).slice(0, 3)).toEqual(['64.31 __libc_start_call_main', '64.31 main <- __libc_start_call_main', '51.65 mix <- sort_block <- main <- __libc_start_call_main']);
    // or told from outside the text (a capture kit's manifest), which also picks the parser
    expect(parserForCommand('perf report -i /tmp/pr/fp.data --stdio -g callee')?.id).toBe('perf-report');
    const told = parseText(text, { context: { command: 'perf report -i /tmp/pr/fp.data --stdio -g callee' } });
    expect(told.facts.perf_callgraph_order).toBe('callee');
    // without it, the order is told from the entries that spend most of their time in themselves (mix, cmp): their
    // chains begin with their own function, where a caller-order graph ends them there
    const bare = parseText(text);
    expect(bare.facts.perf_callgraph_order).toBe('callee');
    expect(chains(bare)).toEqual(chains(c));
    // a command line that says otherwise wins (and the paths are then turned round, as a caller-order graph's would be)
    const said = parseText(text, { context: { command: 'perf report --stdio -g caller' } });
    expect(said.facts.perf_callgraph_order).toBe('caller');
    const turn = (line: string): string => { const sp = line.indexOf(' '); return `${line.slice(0, sp)} ${line.slice(sp + 1).split(' <- ').reverse().join(' <- ')}`; };
    expect(chains(said)).toEqual(chains(c).map(turn));
  });

  it('Children graphs with no command line: the order each real capture was printed in, callee or caller', () => {
    const orders: Record<string, string> = {};
    for (const f of readdirSync(DIR).filter((n) => n.endsWith('.txt') && !n.endsWith('.cmd.txt'))) {
      const c = parseText(read(f));
      if (c.facts.perf_callgraph_order === undefined || !c.tables?.entries?.columns.includes('children_percent')) continue;
      expect(c.command, f).toBeUndefined();
      orders[f] = String(c.facts.perf_callgraph_order);
    }
    const callee = Object.keys(orders).filter((f) => orders[f] === 'callee').sort();
    // made with -g callee (their .cmd.txt says so); every other Children report here is perf's default, caller
    expect(callee).toEqual(['perf-report-children-callee.txt', 'perf-report-mixed-children-callee.txt', 'perf-report-quiet-children-callee.txt']);
    expect(Object.keys(orders).length).toBeGreaterThanOrEqual(15);
    const q = parseText(read('perf-report-quiet-children-callee.txt'));
    const full = parseText(read('perf-report-mixed-children-callee.txt'));
    expect(chains(q)).toEqual(chains(full));
    expect(chains(full).slice(0, 3)).toEqual(['37.44 __libc_start_call_main', '37.44 main <- __libc_start_call_main', '29.22 mix <- sort_block <- main <- __libc_start_call_main']);
  });

  it('-g fractal: percentages of the parent, and "[...]" for the rest; no percent of the total for them', () => {
    const c = parseText(read('perf-report-fractal.txt'));
    expect(unrounded(c)).toEqual([]);
    expect(c.facts).toMatchObject({ perf_callgraph_mode: 'fractal', perf_callgraph_value: 'relative_percent', perf_callgraph_order: 'caller' });
    const g = objects(c, 'callgraph');
    expect(g.slice(0, 3)).toEqual([
      { entry: 1, node: 1, parent: null, level: 0, percent: 64.31, value: null, frames: 'main;__libc_start_call_main', line: 14 },
      { entry: 1, node: 2, parent: 1, level: 1, percent: null, value: 83.37, frames: 'sort_block', line: 17 },
      { entry: 1, node: 3, parent: 2, level: 2, percent: null, value: 99.55, frames: 'mix', line: 19 },
    ]);
    expect(g.some((r) => String(r.frames).startsWith('[...]'))).toBe(true);
    expect(objects(c, 'callchains')[4]).toMatchObject({ percent: null, value: 0.45, chain: '[...] (inlined) <- sort_block <- main <- __libc_start_call_main' });
  });

  it('-g flat: one chain per block, outermost first; -g folded with periods', () => {
    const flat = parseText(read('perf-report-flat.txt'));
    expect(unrounded(flat)).toEqual([]);
    expect(flat.facts).toMatchObject({ perf_callgraph_mode: 'flat', perf_callgraph_value: 'percent' });
    expect(flat.tables!.callgraph).toBeUndefined();
    expect(objects(flat, 'callchains').slice(0, 3).map((r) => [r.entry, r.percent, r.depth, r.chain])).toEqual([
      [1, 51.65, 4, 'mix <- sort_block <- main <- __libc_start_call_main'],
      [1, 9.75, 4, 'mix <- hash_block <- main <- __libc_start_call_main'],
      [1, 53.62, 3, 'sort_block <- main <- __libc_start_call_main'],
    ]);
    const folded = parseText(read('perf-report-folded-period.txt'));
    expect(unrounded(folded)).toEqual([]);
    expect(folded.facts).toMatchObject({ perf_callgraph_mode: 'folded', perf_callgraph_value: 'period', perf_callgraph_order: 'callee' });
    expect(objects(folded, 'callchains').slice(0, 2).map((r) => [r.percent, r.value, r.chain])).toEqual([
      [null, 162000000, 'mix <- sort_block <- main <- __libc_start_call_main'], [null, 30500000, 'mix <- hash_block <- main <- __libc_start_call_main'],
    ]);
  });

  it('-g graph,…,count: sample counts on the branches, told apart from periods by the entry\'s share', () => {
    const c = parseText(read('perf-report-graph-count.txt'));
    expect(unrounded(c)).toEqual([]);
    expect(c.facts.perf_callgraph_value).toBe('samples');
    expect(objects(c, 'callgraph').slice(1, 3).map((r) => [r.frames, r.value, r.percent])).toEqual([['sort_block', 682, null], ['mix', 657, null]]);
  });

  it('-n --show-total-period: Samples and Period columns, per entry as samples_total and event_count_total', () => {
    const c = parseText(read('perf-report-n-period.txt'));
    expect(unrounded(c)).toEqual([]);
    expect(tableOf(c, 'entries').columns).toEqual(['event', 'children_percent', 'self_percent', 'samples', 'period', 'command', 'object', 'symbol', 'line']);
    expect(tableOf(c, 'entries').rows[2]).toEqual(['cpu-clock', 61.56, 60.69, 772, 193000000, 'burn', 'burn', '[.] mix', 39]);
    const mix = { command: 'burn', object: 'burn', symbol: '[.] mix' };
    expect(val(c, 'samples_total', mix)).toBe(772);
    expect(val(c, 'event_count_total', mix)).toBe(193000000);
    expect(val(c, 'samples_total')).toBe(1000);
    // the unlabelled figures and the shares come first, as before
    expect(c.metrics.slice(0, 2).map((m) => m.name)).toEqual(['samples_total', 'event_count_total']);
    expect(c.metrics[2]!.name).toBe('overhead_percent');
    // -F: the fields in the order asked for
    const f = parseText(read('perf-report-F-fields.txt'));
    expect(unrounded(f)).toEqual([]);
    expect(tableOf(f, 'entries').columns).toEqual(['event', 'overhead_percent', 'samples', 'period', 'symbol', 'object', 'line']);
    expect(tableOf(f, 'entries').rows[0]).toEqual(['cpu-clock', 60.69, 772, 193000000, '[.] mix', 'burn', 12]);
    expect(val(f, 'samples_total', { object: 'burn', symbol: '[.] mix' })).toBe(772);
  });

  it('-g address (source lines in the frames) and --call-graph dwarf (inlined frames, deep recursion)', () => {
    const a = parseText(read('perf-report-address.txt'));
    expect(unrounded(a)).toEqual([]);
    expect(chains(a)[0]).toBe('18.95 mix burn.c:11 <- sort_block burn.c:27 <- main burn.c:44 <- __libc_start_call_main libc-start.c:74');
    expect(a.facts.perf_callgraph_order).toBe('callee');
    const d = parseText(read('perf-report-dwarf.txt'));
    expect(unrounded(d)).toEqual([]);
    expect(chains(d)[0]).toBe('48.47 mix <- sort_block <- main <- __libc_start_call_main <- __libc_start_main_impl (inlined) <- _start');
    const cmp = objects(d, 'callchains').filter((r) => r.entry === 2);
    expect(Math.max(...cmp.map((r) => Number(r.depth)))).toBe(33);
    expect(cmp.at(-1)).toMatchObject({ percent: 2.42, depth: 9, chain: 'cmp <- msort_with_tmp (inlined) <- msort_with_tmp (inlined) <- __GI___qsort_r <- sort_block <- main <- __libc_start_call_main <- __libc_start_main_impl (inlined) <- _start' });
    expect(Math.max(...objects(d, 'callgraph').map((r) => Number(r.level)))).toBeGreaterThanOrEqual(10);
  });

  it('the brief\'s shell loop: dash has no frame pointers, so addresses and chains cut short are read as printed', () => {
    const c = parseText(read('perf-report-sh-loop.txt'));
    expect(c.warnings).toEqual([expect.stringMatching(ROUNDED)]);
    expect(val(c, 'samples_total')).toBe(2000);
    expect(val(c, 'overhead_percent', { command: 'sh', object: 'libc.so.6', symbol: '[.] __strcmp_avx2' })).toBe(20.13);
    expect(val(c, 'children_percent', { command: 'sh', object: 'dash', symbol: '[.] 0x0000558c66803e77' })).toBe(17.46);
    expect(chains(c).slice(0, 2)).toEqual(['7.08 __strcmp_avx2', '17.46 0x558c66803e77']);
  });
});

describe('perf-report: --sort keys, --hierarchy, --group', () => {
  it('--sort dso / sym / comm / pid with call graphs', () => {
    const dso = parseText(read('perf-report-mixed-sort-dso.txt'));
    expect(tableOf(dso, 'entries').columns).toEqual(['event', 'children_percent', 'self_percent', 'object', 'line']);
    expect(val(dso, 'overhead_percent', { object: 'libc.so.6' })).toBe(36.33);
    expect(val(dso, 'children_percent', { object: 'libc.so.6' })).toBe(70.63);
    // an entry with neither command nor symbol is labelled by its keys
    expect(objects(dso, 'callchains')[0]).toMatchObject({ entry: 1, entry_label: 'libc.so.6', percent: 20.31, chain: 'mix <- sort_block <- main <- __libc_start_call_main' });
    const sym = parseText(read('perf-report-mixed-sort-sym.txt'));
    expect(val(sym, 'overhead_percent', { symbol: '[.] mix' })).toBe(24.32);
    // sorted by symbol first, perf leaves the entry's own frame out of its root chain
    expect(chains(sym)[0]).toBe('20.31 mix <- sort_block <- main');
    const comm = parseText(read('perf-report-mixed-sort-comm.txt'));
    expect(tableOf(comm, 'entries').rows.map((r) => r.slice(1, 4))).toEqual([[62.33, 62.33, 'sh'], [37.67, 37.67, 'burn']]);
    expect(val(comm, 'children_percent', { command: 'burn' })).toBe(37.67);
    const pid = parseText(read('perf-report-mixed-sort-pid.txt'));
    expect(tableOf(pid, 'entries').rows.map((r) => r[3])).toEqual(['12222:sh', '12224:burn']);
    expect(val(pid, 'overhead_percent', { pid_command: '12224:burn' })).toBe(37.67);
    for (const c of [dso, sym, comm, pid]) expect(unrounded(c)).toEqual([]);
  });

  it('--hierarchy: nested rows (command / shared object / symbol), the leaves give the metrics', () => {
    const c = parseText(read('perf-report-mixed-hierarchy.txt'));
    expect(unrounded(c)).toEqual([]);
    const t = tableOf(c, 'entries');
    expect(t.columns).toEqual(['event', 'overhead_percent', 'command', 'object', 'symbol', 'level', 'line']);
    expect(t.rows.map((r) => r.slice(1, 6))).toEqual([
      [62.33, 'sh', '', '', 0], [33.02, 'sh', 'libc.so.6', '', 1], [15.26, 'sh', 'libc.so.6', '[.] __strcmp_avx2', 2], [28.85, 'sh', 'dash', '', 1],
      [37.67, 'burn', '', '', 0], [33.78, 'burn', 'burn', '', 1], [24.32, 'burn', 'burn', '[.] mix', 2], [9.17, 'burn', 'burn', '[.] cmp', 2],
    ]);
    expect(c.metrics.filter((m) => m.name === 'overhead_percent').map((m) => [m.labels!.symbol, m.value])).toEqual([
      ['[.] mix', 24.32], ['[.] __strcmp_avx2', 15.26], ['[.] cmp', 9.17],
    ]);
    expect(chains(c)).toEqual(['5.51 __strcmp_avx2', '20.2 mix <- sort_block <- main <- __libc_start_call_main', '9 cmp <- msort_with_tmp.part.0']);
  });

  it('--group: one value per member in Children and Self, each member\'s share labelled with its event', () => {
    const c = parseText(read('perf-report-group.txt'));
    expect(unrounded(c)).toEqual([]);
    expect(c.facts.perf_event).toBe('anon group { cpu-clock, task-clock }');
    expect(val(c, 'samples_total')).toBe(702);
    const t = tableOf(c, 'entries');
    expect(t.columns).toEqual(['event', 'children_percent', 'children_percent[task-clock]', 'self_percent', 'self_percent[task-clock]', 'command', 'object', 'symbol', 'line']);
    expect(t.rows[4]!.slice(1, 8)).toEqual([31.05, 30.77, 6.55, 7.12, 'burn', 'libc.so.6', '[.] msort_with_tmp.part.0']);
    const ms = { command: 'burn', object: 'libc.so.6', symbol: '[.] msort_with_tmp.part.0' };
    expect(val(c, 'overhead_percent', { ...ms, event: 'cpu-clock' })).toBe(6.55);
    expect(val(c, 'overhead_percent', { ...ms, event: 'task-clock' })).toBe(7.12);
    expect(val(c, 'children_percent', { ...ms, event: 'task-clock' })).toBe(30.77);
    expect(chains(c)[0]).toBe('51.57 mix <- sort_block <- main <- __libc_start_call_main');
  });
});

describe('perf-report: header, lost samples and perf\'s warnings', () => {
  it('lost samples: # Total Lost Samples, and perf\'s warnings from record and report, once each', () => {
    const c = parseText(read('perf-report-lost-record-then-report.txt'));
    expect(c.kind).toBe('perf-report');
    expect(val(c, 'lost_samples_total')).toBe(483);
    expect(c.facts.perf_lost_samples).toBe(483);
    expect(val(c, 'lost_chunks_total')).toBe(26);
    expect(val(c, 'lost_samples_percent')).toBe(10.52);
    expect(val(c, 'recorded_samples_total')).toBe(4109);
    expect(val(c, 'record_wakeups_total')).toBe(1051);
    expect(c.facts.perf_messages).toEqual(['Warning: Processed 5223 events and lost 26 chunks!', 'Check IO/CPU overload!', 'Warning: Processed 4592 samples and lost 10.52%!']);
    expect(val(c, 'overhead_percent', { command: 'burn', object: 'burn', symbol: '[.] mix' })).toBe(49.62);
    expect(chains(c)[0]).toBe('41.93 mix <- sort_block <- main <- __libc_start_call_main <- __libc_start_main_impl (inlined) <- _start');
    expect(c.warnings).toEqual([expect.stringMatching(/^line 1: 1 line before the report/)]);
  });

  it('--header-only: the perf.data header\'s facts, and a warning that there are no entries', () => {
    const c = parseText(read('perf-report-header-only.txt'));
    expect(c.kind).toBe('perf-report');
    expect(c.toolVersion).toBe('perf 6.1.187');
    expect(c.facts).toMatchObject({
      hostname: 'vm', kernel: '6.18.44-fc-v657', cpu_threads: 2, cpu_model: 'AMD EPYC', perf_captured_on: 'Tue Dec  1 00:38:17 2026',
      perf_record_command: '/usr/bin/perf record -g -e cpu-clock -o /tmp/pr/fp.data -- ./burn 60', perf_record_events: ['cpu-clock'],
      perf_sample_duration_seconds: 0.603325,
    });
    expect(c.metrics).toEqual([]);
    expect(c.warnings).toEqual(['the perf.data header only (perf report --header-only): no entries']);
  });
});

describe('perf-report: budgets and pasted text', () => {
  it('keeps the call graphs of the top entries within 2000 paths and 5000 nodes, and says so', () => {
    // a long report: the dwarf capture's 4 entries (40 nodes, 10 paths) printed 250 times over
    const lines = read('perf-report-dwarf.txt').split('\n');
    const first = lines.findIndex((l) => /^\s+\d+\.\d+%\s/.test(l));
    const end = lines.findIndex((l, i) => i > first && l.startsWith('#'));
    const body = lines.slice(first, end).join('\n');
    const text = [...lines.slice(0, first), ...Array.from({ length: 250 }, () => body), ...lines.slice(end)].join('\n');
    const c = parseText(text);
    expect(tableOf(c, 'entries').rows.length).toBe(1000);
    expect(tableOf(c, 'callgraph').rows.length).toBe(5000);
    expect(tableOf(c, 'callchains').rows.length).toBe(2000);
    expect(c.warnings).toEqual([expect.stringMatching(/^call graphs beyond the first 2000 paths \/ 5000 nodes were not kept \(500 paths, 5000 nodes\)/)]);
    // what is kept is exact: the first entry's graph as in the capture itself
    expect(objects(c, 'callgraph').slice(0, 40)).toEqual(objects(parseText(read('perf-report-dwarf.txt')), 'callgraph'));
  });

  it('reads CRLF and colours the same way, with the command from a prompt', () => {
    const text = `root@vm:/tmp/pr# perf report -i /tmp/pr/fp.data --stdio -g callee\n${read('perf-report-children-callee.txt')}`;
    const plain = parseText(text);
    const pasted = parseText(text.replace(/\n/g, '\r\n').replace(/(\d+\.\d+%)/g, '\x1b[31m$1\x1b[m'));
    expect(plain.command).toBe('perf report -i /tmp/pr/fp.data --stdio -g callee');
    expect(pasted.command).toBe(plain.command);
    expect(pasted.tables).toEqual(plain.tables);
    expect(pasted.metrics).toEqual(plain.metrics);
    expect(pasted.facts).toEqual(plain.facts);
    expect(unrounded(pasted)).toEqual([]);
  });
});

describe('perf-report: one direction for paths whatever the print order (the shell loop, -g caller and --no-children)', () => {
  const callerRep = parseText(read('perf-report-sh-loop-g-caller.txt'));
  const calleeRep = parseText(read('perf-report-sh-loop-no-children.txt'));

  it('reads a path callee first, each " <- " pointing to its caller, in both orders', () => {
    expect(callerRep.facts.perf_callgraph_order).toBe('caller');
    expect(calleeRep.facts.perf_callgraph_order).toBe('callee');
    const path = (c: ParsedCapture): string | undefined =>
      objects(c, 'callchains').map((r) => String(r.chain)).find((ch) => ch.endsWith('0x6e6572617020676e'));
    // -g caller prints it 0x6e6572617020676e / 0x1 / __strcmp_avx2, --no-children __strcmp_avx2 / 0x1 / 0x6e…
    expect(path(callerRep)).toBe('__strcmp_avx2 <- 0x1 <- 0x6e6572617020676e');
    expect(path(calleeRep)).toBe('__strcmp_avx2 <- 0x1 <- 0x6e6572617020676e');
    // a node's run of frames too
    const run = (c: ParsedCapture): unknown => objects(c, 'callgraph').find((r) => String(r.frames).startsWith('__strcmp_avx2;0x1'))?.frames;
    expect(run(callerRep)).toBe('__strcmp_avx2;0x1;0x6e6572617020676e');
    expect(objects(calleeRep, 'callgraph').find((r) => r.frames === '0x1;0x6e6572617020676e')).toMatchObject({ entry: 1, parent: 1, level: 1 });
  });

  it('keeps caller mode\'s nesting: parents and levels follow the indentation', () => {
    const g = objects(callerRep, 'callgraph');
    // the "---0x557cb5094a98" entry: a root, branches under it, and theirs under them
    expect(g.filter((r) => r.entry === 3).slice(0, 5)).toEqual([
      { entry: 3, node: 16, parent: null, level: 0, percent: 11.46, value: null, frames: '0x557cb5094a98', line: 62 },
      { entry: 3, node: 17, parent: 16, level: 1, percent: 5.13, value: 5.13, frames: '0x557cb5094aa0', line: 64 },
      { entry: 3, node: 18, parent: 17, level: 2, percent: 4.28, value: 4.28, frames: '0x557c90961e77', line: 66 },
      { entry: 3, node: 19, parent: 18, level: 3, percent: 2.3, value: 2.3, frames: '0x557c90960e90', line: 68 },
      { entry: 3, node: 20, parent: 18, level: 3, percent: 0.98, value: 0.98, frames: '__strcspn_sse42', line: 70 },
    ]);
    expect(g.filter((r) => r.parent !== null).length).toBeGreaterThan(g.length / 3);
    expect(Math.max(...g.map((r) => Number(r.level)))).toBeGreaterThanOrEqual(3);
    // a row without a parent is a root ("---") or a top branch of a graph with no common root (__strcmp_avx2's callers)
    for (const r of g.filter((x) => x.parent === null)) expect(r.level === 0 || r.level === 1).toBe(true);
  });

  it('says samples_total comes from perf\'s rounded "3K" header, unless perf record\'s summary gives the exact count', () => {
    for (const c of [callerRep, calleeRep]) {
      expect(val(c, 'samples_total')).toBe(3000);
      expect(c.warnings).toEqual([
        "line 6: samples_total 3,000 is perf's rounded header (3K: 3,000–3,999); perf record's summary gives the exact count",
      ]);
    }
    // with perf record's summary in front (1272 samples), no warning
    const rec = parseText(read('perf-report-record-then-report.txt'));
    expect(val(rec, 'recorded_samples_total')).toBe(1272);
    expect(rec.warnings.some((w) => ROUNDED.test(w))).toBe(false);
    // an exact header ("# Samples: 275") says nothing
    expect(parseText(read('perf-report-no-children.txt')).warnings).toEqual([]);
  });
});

describe('perf report -q (no header: the columns told from the rows)', () => {
  /** a parse's entries and call chains without the event (-q prints no "# Samples" line) and line numbers */
  const body = (c: ParsedCapture): unknown => ({
    entries: c.tables!.entries!.rows.map((r) => r.slice(1, -1)),
    columns: c.tables!.entries!.columns,
    chains: c.tables!.callchains?.rows.map((r) => r.slice(0, -1)),
    // the entries' own figures (a full report also has the header's samples_total, lost samples …)
    shares: c.metrics.filter((m) => m.labels?.symbol !== undefined).map((m) => [m.name, m.value, m.labels]),
  });

  it('reads the same entries, shares and call chains as the same report with its header', () => {
    for (const [quiet, full, cols] of [
      ['perf-report-quiet.txt', 'perf-report-quiet-header.txt', 'Children, Self, Command, Shared Object, Symbol'],
      ['perf-report-quiet-no-children.txt', 'perf-report-quiet-no-children-header.txt', 'Overhead, Command, Shared Object, Symbol'],
    ] as const) {
      const q = parseText(read(quiet));
      const f = parseText(read(full));
      expect(q.kind).toBe('perf-report');
      expect(q.confidence).toBeGreaterThanOrEqual(0.8);
      expect(q.warnings).toEqual([`line 1: rows with no header (perf report -q): columns read as ${cols}, told from the rows' shape`]);
      expect(f.warnings).toEqual([]);
      expect(q.tables!.entries!.rows.length).toBeGreaterThanOrEqual(3);
      expect(q.tables!.callchains!.rows.length).toBeGreaterThan(3);
      expect(body(q)).toEqual(body(f));
    }
  });

  it('tells -n\'s Samples from --show-total-period\'s Period, and both', () => {
    const p = parseText(read('perf-report-quiet-period.txt'));
    expect(p.tables!.entries!.columns).toEqual(['event', 'overhead_percent', 'period', 'command', 'object', 'symbol', 'line']);
    expect(p.tables!.entries!.rows[0]).toEqual(['', 35.66, 99750000, 'burn', 'burn', '[.] mix', 1]);
    expect(val(p, 'event_count_total', { command: 'burn', object: 'burn', symbol: '[.] mix' })).toBe(99750000);
    const np = parseText(read('perf-report-quiet-n-period.txt'));
    expect(np.tables!.entries!.columns).toEqual(['event', 'children_percent', 'self_percent', 'samples', 'period', 'command', 'object', 'symbol', 'line']);
    expect(np.tables!.entries!.rows[2]).toEqual(['', 35.66, 35.66, 399, 99750000, 'burn', 'burn', '[.] mix', 3]);
    expect(val(np, 'samples_total', { command: 'burn', object: 'burn', symbol: '[.] mix' })).toBe(399);
    // the same rows with the counts alone: Samples (the counts of the mix row agree: 399 × 250,000 ns)
    const samplesOnly = parseText(read('perf-report-quiet-n-period.txt').replace(/^( +\S+ +\S+ +\d+) +\d+/gm, '$1'));
    expect(samplesOnly.tables!.entries!.columns).toContain('samples');
    expect(samplesOnly.tables!.entries!.columns).not.toContain('period');
  });

  it('reads --sort dso and --sort pid, and says so when the rows are nested (--hierarchy)', () => {
    const dso = parseText(read('perf-report-quiet-sort-dso.txt'));
    expect(dso.kind).toBe('perf-report');
    expect(dso.tables!.entries!.columns).toEqual(['event', 'children_percent', 'self_percent', 'object', 'line']);
    expect(dso.tables!.entries!.rows.map((r) => r[3])).toEqual(['libc.so.6', 'burn', '[unknown]', 'dash', '[kernel.kallsyms]', 'ld-linux-x86-64.so.2']);
    // the top entry is the program ("burn"), but the other rows show the column is the shared object
    const burnFirst = parseText(read('perf-report-quiet-sort-dso.txt').split('\n').filter((l) => !/libc\.so/.test(l)).join('\n'));
    expect(burnFirst.tables!.entries!.columns).toEqual(['event', 'children_percent', 'self_percent', 'object', 'line']);
    const pid = parseText(read('perf-report-quiet-sort-pid.txt'));
    expect(pid.kind).toBe('perf-report');
    expect(pid.tables!.entries!.rows).toEqual([['', 50.94, 50.94, '6658:sh', 1], ['', 49.06, 49.06, '6660:burn', 2]]);
    const h = parseText(read('perf-report-quiet-hierarchy.txt'));
    expect(h.kind).toBe('perf-report');
    expect(h.warnings).toContain("line 2: rows at other indents (perf report -q --hierarchy?): read as rows of one level");
  });

  it('leaves text that only starts with percentages alone', () => {
    expect(parseText('  12.5% done\n  50.0% done\n 100.0% done\n').kind).not.toBe('perf-report');
    expect(parseText('45.00%  of the budget\n30.00%  spent\n').kind).not.toBe('perf-report');
  });
});
