/**
 * The finding rules as data (shared/capture/parsers/<group>/rules.ts): the registry stamps each
 * finding with its rule's id, and every limit a rule judges by is a named field of the rule.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RULES, findingsOf, parseText } from '../../shared/capture/registry';
import type { FindingRule, ParsedCapture } from '../../shared/capture/types';

const fixture = (p: string) => readFileSync(path.join(__dirname, '..', 'fixtures', 'captures', p), 'utf8');

/** Real captures that set off rules, between them most of the rules there are. */
const TRIGGERING = [
  'ab/non2xx.txt',
  'fio/fio-randwrite-4k-qd64-j64.txt',
  'hey/errors.txt',
  'hey/mixed.txt',
  'ini/php-ini.txt',
  'iostat/iostat-x-d-1-during-randwrite.txt',
  'iostat/iostat-x-d-1-during-seqwrite.txt',
  'locust/console.txt',
  'netstat/netstat-s.txt',
  'proc-interrupts/interrupts-two-snapshots-sched-pipe.txt',
  'strace-summary/strace-c-f-python-stat-storm.txt',
  'sysbench/oltp-read-write.txt',
  'top/top-interactive-script-n4.txt',
  'vmstat/a-1-3.txt',
  'wrk/errors.txt',
  'wrk/non2xx.txt',
];

/** Rules that fire on any occurrence (a setting that is on, a counter above zero): no limit to name. */
const WITHOUT_THRESHOLDS = ['net.tcp-tw-recycle', 'net.listen-overflows', 'load.ab-failed-requests', 'load.non2xx'];

function rule(id: string, kind: string): FindingRule {
  const r = RULES.find((x) => x.id === id && x.kinds.includes(kind));
  if (!r) throw new Error(`no rule ${id} for ${kind}`);
  return r;
}

function capture(kind: string, over: Partial<ParsedCapture>): ParsedCapture {
  return { kind, confidence: 1, metrics: [], series: [], facts: {}, settings: {}, warnings: [], findings: [], ...over };
}

describe('finding ids', () => {
  it('are stamped by the registry: each finding carries the id of the rule that gave it', () => {
    const seen = new Set<string>();
    for (const file of TRIGGERING) {
      const c = parseText(fixture(file), { file: path.basename(file) });
      expect(c.findings.length, file).toBeGreaterThan(0);
      const expected = [];
      for (const r of RULES) {
        if (!r.kinds.includes(c.kind)) continue;
        const own = r.evaluate({ capture: c, all: [c] });
        // a rule gives findings without an id: the registry, not the rule, names them
        for (const f of own) expect(Object.keys(f), `${r.id} on ${file}`).not.toContain('id');
        expected.push(...own.map((f) => ({ id: r.id, ...f })));
      }
      expect(c.findings, file).toEqual(expected);
      expect(findingsOf(c, [c]), file).toEqual(expected);
      for (const f of c.findings) {
        expect(Object.keys(f)[0], file).toBe('id');
        seen.add(f.id);
      }
    }
    expect([...seen].sort()).toEqual([
      'cpu.context-switches-high', 'cpu.iowait-high', 'cpu.sleeping-processes-busy', 'fio.latency-explodes',
      'io.device-saturated', 'io.random-writes', 'io.sequential-writes', 'irq.dominated-by',
      'load.ab-failed-requests', 'load.errors', 'load.non2xx', 'net.listen-overflows',
      'php.opcache-validate-timestamps', 'syscall.stat-storm',
    ]);
  });

  it('wrk and hey: errors and non-2xx responses come from two rules, each with its own id', () => {
    const wrk = parseText(fixture('wrk/non2xx.txt'));
    expect(wrk.findings.map((f) => f.id)).toEqual(['load.non2xx']);
    expect(rule('load.non2xx', 'wrk').evaluate({ capture: wrk, all: [wrk] })).toHaveLength(1);
    expect(rule('load.errors', 'wrk').evaluate({ capture: wrk, all: [wrk] })).toEqual([]);
    const hey = parseText(fixture('hey/errors.txt'));
    expect(hey.findings.map((f) => f.id)).toEqual(['load.errors']);
  });

  it('are stamped on findings about several captures too (ulimit beside ss)', () => {
    const ulimit = capture('ulimit', { settings: { nofile: '1024' } });
    const ss = capture('ss', { metrics: [{ name: 'sockets_total', value: 900, unit: 'count' }] });
    const [f] = findingsOf(ulimit, [ulimit, ss]);
    expect(f).toMatchObject({ id: 'fd.ulimit-low', severity: 'warning' });
    expect(f!.message).toMatch(/is 1024, and the ss capture shows 900 sockets \(88 % of it\)/);
  });
});

