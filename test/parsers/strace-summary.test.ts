import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'strace-summary');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('strace-summary parser', () => {
  it('reads strace -c -f (strace 6.1): per syscall and total', () => {
    const c = parseText(read('strace-c-f-ls.txt'));
    expect(c.kind).toBe('strace-summary');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'syscall_calls_total', { syscall: 'getdents64' })).toBe(2189);
    expect(val(c, 'syscall_seconds_total', { syscall: 'getdents64' })).toBe(0.033089);
    expect(val(c, 'syscall_time_percent', { syscall: 'getdents64' })).toBe(54.03);
    expect(val(c, 'syscall_errors_total', { syscall: 'getdents64' })).toBe(0); // blank errors column
    expect(val(c, 'syscall_calls_total', { syscall: 'openat' })).toBe(1127);
    expect(val(c, 'syscall_errors_total', { syscall: 'openat' })).toBe(12);
    expect(val(c, 'syscall_errors_total', { syscall: 'access' })).toBe(2);
    expect(val(c, 'syscall_calls_total')).toBe(6742);
    expect(val(c, 'syscall_errors_total')).toBe(18);
    expect(val(c, 'syscall_seconds_total')).toBe(0.061247);
    const t = c.tables!.syscalls!;
    expect(t.rows.length).toBe(24);
    expect(t.rows[1]).toEqual(['openat', 1127, 12, 0.013414, 21.9, 11, null, null, null]);
    expect(t.rows[23]![0]).toBe('total');
    expect(c.metrics.find((m) => m.name === 'syscall_calls_total' && m.labels?.syscall === 'openat')!.lines).toEqual([4, 4]);
    // ls -R stats every file: a third of the calls, more than getdents64 — a mild (info) storm
    expect(c.findings.map((f) => [f.id, f.severity])).toEqual([['syscall.stat-storm', 'info']]);
    expect(c.findings[0]!.message).toMatch(/^33\.0 % of all system calls \(2225 of 6742\) are stat-like file checks \(newfstatat 1116, statx 1095, access 2, failed opens 12\); 14 of them failed\./);
  });

  it('reads -S calls and -w (wall clock) tables', () => {
    const s = parseText(read('strace-c-S-calls.txt'));
    expect(val(s, 'syscall_calls_total')).toBe(6742);
    expect(val(s, 'syscall_seconds_total')).toBe(0.041001);
    expect(val(s, 'syscall_seconds_total', { syscall: 'openat' })).toBe(0.009067);
    const w = parseText(read('strace-c-w.txt'));
    expect(val(w, 'syscall_seconds_total')).toBe(0.119185);
    expect(w.warnings).toEqual([]);
  });

  it('reads -U columns in another order (name first, shortest/longest)', () => {
    const c = parseText(read('strace-c-U-columns.txt'));
    expect(c.kind).toBe('strace-summary');
    expect(c.warnings).toEqual([]);
    expect(c.tables!.syscalls!.rows[0]).toEqual(['getdents64', 2189, 0, 0.010721, 41.63, 4, 0, 0.000358, null]);
    expect(val(c, 'syscall_errors_total', { syscall: 'openat' })).toBe(12);
    expect(val(c, 'syscall_calls_total')).toBe(6742);
  });

  it('reads the summary after a -C trace, ignoring trace lines and program output', () => {
    const c = parseText(read('strace-C-f.txt'));
    expect(c.kind).toBe('strace-summary');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'syscall_calls_total')).toBe(216);
    expect(val(c, 'syscall_errors_total')).toBe(35);
    expect(val(c, 'syscall_calls_total', { syscall: 'openat' })).toBe(41);
  });

  it('flags a stat storm (missing files checked over and over)', () => {
    const c = parseText(read('strace-c-f-python-stat-storm.txt'));
    expect(val(c, 'syscall_calls_total', { syscall: 'newfstatat' })).toBe(3204);
    expect(val(c, 'syscall_errors_total', { syscall: 'newfstatat' })).toBe(3038);
    expect(val(c, 'syscall_calls_total')).toBe(3591);
    const f = c.findings.find((x) => x.id === 'syscall.stat-storm')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/^89\.5 % of all system calls \(3213 of 3591\) are stat-like file checks \(newfstatat 3204, readlink 2, access 1, failed opens 6\); 3046 of them failed/);
    expect(f.message).toMatch(/opcache\.validate_timestamps=0/);
  });

  it('reads a decimal-comma table, a prompt and the personality header; warns on a broken row', () => {
    const lines = read('strace-c-f-ls.txt').split('\n');
    const text = [
      '$ strace -c -f ls -R /usr/share/doc',
      'System call usage summary for 32 bit mode:',
      ...lines.slice(0, 4).map((l) => l.replace(/(\d)\.(\d)/g, '$1,$2')),
      ' 21.90    0.013414',
      ...lines.slice(24),
    ].join('\r\n');
    const c = parseText(text);
    expect(c.kind).toBe('strace-summary');
    expect(c.command).toBe('strace -c -f ls -R /usr/share/doc');
    expect(val(c, 'syscall_seconds_total', { syscall: 'getdents64' })).toBe(0.033089);
    expect(c.tables!.syscalls!.rows[0]![8]).toBe('32 bit');
    expect(c.warnings).toEqual(['line 7: could not read summary row "21.90    0.013414"']);
  });

  it('does not claim a raw strace log', () => {
    expect(parseText('execve("/bin/true", ["true"], 0x7ffc /* 3 vars */) = 0\nbrk(NULL) = 0x1\nexit_group(0) = ?\n').kind).not.toBe('strace-summary');
  });
});
