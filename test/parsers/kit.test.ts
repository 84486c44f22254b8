/**
 * The parser kit (shared/capture/parsers/kit.ts): the one metric builder, lookup tables and text
 * records without a prototype, and the command a prompt line (or a bare command line) runs.
 */
import { describe, expect, it } from 'vitest';
import { commandLine, emptyOutput, headCommand, lookupTable, metric, textRecord } from '../../shared/capture/parsers/kit';

describe('metric', () => {
  it('takes labels, column and lines as options, in one key order', () => {
    const m = metric('requests_per_second', 12.5, '1/s', { lines: 7, column: 'Requests per second', labels: { run: '1' } });
    expect(m).toEqual({ name: 'requests_per_second', value: 12.5, unit: '1/s', labels: { run: '1' }, column: 'Requests per second', lines: [7, 7] });
    expect(Object.keys(m)).toEqual(['name', 'value', 'unit', 'labels', 'column', 'lines']);
  });

  it('takes a line range as it is, and leaves out empty labels and absent options', () => {
    const range = [3, 9] as const;
    expect(metric('x', 1, 'count', { lines: range }).lines).toBe(range);
    expect(metric('x', 1, 'count', { labels: {}, column: undefined, lines: undefined })).toEqual({ name: 'x', value: 1, unit: 'count' });
    expect(Object.keys(metric('x', 1, 'count'))).toEqual(['name', 'value', 'unit']);
  });
});

describe('lookup tables and text records', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

  it('a lookup table answers only its own keys, and cannot be changed', () => {
    const t = lookupTable({ 'reads/s': 'reads_per_second' });
    expect(t['reads/s']).toBe('reads_per_second');
    for (const n of names) expect(t[n]).toBeUndefined();
    expect(Object.isFrozen(t)).toBe(true);
    expect(() => { (t as Record<string, string>)['writes/s'] = 'x'; }).toThrow();
    expect(Object.keys(t)).toEqual(['reads/s']);
  });

  it('a text record keeps any key, __proto__ included, and has nothing it was not given', () => {
    const r = textRecord<string>();
    for (const n of names) expect(r[n]).toBeUndefined();
    for (const [k, v] of [['__proto__', 'x'], ['constructor', 'y']] as const) r[k] = v;
    expect(Object.keys(r)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(r))).toEqual({ ['__proto__']: 'x', constructor: 'y' });
    const o = emptyOutput();
    expect(o.settings.toString).toBeUndefined();
    expect(o.facts.constructor).toBeUndefined();
  });
});

describe('the command a line runs', () => {
  it('after a shell prompt, restricted to the tools given', () => {
    expect(commandLine('[root@h ~]# sysctl -a', ['sysctl'])).toBe('sysctl -a');
    expect(commandLine('user@host:~/src$ sudo iostat -x 1', ['iostat'])).toBe('sudo iostat -x 1');
    expect(commandLine('$ vmstat 1', ['iostat'])).toBeUndefined();
    expect(commandLine('$ cat /proc/interrupts')).toBe('cat /proc/interrupts');
  });

  it('bare, only when asked: as typed, with env assignments, sudo or a prompt word before it', () => {
    expect(commandLine('iostat -x 1', ['iostat'])).toBeUndefined();
    expect(commandLine('iostat -x 1', ['iostat'], { bare: true })).toBe('iostat -x 1');
    expect(commandLine('LC_ALL=C vmstat -S M 1', ['vmstat'], { bare: true })).toBe('LC_ALL=C vmstat -S M 1');
    expect(commandLine('host:~$ ab -n 10 http://x/', ['ab'], { bare: true })).toBe('ab -n 10 http://x/');
    expect(commandLine('iostat: cannot open /proc/diskstats', ['iostat'], { bare: true })).toBeUndefined();
    expect(commandLine('Device  r/s  w/s', ['iostat'], { bare: true })).toBeUndefined();
    expect(commandLine('sysctl ' + 'x'.repeat(500), ['sysctl'], { bare: true })).toBeUndefined();
  });

  it('in the first lines of a capture only', () => {
    expect(headCommand(['', '$ free -m', '  total used'], ['free'])).toBe('free -m');
    expect(headCommand(['a', 'b', 'c', 'd', 'e', '$ free -m'], ['free'])).toBeUndefined();
    expect(headCommand(['wrk -t2 -c20 http://x/'], ['wrk'])).toBeUndefined();
    expect(headCommand(['wrk -t2 -c20 http://x/'], ['wrk'], { bare: true })).toBe('wrk -t2 -c20 http://x/');
  });
});