describe('finding thresholds', () => {
  it('every rule that judges by a limit names it, as a finite number', () => {
    for (const r of RULES) {
      if (WITHOUT_THRESHOLDS.includes(r.id)) {
        expect(r.thresholds, r.id).toBeUndefined();
        continue;
      }
      expect(r.thresholds, `${r.id} (${r.kinds.join(', ')})`).toBeDefined();
      const entries = Object.entries(r.thresholds!);
      expect(entries.length, r.id).toBeGreaterThan(0);
      for (const [name, v] of entries) expect(Number.isFinite(v), `${r.id} ${name}`).toBe(true);
    }
  });

  it('are the limits the rules were written with', () => {
    expect(rule('io.random-writes', 'iostat').thresholds).toMatchObject({ maxBytesPerWrite: 8 * 1024, minWritesPerSecond: 10 });
    expect(rule('io.sequential-writes', 'iostat').thresholds).toMatchObject({ minBytesPerWrite: 32 * 1024 });
    expect(rule('io.device-saturated', 'iostat').thresholds).toMatchObject({ busyUtilPercent: 99, minBusyShare: 0.5, minSamples: 2 });
    expect(rule('io.device-saturated', 'fio').thresholds).toEqual({ minUtilPercent: 99 });
    expect(rule('cpu.context-switches-high', 'vmstat').thresholds).toMatchObject({ maxPerCpuPerSecond: 5000, maxPerSecond: 20000 });
    expect(rule('cpu.iowait-high', 'vmstat').thresholds).toEqual({ warnPercent: 20, criticalPercent: 40 });
    expect(rule('cpu.steal-high', 'vmstat').thresholds).toEqual({ warnPercent: 10, criticalPercent: 20 });
    expect(rule('cpu.iowait-high', 'top').thresholds).toEqual({ warnPercent: 20, criticalPercent: 50 });
    expect(rule('cpu.steal-high', 'top').thresholds).toEqual({ warnPercent: 10, criticalPercent: 30 });
    expect(rule('fd.ulimit-low', 'ulimit').thresholds).toEqual({ infoSocketShare: 0.5, warnSocketShare: 0.8, maxLowNofile: 1024 });
    expect(rule('net.time-wait-near-port-range', 'ss').thresholds).toEqual({ minPortRangeShare: 0.5, minTwBucketsShare: 0.5 });
    expect(rule('net.retransmits', 'netstat').thresholds).toEqual({ minRatio: 0.01, minRetransmittedSegments: 100, criticalRatio: 0.05 });
    expect(rule('fio.latency-explodes', 'fio').thresholds).toEqual({ minInFlight: 256, minP99OverP50: 10, criticalP99Seconds: 1 });
    expect(rule('syscall.stat-storm', 'strace-summary').thresholds).toMatchObject({ minCalls: 200, minSharePercent: 30 });
    expect(rule('load.errors', 'hey').thresholds).toEqual({ criticalFailedShare: 1 });
  });

  it('are what evaluate judges by: a finding at the limit, none just past it', () => {
    const ulimit = rule('fd.ulimit-low', 'ulimit');
    const low = ulimit.thresholds!.maxLowNofile!;
    const at = capture('ulimit', { settings: { nofile: String(low) } });
    const above = capture('ulimit', { settings: { nofile: String(low + 1) } });
    expect(findingsOf(at, [at]).map((f) => f.id)).toEqual(['fd.ulimit-low']);
    expect(findingsOf(above, [above])).toEqual([]);

    const retr = rule('net.retransmits', 'netstat').thresholds!;
    const netstat = (ratio: number, n: number) => capture('netstat', {
      metrics: [
        { name: 'tcp_retransmit_ratio', value: ratio, unit: 'ratio' },
        { name: 'tcp_segments_retransmitted', value: n, unit: 'count' },
        { name: 'tcp_segments_sent', value: Math.round(n / ratio), unit: 'count' },
      ],
    });
    const severities = (c: ParsedCapture) => findingsOf(c, [c]).filter((f) => f.id === 'net.retransmits').map((f) => f.severity);
    expect(severities(netstat(retr.minRatio!, retr.minRetransmittedSegments!))).toEqual(['warning']);
    expect(severities(netstat(retr.criticalRatio!, retr.minRetransmittedSegments!))).toEqual(['critical']);
    expect(severities(netstat(retr.minRatio! * 0.99, 1000))).toEqual([]);
    expect(severities(netstat(retr.criticalRatio!, retr.minRetransmittedSegments! - 1))).toEqual([]);
  });
});
