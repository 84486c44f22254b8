/**
 * A capture's context (shared/capture/context.ts): the commands parsers declare, a command told
 * from outside the text (free -m, vmstat -S M) read as a prompt line would be, and series put on
 * the clock a capture kit's manifest gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alignSeries, intervalOf, runSummary } from '../../shared/capture/context';
import { PARSERS, parseText, parserForCommand } from '../../shared/capture/registry';
import type { Series } from '../../shared/capture/types';

const CAPTURES = path.join(__dirname, '..', 'fixtures', 'captures');
const fixture = (kind: string, file: string) => readFileSync(path.join(CAPTURES, kind, file), 'utf8');

describe('the commands parsers declare', () => {
  it.each([
    ['free -m', 'free'], ['sudo /usr/bin/iostat -xz 1', 'iostat'], ['LC_ALL=C vmstat -S M 1 10', 'vmstat'],
    ['mpstat -P ALL 1', 'mpstat'], ['pidstat -urd 1', 'pidstat'], ['sar -n DEV 1', 'sar'], ['top -b -d 1', 'top'],
    ['cat /proc/interrupts', 'proc-interrupts'], ['watch -d -n 1 cat /proc/interrupts', 'proc-interrupts'],
    ['cat /proc/meminfo', 'proc-meminfo'], ['cat /proc/cpuinfo', 'proc-cpuinfo'], ['cat /etc/os-release', 'os-release'],
    ['cat /proc/self/limits', 'ulimit'], ['ulimit -a', 'ulimit'], ['sysctl -a', 'sysctl'], ['cat /etc/sysctl.d/99-net.conf', 'sysctl'],
    ['cat /etc/php/8.2/fpm/php.ini', 'ini'], ['strace -f -tt -p 42', 'strace-log'], ['strace -c -p 42', 'strace-summary'],
    ['strace -fc ls', 'strace-summary'], ['perf stat -a sleep 1', 'perf-stat'], ['perf script', 'perf-script'],
    ['sadf -d /var/log/sysstat/sa01 -- -n DEV', 'sadf-csv'], ['sadf -j', 'sadf-json'], ['fio --name=x --rw=randwrite', 'fio'],
    ['lsblk -J', 'lsblk'], ['fdisk -l', 'fdisk'], ['tune2fs -l /dev/vda', 'tune2fs'], ['uname -a', 'uname'], ['uptime', 'uptime'],
    ['ss -s', 'ss'], ['netstat -i', 'netstat'],
    ['ab -n 2000 -c 10 http://127.0.0.1:18080/index.html', 'ab'], ['ab2 -k -n 100 http://127.0.0.1/', 'ab'],
    ['wrk -t2 -c20 -d10s --latency http://127.0.0.1/', 'wrk'], ['wrk2 -t2 -c20 -d10s -R 1000 http://127.0.0.1/', 'wrk'],
    ['hey -n 200 -c 10 http://127.0.0.1/', 'hey'], ['locust --headless -u 10 -r 2 -t 30s -f locustfile.py', 'locust'],
    ['python3 -m locust --headless -f locustfile.py', 'locust'], ['python -u -m locust -f locustfile.py', 'locust'],
    ['sysbench cpu --threads=4 run', 'sysbench'], ['sudo sysbench oltp_read_write --mysql-db=sbtest run', 'sysbench'],
    ['redis-benchmark -q -n 10000', 'redis-benchmark'],
  ])('%s → %s', (cmd, kind) => {
    expect(parserForCommand(cmd)?.id).toBe(kind);
  });

  it('knows nothing of programs no parser reads', () => {
    expect(parserForCommand('cat /etc/hostname')).toBeUndefined();
    expect(parserForCommand('ls -l')).toBeUndefined();
    // python runs locust only as its module: not a script, nor another module
    expect(parserForCommand('python3 locustfile.py')).toBeUndefined();
    expect(parserForCommand('python3 -m http.server 8080')).toBeUndefined();
    expect(parserForCommand('python3 run.py -m locust')).toBeUndefined();
    expect(parserForCommand('')).toBeUndefined();
  });

  it('every declared program is claimed without an argument pattern by at most one parser', () => {
    const plain = new Map<string, string[]>();
    for (const p of PARSERS) for (const c of p.commands ?? []) if (!c.args) plain.set(c.program, [...(plain.get(c.program) ?? []), p.id]);
    for (const [program, ids] of plain) expect({ program, ids }).toEqual({ program, ids: ids.slice(0, 1) });
  });
});

describe('a command told from outside the text', () => {
  const freeM = '               total        used        free      shared  buff/cache   available\n'
    + 'Mem:           24105        1184       20299          34        2989       22920\n'
    + 'Swap:              0           0           0\n';

  it('free -m: MiB without guessing, and no detection needed', () => {
    const told = parseText(freeM, { context: { command: 'free -m' } });
    expect(told.kind).toBe('free');
    expect(told.command).toBe('free -m');
    expect(told.metrics.find((m) => m.name === 'memory_total_bytes')?.value).toBe(24105 * 2 ** 20);
    expect(told.warnings).toEqual([]);
    // told `free -g`, the same numbers are GiB: the command decides, as a prompt line would
    const g = parseText(freeM, { context: { command: 'free -g' } });
    expect(g.metrics.find((m) => m.name === 'memory_total_bytes')?.value).toBe(24105 * 2 ** 30);
    const prompt = parseText(`$ free -g\n${freeM}`);
    expect(prompt.metrics.find((m) => m.name === 'memory_total_bytes')?.value).toBe(24105 * 2 ** 30);
  });

  it('vmstat -S M: memory columns in MiB; a command of a program no parser reads leaves detection to the content', () => {
    const text = fixture('vmstat', 'plain-1-3.txt');
    const kib = parseText(text, { context: { command: 'vmstat 1' } });
    const mib = parseText(text, { context: { command: 'vmstat -S M 1' } });
    const free = (c: typeof kib) => c.series.find((s) => s.column === 'free')!.values[1]!;
    expect(free(mib)).toBe(free(kib) * 1024);
    const other = parseText(text, { context: { command: 'cat vmstat.log' } });
    expect(other.kind).toBe('vmstat');
    expect(other.command).toBe('cat vmstat.log');
  });

  it('an empty output of a told command is read by its parser and says it found nothing', () => {
    const c = parseText('', { context: { command: 'fdisk -l' } });
    expect(c.kind).toBe('fdisk');
    expect(c.warnings.join(' ')).toMatch(/found nothing/);
  });
});

describe('the clock', () => {
  it('reads the interval of a monitor command', () => {
    expect(intervalOf('vmstat 1')).toBe(1);
    expect(intervalOf('vmstat -S M 5 10')).toBe(5);
    expect(intervalOf('iostat -xz 2')).toBe(2);
    expect(intervalOf('mpstat -P 0 1')).toBe(1);
    expect(intervalOf('mpstat -P ALL 1 60')).toBe(1);
    expect(intervalOf('sar -n TCP,ETCP 1')).toBe(1);
    expect(intervalOf('top -b -d 1')).toBe(1);
    expect(intervalOf('top -b -d2 -n 5')).toBe(2);
    expect(intervalOf('top -bn1')).toBe(3);
    expect(intervalOf('vmstat')).toBeUndefined();
    expect(intervalOf('iostat -x')).toBeUndefined();
  });

  const series = (values: number[], times?: number[]): Series => ({ name: 'x', column: 'x', unit: '%', values, ...(times ? { times } : {}) });

  it('gives series without times one sample per interval from the start, and thinned series their stride', () => {
    const started = Date.UTC(2026, 11, 1, 0, 31, 50);
    const plain = series([1, 2, 3]);
    const thinned = { ...series([1, 2]), stride: 4 };
    expect(alignSeries([plain, thinned], { command: 'vmstat 2', started })).toEqual({ offsetMs: 0, clocked: 2 });
    expect(plain.times).toEqual([started, started + 2000, started + 4000]);
    expect(thinned.times).toEqual([started, started + 8000]);
    const none = series([1]);
    alignSeries([none], { command: 'vmstat', started });
    expect(none.times).toBeUndefined();
  });

  it('moves times of day read as UTC by the server\'s offset, found from the start (UTC+8, UTC−3:30)', () => {
    const started = Date.UTC(2026, 11, 1, 0, 31, 50);
    const east = series([1, 2], [started + 8 * 3_600_000 + 1000, started + 8 * 3_600_000 + 2000]);
    expect(alignSeries([east], { command: 'sar 1', started }).offsetMs).toBe(8 * 3_600_000);
    expect(east.times).toEqual([started + 1000, started + 2000]);
    const west = series([1], [started - 3.5 * 3_600_000 + 1000]);
    alignSeries([west], { command: 'sar 1', started });
    expect(west.times).toEqual([started + 1000]);
    // the same zone: left as it is
    const utc = series([1], [started + 1000]);
    expect(alignSeries([utc], { started }).offsetMs).toBe(0);
  });

  it('summarizes a series over the run only, leaving out a since-boot first sample', () => {
    const t0 = 1_000_000;
    const s = { values: [90, 10, 50, 70, 20], times: [t0, t0 + 1000, t0 + 2000, t0 + 3000, t0 + 4000], firstSampleSinceBoot: true };
    expect(runSummary(s, { command: 'ab', started: t0, ended: t0 + 3000 })).toEqual({ count: 3, min: 10, mean: 43.333333, max: 70 });
    expect(runSummary({ values: [1] }, { command: 'ab', started: 0, ended: 1 })).toBeUndefined();
  });
});

describe('settings told their command from outside the text', () => {
  it('sysctl -n KEY…: the values are those keys', () => {
    const c = parseText('4096\n2\n', { context: { command: 'sysctl -n net.core.somaxconn net.ipv4.tcp_tw_reuse' } });
    expect(c.kind).toBe('sysctl');
    expect(c.settings).toEqual({ 'net.core.somaxconn': '4096', 'net.ipv4.tcp_tw_reuse': '2' });
    expect(c.warnings).toEqual([]);
  });

  it('ulimit -n and ulimit -Hn: the lone value is the open-files limit, soft or hard', () => {
    expect(parseText('20000\n', { context: { command: 'ulimit -n' } }).settings).toEqual({ nofile: '20000' });
    expect(parseText('524288\n', { context: { command: 'ulimit -Hn' } }).settings).toEqual({ 'nofile.hard': '524288' });
  });
});

describe('load generators told their command from outside the text', () => {
  it('ab: -n, -c and -t are read as from a prompt line (the kit runs ab with no prompt in its output)', () => {
    const text = fixture('ab', 'plain.txt');
    const told = parseText(text, { context: { command: 'ab -t 4 -n 2000 -c 10 http://127.0.0.1:18080/index.html' } });
    const prompt = parseText(`$ ab -t 4 -n 2000 -c 10 http://127.0.0.1:18080/index.html\n${text}`);
    expect(told.kind).toBe('ab');
    expect(told.facts.time_limit_seconds).toBe(4);
    expect(told.facts).toEqual(prompt.facts);
    expect(told.metrics.map((m) => [m.name, m.value])).toEqual(prompt.metrics.map((m) => [m.name, m.value]));
  });

  it('sysbench: the test named on the command line', () => {
    const text = fixture('sysbench', 'cpu.txt');
    const told = parseText(text, { context: { command: 'sysbench cpu --threads=2 --time=2 run' } });
    const prompt = parseText(`$ sysbench cpu --threads=2 --time=2 run\n${text}`);
    expect(told.kind).toBe('sysbench');
    expect(told.command).toBe('sysbench cpu --threads=2 --time=2 run');
    expect(told.facts).toEqual(prompt.facts);
  });
});
