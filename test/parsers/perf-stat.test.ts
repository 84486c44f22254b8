import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaptureStream, parseText } from '../../shared/capture/registry';
import { MAX_POINTS_PER_SERIES, summarizeSeries } from '../../shared/capture/series';
import type { ParsedCapture, Series } from '../../shared/capture/types';
import { expectLinear } from './scaling';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'perf-stat');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('perf-stat parser', () => {
  it('does not spend quadratic time on a very long line (a 60,000-character line took seconds; found by fuzzing)', () => {
    const rows = ['                 8      context-switches                 #  717.033 /sec                     ( +- 97.98% )', " Performance counter stats for 'system wide':"];
    const long = (n: number) => ['', ...rows.map((l) => (l + ' ').repeat(Math.ceil(n / (l.length + 1))).slice(0, n)), rows[0]].join('\n');
    expectLinear((n) => parseText(long(n), { kind: 'perf-stat' }), 7_500, 'perf-stat');
    const c = parseText(long(60_000), { kind: 'perf-stat' });
    expect(c.warnings.filter((w) => /60000 characters, too long for a perf stat line; not read/.test(w))).toHaveLength(2);
    // the ordinary line after them is still read
    expect(c.metrics.find((m) => m.name === 'context_switches_total' || m.column === 'context-switches')).toBeDefined();
  });

  it('reads the default report; hardware events <not supported> in this VM are kept as such', () => {
    const c = parseText(read('perf-stat-default.txt'));
    expect(c.kind).toBe('perf-stat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(c.command).toBe('perf stat ls -R /usr/share/doc');
    expect(val(c, 'counter_value', { event: 'task-clock' })).toBe(0.01852);
    expect(val(c, 'task_clock_seconds')).toBe(0.01852);
    expect(val(c, 'counter_value', { event: 'context-switches' })).toBe(426);
    expect(val(c, 'counter_value', { event: 'page-faults' })).toBe(204);
    expect(val(c, 'cpus_utilized', { event: 'task-clock' })).toBe(0.541);
    expect(val(c, 'counter_per_second', { event: 'context-switches' })).toBe(23000);
    expect(val(c, 'counter_per_second', { event: 'cpu-migrations' })).toBe(161.97);
    expect(val(c, 'elapsed_seconds')).toBe(0.034235111);
    expect(val(c, 'user_seconds')).toBe(0.004642);
    expect(val(c, 'system_seconds')).toBe(0.013927);
    expect(val(c, 'counter_value', { event: 'cycles' })).toBeUndefined();
    expect(c.facts.perf_events_not_counted).toEqual(['cycles <not supported>', 'instructions <not supported>', 'branches <not supported>', 'branch-misses <not supported>']);
    expect(c.tables!.counters!.rows[4]).toEqual([null, null, 'cycles', 'not supported', null, null, null, null, null, 8]);
  });

  it('reads hardware counters and derived metrics (perf-stat(1) example, older "(msec)" layout)', () => {
    const c = parseText(read('perf-stat-manpage-hw-counters.txt'));
    expect(c.kind).toBe('perf-stat');
    expect(c.warnings).toEqual([]);
    expect(c.command).toBe('perf stat -- make');
    expect(val(c, 'task_clock_seconds')).toBe(83.723452481);
    expect(val(c, 'counter_value', { event: 'cycles:u' })).toBe(229570665834);
    expect(val(c, 'counter_value', { event: 'instructions:u' })).toBe(313163853778);
    expect(val(c, 'instructions_per_cycle', { event: 'instructions:u' })).toBe(1.36);
    expect(val(c, 'cpu_frequency_hertz', { event: 'cycles:u' })).toBe(2742000000);
    expect(val(c, 'counter_percent', { event: 'branch-misses:u' })).toBe(2.98);
    expect(val(c, 'counter_per_second', { event: 'page-faults:u' })).toBe(39000);
    expect(val(c, 'elapsed_seconds')).toBe(83.40918362);
    // perf printed IPC itself: no second, computed one
    expect(c.metrics.filter((m) => m.name === 'instructions_per_cycle')).toHaveLength(1);
  });

  it('computes IPC when perf did not print it', () => {
    const c = parseText('Performance counter stats for \'true\':\n\n        85,967      cycles\n        28,982      instructions\n\n       1.102235068 seconds time elapsed\n');
    expect(val(c, 'counter_value', { event: 'cycles' })).toBe(85967);
    expect(val(c, 'instructions_per_cycle')).toBe(0.337);
  });

  it('reads -r repeats with their +- variation', () => {
    const c = parseText(read('perf-stat-r3-e.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'runs_total')).toBe(3);
    expect(val(c, 'counter_value', { event: 'task-clock' })).toBe(0.01094);
    expect(val(c, 'counter_stddev_percent', { event: 'context-switches' })).toBe(97.98);
    expect(val(c, 'elapsed_seconds')).toBe(0.01493);
    expect(val(c, 'elapsed_stddev_seconds')).toBe(0.00178);
    expect(val(c, 'elapsed_stddev_percent')).toBe(11.94);
  });

  it('reads -a system wide, -A per CPU, -B thousands and a German locale', () => {
    const a = parseText(read('perf-stat-a.txt'));
    expect(a.command).toBeUndefined();
    expect(a.facts.perf_target).toBe('system wide');
    expect(val(a, 'cpu_clock_seconds')).toBe(1.00309);
    expect(val(a, 'counter_value', { event: 'context-switches' })).toBe(31337);
    const per = parseText(read('perf-stat-a-A.txt'));
    expect(val(per, 'counter_value', { event: 'context-switches', cpu: '0' })).toBe(9094);
    expect(val(per, 'counter_value', { event: 'task-clock', cpu: '1' })).toBe(0.30253);
    const en = parseText(read('perf-stat-B-en_US.txt'));
    expect(val(en, 'counter_value', { event: 'context-switches' })).toBe(16315);
    expect(val(en, 'counter_per_second', { event: 'cpu-migrations' })).toBe(1367);
    const de = parseText(read('perf-stat-de_DE.txt'));
    expect(de.warnings).toEqual([]);
    expect(val(de, 'cpu_clock_seconds')).toBe(0.6036);
    expect(val(de, 'counter_value', { event: 'context-switches' })).toBe(18309);
    expect(val(de, 'counter_value', { event: 'cpu-migrations' })).toBe(1015);
    expect(val(de, 'cpus_utilized', { event: 'cpu-clock' })).toBe(2);
    expect(val(de, 'elapsed_seconds')).toBe(0.301784608);
  });

  it('reads --per-thread (comm-tid prefixes, spaces in comm) and --per-core (S0-D0-C0 + cpu count)', () => {
    const t = parseText(read('perf-stat-per-thread.txt'));
    expect(t.kind).toBe('perf-stat');
    expect(t.warnings).toEqual([]);
    expect(val(t, 'counter_value', { event: 'task-clock', thread: 'chromium-20474' })).toBe(0.16098);
    expect(val(t, 'counter_value', { event: 'context-switches', thread: 'npm exec tsc -p-20223' })).toBe(1);
    const c = parseText(read('perf-stat-per-core.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'counter_value', { event: 'context-switches', aggregate: 'S0-D0-C1' })).toBe(429);
    expect(val(c, 'counter_value', { event: 'task-clock', aggregate: 'S0-D0-C0' })).toBe(0.20174);
  });

  it('reads -x, with -I and -A (interval and CPU columns)', () => {
    const c = parseText(read('perf-stat-x-I-A.txt'));
    expect(c.kind).toBe('perf-stat');
    expect(c.warnings).toEqual([]);
    expect(c.series.find((s) => s.labels?.event === 'context-switches' && s.labels.cpu === '1')!.values).toEqual([1933, 1054]);
    expect(val(c, 'counter_value', { event: 'task-clock', cpu: '0' })).toBe(0.31709);
  });

  it('reads -I interval output as series', () => {
    const c = parseText(read('perf-stat-I300-a.txt'));
    expect(c.kind).toBe('perf-stat');
    expect(c.warnings).toEqual([]);
    const cs = c.series.find((s) => s.labels?.event === 'context-switches')!;
    expect(cs.name).toBe('counter_value');
    expect(cs.values).toEqual([13940, 13334, 15083, 5112]);
    expect(c.series.find((s) => s.labels?.event === 'task-clock')!.values).toEqual([0.6012, 0.60133, 0.60063, 0.20694]);
    expect(val(c, 'counter_value', { event: 'context-switches' })).toBe(13940 + 13334 + 15083 + 5112);
  });

  it('reads -x, CSV and -j JSON lines', () => {
    const x = parseText(read('perf-stat-x-csv.txt'));
    expect(x.kind).toBe('perf-stat');
    expect(x.confidence).toBeGreaterThanOrEqual(0.7);
    expect(x.warnings).toEqual([]);
    expect(val(x, 'task_clock_seconds')).toBe(0.00098);
    expect(val(x, 'counter_value', { event: 'context-switches' })).toBe(1);
    expect(val(x, 'cpus_utilized', { event: 'task-clock' })).toBe(0.533);
    expect(x.facts.perf_events_not_counted).toEqual(['cycles <not supported>']);
    const j = parseText(read('perf-stat-j.txt'));
    expect(j.kind).toBe('perf-stat');
    expect(j.warnings).toEqual([]);
    expect(val(j, 'task_clock_seconds')).toBe(0.013339947);
    expect(val(j, 'counter_value', { event: 'page-faults' })).toBe(204);
    expect(val(j, 'counter_per_second', { event: 'page-faults' })).toBe(15292.415);
  });

  it('reads tracepoint counters and survives a prompt, CRLF and junk', () => {
    const c = parseText(['root@vm:~# perf stat -e sched:sched_switch ls', ...read('perf-stat-tracepoints.txt').split('\n'), '%%%'].join('\r\n'));
    expect(c.kind).toBe('perf-stat');
    expect(c.command).toBe("perf stat -e sched:sched_switch ls");
    expect(val(c, 'counter_value', { event: 'syscalls:sys_enter_newfstatat' })).toBe(23);
    expect(c.warnings).toEqual(['line 15: could not read "%%%"']);
    // program output between perf's lines is not a counter
    const withOutput = parseText('42 files found\n' + read('perf-stat-default.txt'));
    expect(withOutput.warnings).toEqual(['line 1: could not read "42 files found"']);
    expect(withOutput.metrics.some((m) => m.labels?.event === 'files')).toBe(false);
  });

  it('reads a decimal-comma -I capture whose first values are ambiguous ("18.309" before "603,60")', () => {
    const c = parseText([
      '#           time             counts unit events',
      '     1.001234567             18.309      context-switches                 #   30,333 K/sec',
      '     1.001234567             603,60 msec cpu-clock                        #    0,603 CPUs utilized',
      '     2.002345678              1.015      context-switches                 #    1,682 K/sec',
      '     2.002345678             601,20 msec cpu-clock                        #    0,601 CPUs utilized',
    ].join('\n'));
    expect(c.warnings).toEqual([]);
    expect(c.series.find((s) => s.labels?.event === 'context-switches')!.values).toEqual([18309, 1015]);
    expect(c.series.find((s) => s.labels?.event === 'cpu-clock')!.values).toEqual([0.6036, 0.6012]);
    expect(val(c, 'counter_value', { event: 'context-switches' })).toBe(19324);
  });

  it('holds at most a bounded number of readings while the locale is unknown, then assumes a decimal point (and says so if a comma shows later)', () => {
    const ambiguous = Array.from({ length: 5000 }, (_, i) => `     ${(i + 1).toFixed(9)}             18.309      context-switches`);
    const c = parseText(['#           time             counts unit events', ...ambiguous, '  5001.000000000             603,60 msec cpu-clock'].join('\n'));
    expect(c.warnings).toEqual(['decimal comma first seen in "603,60": earlier values were read with a decimal point']);
    expect(c.series.find((s) => s.labels?.event === 'context-switches')!.values[0]).toBe(18.309);
    expect(c.series.find((s) => s.labels?.event === 'cpu-clock')!.values[5000]).toBe(0.6036);
  });

  it('keeps memory bounded on a long -I capture: 70,004 intervals (perf-stat-I300-a repeated) → thinned series, exact totals, capped table', () => {
    // the fixture's 4 intervals × 3 events, repeated with the timestamp advanced 1.2 s per repetition
    const lines = read('perf-stat-I300-a.txt').split('\n');
    const block = lines.filter((l) => /^\s+\d+\.\d{9}\s/.test(l));
    expect(block).toHaveLength(12);
    const reps = 17_501;
    const intervals = reps * 4;
    // every value generated, per event, in order: task-clock in hundredths of a msec (exact integers), counts as printed
    const all = new Map<string, number[]>();
    const s = new CaptureStream();
    s.write(lines[0] + '\n');
    let chunk: string[] = [];
    for (let k = 0; k < reps; k++) {
      for (const l of block) {
        const line = l.replace(/^(\s*)(\d+\.\d{9})/, (_m, sp: string, ts: string) => (Number(ts) + k * 1.2).toFixed(9).padStart(sp.length + ts.length));
        chunk.push(line);
        const m = /^\s*\S+\s+([\d.]+)\s+(?:msec\s+)?(\S+)/.exec(line)!;
        const event = m[2]!;
        if (!all.has(event)) all.set(event, []);
        all.get(event)!.push(event === 'task-clock' ? Math.round(Number(m[1]) * 100) : Number(m[1]));
      }
      if (chunk.length >= 12_000) { s.write(chunk.join('\n') + '\n'); chunk = []; }
    }
    s.write(chunk.join('\n') + '\n');
    const c = s.end();
    expect(c.kind).toBe('perf-stat');
    expect([...all.keys()]).toEqual(['task-clock', 'context-switches', 'page-faults']);
    const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);
    const taskClock = all.get('task-clock')!.map((x) => x / 1e5); // hundredths of a msec → seconds
    for (const [event, values] of [['task-clock', taskClock], ['context-switches', all.get('context-switches')!], ['page-faults', all.get('page-faults')!]] as const) {
      expect(values).toHaveLength(intervals);
      const sr = c.series.find((x) => x.labels?.event === event)!;
      expect(sr.values.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
      expect(sr.stride).toBeGreaterThan(1);
      // kept points are samples 0, stride, 2·stride … of the full sequence
      expect(sr.values).toEqual(Array.from({ length: sr.values.length }, (_, j) => values[j * sr.stride!]));
      // the summary is that of the un-thinned series
      const full: Series = { name: sr.name, column: sr.column, unit: sr.unit, labels: sr.labels, values: [...values] };
      const summary = summarizeSeries(sr);
      expect(summary.count).toBe(intervals);
      expect(summary).toEqual(summarizeSeries(full));
    }
    // totals: exact sums of what was generated
    expect(val(c, 'counter_value', { event: 'context-switches' })).toBe(sum(all.get('context-switches')!));
    expect(val(c, 'counter_value', { event: 'context-switches' })).toBe(reps * (13940 + 13334 + 15083 + 5112));
    expect(val(c, 'counter_value', { event: 'page-faults' })).toBe(sum(all.get('page-faults')!));
    const taskSeconds = sum(all.get('task-clock')!) / 1e5;
    expect(val(c, 'counter_value', { event: 'task-clock' })).toBe(taskSeconds);
    expect(val(c, 'task_clock_seconds')).toBe(val(c, 'counter_value', { event: 'task-clock' }));
    // the counters table keeps the first 200,000 readings and says how many more there were
    const rows = c.tables!.counters!.rows;
    expect(rows).toHaveLength(200_000);
    expect(rows[1]).toEqual([0.300418741, null, 'context-switches', 13940, null, 23.187, 'K/sec', null, null, 3]);
    expect(c.warnings).toEqual([`${intervals * 3 - 200_000} counter readings beyond 200000 were not kept in the counters table (metrics and series include them)`]);
  });
});
