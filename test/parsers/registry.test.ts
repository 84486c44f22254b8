import { describe, expect, it } from 'vitest';
import { CaptureStream, detect, MAX_LINE, parseText } from '../../shared/capture/registry';
import { cleanLine, commandWord, hasControlChar, num, promptCommand } from '../../shared/capture/text';
import { summarizeSeries } from '../../shared/capture/series';

describe('capture registry', () => {
  it('keeps unknown text as a text capture with a warning', () => {
    const c = parseText('hello\nworld\n');
    expect(c.kind).toBe('text');
    expect(c.metrics).toEqual([]);
    expect(c.warnings[0]).toMatch(/not a capture Tunebook recognizes.*2 lines/);
    expect(detect(['just', 'words']).kind).toBe('text');
  });

  it('refuses an unknown forced kind with the list of known ones', () => {
    expect(() => new CaptureStream({ kind: 'nonsense' })).toThrow(/unknown capture kind "nonsense" \(known: text, /);
  });

  it('splits lines at LF, CRLF and lone CR, across chunk boundaries', () => {
    const seen: string[] = [];
    const s = new CaptureStream({ kind: 'text' });
    // peek at lines through a forced parser is not possible; count lines via the warning instead
    for (const chunk of ['a\r', '\nb\rc', '\r\n', 'd']) s.write(chunk);
    const c = s.end();
    seen.push(...c.warnings);
    expect(seen[0]).toMatch(/\(4 lines\)/);
  });

  it('cuts overlong lines and says so', () => {
    const c = parseText('x'.repeat(MAX_LINE + 10), { kind: 'text' });
    expect(c.warnings.some((w) => /overlong lines were cut/.test(w))).toBe(true);
  });
});

describe('text helpers', () => {
  it('strip ANSI colour codes and control characters', () => {
    expect(cleanLine('\x1b[1;31m2197\x1b[0m IOPS\x07')).toBe('2197 IOPS');
    expect(cleanLine('tab\tkept')).toBe('tab\tkept');
  });

  it('tell a control character by every UTF-16 code unit: below U+0020 but tab, \\n and \\r, and DEL', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const control = (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f;
      const ch = String.fromCharCode(c);
      if (hasControlChar(ch) !== control || hasControlChar('plain text ' + ch + ' more') !== control) throw new Error(`U+${c.toString(16)}: ${!control}`);
      // the characters it finds are the ones cleanLine removes (lines never hold \n or \r)
      if (c !== 10 && c !== 13 && (cleanLine('a' + ch + 'b') === 'ab') !== control) throw new Error(`cleanLine U+${c.toString(16)}`);
    }
    expect(hasControlChar('')).toBe(false);
    expect(hasControlChar('\u{1F600} emoji, é, tab\t, \r\n')).toBe(false);
  });

  it('find the command after a shell prompt', () => {
    expect(promptCommand('[root@7DGroup ~]# fio -filename=/x -rw=randwrite')).toBe('fio -filename=/x -rw=randwrite');
    expect(promptCommand('user@host:~/src$ iostat -x 1', ['iostat'])).toBe('iostat -x 1');
    expect(promptCommand('[~@7DGroup ~]$ iostat -x -d 1', ['vmstat'])).toBeUndefined();
    expect(promptCommand('$ sudo watch -d -n 1 cat /proc/interrupts')).toBe('sudo watch -d -n 1 cat /proc/interrupts');
    expect(promptCommand('load > 5 means trouble')).toBeUndefined();
    expect(commandWord('sudo LANG=C watch -d -n 1 cat /proc/interrupts')).toBe('cat');
    expect(commandWord('/usr/bin/ab -n 10 http://x/')).toBe('ab');
  });

  it('read numbers as tools print them', () => {
    expect(num('12,50')).toBe(12.5);
    expect(num('1,234,567')).toBe(1234567);
    expect(num('abc')).toBeNaN();
    // a number too long for a double is unreadable, not Infinity
    expect(num('9'.repeat(400))).toBeNaN();
    expect(num('-1e999')).toBeNaN();
    expect(num('1e308')).toBe(1e308);
  });

  it('summarize series without the since-boot sample', () => {
    const s = summarizeSeries({ name: 'writes_per_second', column: 'w/s', unit: '1/s', values: [5000, 1, 3], firstSampleSinceBoot: true });
    expect(s).toMatchObject({ count: 3, min: 1, max: 3, mean: 2, last: 3, firstSampleSinceBoot: true });
  });
});

describe('text helpers stay linear on hostile input', () => {
  it('num does not backtrack on long digit runs', () => {
    const started = Date.now();
    expect(num('1'.repeat(200_000) + 'x')).toBeNaN();
    // catastrophic backtracking takes minutes here; linear scanning takes milliseconds
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(num('.5')).toBe(0.5);
    expect(num('5.')).toBe(5);
  });
});

describe('every parse shows finite numbers (found by fuzzing)', () => {
  const HUGE = '9'.repeat(400);
  /** real captures with one number made too long for a double, or garbled: each used to give Infinity or NaN */
  const cases: [kind: string, text: string][] = [
    ['proc-interrupts', `           CPU0       CPU1\n 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n 25:          ${HUGE}          1  IO-APIC   6-edge      ACPI:Ged`],
    ['perf-stat', `\n Performance counter stats for 'system wide':\n\n            ${HUGE} msec cpu-clock                        #    2.000 CPUs utilized\n`],
    ['sar', `Linux 6.18.44-fc-v657 (vm) \t11/29/2026 \t_x86_64_\t(2 CPU)\n\n10:46:54 PM     CPU     %user     %nice   %system   %iowait    %steal     %idle\n10:46:55 PM     all     ${HUGE}      0.00     69.31      0.00      0.00     20.00`],
    ['hey', `\nSummary:\n  Total:\t2.0007 secs\n  Slowest:\t0.0096 secs\n  Fastest:\t0.0000 secs\n  Average:\t0.0003 secs\n  Requests/sec:\t28510.1599\n\nResponse time histogram:\n  ${HUGE} [1]\t|\n  0.001 [5]\t|■\n`],
    ['ab', 'Server Software:        nginx/1.22.1\nServer Hostname:        127.0.0.1\nServer Port: \uFFFD           18080\n\nDocument Path:          /err500\nDocument Length:        5 bytes\n'],
    ['tune2fs', 'Inode count:\uFFFD              16384\nBlock count:              65536\n'],
  ];
  for (const [kind, text] of cases) {
    it(kind, () => {
      const c = parseText(text, { kind });
      const bad: string[] = [];
      const walk = (v: unknown, at: string): void => {
        if (typeof v === 'number' && !Number.isFinite(v)) bad.push(at);
        else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
        else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
      };
      walk(c.metrics, 'metrics');
      walk(c.facts, 'facts');
      walk(c.tables, 'tables');
      c.series.forEach((s) => s.values.forEach((v, i) => { if (v === Infinity || v === -Infinity) bad.push(`series ${s.name}[${i}]`); }));
      expect(bad).toEqual([]);
      expect(c.warnings.join('\n')).toMatch(/not readable as finite numbers .* left out: (metric|series|fact|table) /);
    });
  }
});
