import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { callName, duration } from '../../shared/capture/parsers/trace/straceLog';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'strace-log');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

// Expected totals were counted independently (a separate script over the same files): calls = lines with a result,
// exit/exit_group "= ?" left out as strace -c does; errors = results with an errno.
const TOTALS: [string, number, number, number | undefined][] = [
  ['strace-f-tt-T.txt', 668, 107, 0.24553],
  ['strace-f-tt-T-stderr.txt', 668, 107, 0.232749],
  ['strace-ttt-T-y.txt', 155, 25, 0.008914],
  ['strace-r.txt', 151, 25, undefined],
  ['strace-plain.txt', 118, 13, undefined],
  ['strace-ff-o-tail.txt', 223, 35, 0.011777],
  // 671: the thread's "<... exit resumed>) = ?" is not a returned call either
  ['strace-f-t-s200.txt', 671, 88, undefined],
  // -k stack frames (" > …") under each call, -i "[ip]" and -n "[ nr]" prefixes; 30 results less exit_group
  ['strace-k-i-n.txt', 29, 1, undefined],
];

describe('strace-log parser', () => {
  for (const [file, calls, errors, seconds] of TOTALS) {
    it(`counts calls, errors and -T time in ${file}`, () => {
      const c = parseText(read(file));
      expect(c.kind).toBe('strace-log');
      expect(c.confidence).toBeGreaterThanOrEqual(0.9);
      expect(c.warnings).toEqual([]);
      expect(val(c, 'syscall_calls_total')).toBe(calls);
      expect(val(c, 'syscall_errors_total')).toBe(errors);
      expect(val(c, 'syscall_seconds_total')).toBe(seconds);
    });
  }

  it('reads strace -f -tt -T -o: per syscall, per pid, errno, signals, exits', () => {
    const c = parseText(read('strace-f-tt-T.txt'));
    expect(val(c, 'syscall_calls_total', { syscall: 'newfstatat' })).toBe(111);
    expect(val(c, 'syscall_errors_total', { syscall: 'newfstatat' })).toBe(24);
    expect(val(c, 'syscall_errno_total', { syscall: 'newfstatat', errno: 'ENOENT' })).toBe(24);
    expect(val(c, 'syscall_errno_total', { syscall: 'wait4', errno: 'ECHILD' })).toBe(4);
    // vfork: "<unfinished ...>" + "<... vfork resumed>" is one call, timed on the resumed line
    expect(val(c, 'syscall_calls_total', { syscall: 'vfork' })).toBe(3);
    expect(val(c, 'signals_total', { signal: 'SIGCHLD' })).toBe(4);
    expect(val(c, 'processes_total')).toBe(5);
    expect(val(c, 'trace_duration_seconds')).toBe(0.137815);
    expect(c.tables!.pids!.rows.map((r) => r[0]).sort()).toEqual(['13298', '13299', '13300', '13301', '13302']);
    expect(c.tables!.exits!.rows[0]).toEqual(['13299', 2, null, 223]);
    expect(c.findings).toEqual([]);
  });

  it('joins a call cut by "strace: Process N attached" (no -o: [pid N] prefixes)', () => {
    const c = parseText(read('strace-f-tt-T-stderr.txt'));
    expect(val(c, 'syscall_calls_total', { syscall: 'clone' })).toBe(1);
    expect(val(c, 'syscall_seconds_total', { syscall: 'clone' })).toBe(0.000129);
    expect(val(c, 'syscall_calls_total', { syscall: 'vfork' })).toBe(3);
    expect(c.tables!.pids!.rows.some((r) => r[0] === '-')).toBe(true); // the first process has no prefix
  });

  it('reads the pid from "==> trace.PID <==" headers of concatenated -ff files', () => {
    const c = parseText(read('strace-ff-o-tail.txt'));
    expect(c.tables!.pids!.rows.map((r) => r[0]).sort()).toEqual(['14449', '14450']);
  });

  it('keeps strings with quotes, escapes and " = " intact (-s 200, threads)', () => {
    const c = parseText(read('strace-f-t-s200.txt'));
    expect(val(c, 'syscall_errno_total', { syscall: 'newfstatat', errno: 'ENOENT' })).toBe(48);
    expect(val(c, 'processes_total')).toBe(2);
    expect(c.metrics.some((m) => m.name === 'trace_duration_seconds')).toBe(false); // -t has whole seconds only
  });

  it('reads -r relative and -ttt epoch timestamps', () => {
    expect(val(parseText(read('strace-r.txt')), 'trace_duration_seconds')).toBe(0.00465);
    expect(val(parseText(read('strace-ttt-T-y.txt')), 'trace_duration_seconds')).toBe(0.022905);
  });

  it('reads a -C log with its summary; program output lines are warned about', () => {
    const c = parseText(readFileSync(path.join(DIR, '..', 'strace-summary', 'strace-C-f.txt'), 'utf8'), { kind: 'strace-log' });
    // the execve line is split by the program's own output ("hi"), so one call fewer than strace -c's 216
    expect(val(c, 'syscall_calls_total')).toBe(215);
    expect(val(c, 'syscall_errors_total')).toBe(35);
    expect(c.tables!.summary!.rows.at(-1)!.slice(0, 3)).toEqual(['total', 216, 35]);
    expect(c.warnings).toEqual([
      'line 1: could not read "ls: cannot access \'/nonexistent\': No such file or directory"',
      'line 2: could not read "hi"',
      'line 3: could not read "hi"], 0x7fffad6346f0 /* 39 vars */) = 0"',
    ]);
  });

  it('survives CRLF, a prompt and a cut last line', () => {
    const lines = read('strace-f-tt-T.txt').split('\n').slice(0, 40);
    lines[39] = lines[39]!.slice(0, 30);
    const c = parseText(['# strace -f -tt -T -o /tmp/x sh -c true', ...lines].join('\r\n'));
    expect(c.kind).toBe('strace-log');
    expect(c.command).toBe('strace -f -tt -T -o /tmp/x sh -c true');
    expect(val(c, 'syscall_calls_total')).toBe(39);
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/^line 41: could not read "13298 22:47:16\.\d+ \w+"$/);
  });

  it('flags a stat storm from the log', () => {
    const body = read('strace-f-t-s200.txt').split('\n').filter((l) => l.includes('nope') || l.includes('newfstatat'));
    const c = parseText(body.join('\n'), { kind: 'strace-log' });
    expect(c.findings.map((f) => f.id)).toEqual(['syscall.stat-storm']);
    expect(c.findings[0]!.message).toMatch(/ENOENT/);
  });

  it('reads call names and -T times as the regexes they replace, on random text', () => {
    // the alphabet of the places they read, and what could fool them (Unicode spaces, a second dot)
    const alphabet = ['a', 'z', '_', '0', '9', '(', ')', '<', '>', '.', ' ', '\t', '\u00a0', '\u2028', '\ufeff', 'E', '=', '-', 'x'];
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
    const samples = ['read(3, "x", 1) = 1 <0.000012>', 'read(3', '= 0 <12.5>  ', '= 0 <1.2.3>', '= 0 <.5>', '= 0 <5.>', '= 0 <0.1>x', '<0.1>\u00a0', 'A(', '_x9(', '9a('];
    for (let k = 0; k < 20_000; k++) samples.push(Array.from({ length: 1 + rnd(14) }, () => alphabet[rnd(alphabet.length)]).join(''));
    for (const s of samples) {
      expect(callName(s), JSON.stringify(s)).toBe(/^([a-z_][a-z0-9_]*)\(/.exec(s)?.[1] ?? null);
      const m = /<(\d+\.\d+)>\s*$/.exec(s);
      expect(duration(s), JSON.stringify(s)).toBe(m ? Number(m[1]) : NaN);
    }
  });
});
