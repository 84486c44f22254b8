import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedCapture } from '../../shared/capture/types';
import { parseText } from '../../shared/capture/registry';
import { stateLabel } from '../../shared/capture/parsers/settings/common';

const dir = join(__dirname, '../fixtures/captures/ss');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');
const byState = (c: ParsedCapture) => Object.fromEntries(c.metrics.filter((m) => m.name === 'sockets_total' && m.labels?.state).map((m) => [m.labels!.state, m.value]));
const metric = (c: ParsedCapture, name: string, labels?: Record<string, string>) =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

/** jc --ss rows counted by state (ss spelling) and by local port. */
function jcCounts(name: string) {
  const rows = JSON.parse(fx(name)) as { state: string; local_port: string }[];
  const states: Record<string, number> = {};
  const ports: Record<string, number> = {};
  for (const r of rows) {
    states[stateLabel(r.state)] = (states[stateLabel(r.state)] ?? 0) + 1;
    if (r.local_port !== '*') ports[r.local_port] = (ports[r.local_port] ?? 0) + 1;
  }
  return { states, ports, total: rows.length };
}

describe('ss parser', () => {
  it('counts ss -tuna sockets by state and local port like jc --ss', () => {
    const c = parseText(fx('ss-tuna.txt'));
    expect(c.kind).toBe('ss');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    const ref = jcCounts('ss-tuna.jc.json');
    expect(byState(c)).toEqual(ref.states);
    expect(byState(c)).toEqual({ time_wait: 301, established: 4, listen: 2, unconn: 1 });
    expect(metric(c, 'sockets_total')).toBe(ref.total);
    const tw = c.metrics.find((m) => m.labels?.state === 'time_wait');
    expect(tw?.column).toBe('TIME-WAIT');
    const lines = fx('ss-tuna.txt').split('\n');
    expect(tw?.lines).toEqual([lines.findIndex((l) => l.includes('TIME-WAIT')) + 1, lines.findLastIndex((l) => l.includes('TIME-WAIT')) + 1]);
    const t = c.tables!.connections_by_local_port!;
    expect(t.columns.slice(0, 2)).toEqual(['local_port', 'sockets']);
    expect(Object.fromEntries(t.rows.map((r) => [r[0], r[1]]))).toEqual(ref.ports);
    expect(c.warnings).toEqual([]);
  });

  it('reads ss -tan, -tanp, -tunlp (IPv6 in brackets, users:(…))', () => {
    const tan = parseText(fx('ss-tan.txt'));
    expect(tan.kind).toBe('ss');
    expect(byState(tan)).toEqual({ time_wait: 301, established: 4, listen: 2 });
    expect(tan.tables!.connections_by_local_port!.rows[0]).toEqual(['18500', 302, 300, 1, 1]);
    const tanp = parseText(fx('ss-tanp.txt'));
    expect(byState(tanp)).toEqual({ time_wait: 301, established: 4, listen: 2 });
    expect(tanp.tables!.listeners!.rows.map((r) => r[4])).toEqual([expect.stringMatching(/^python3\/\d+$/), expect.stringMatching(/^python3\/\d+$/)]);
    expect(tanp.tables!.listeners!.rows.map((r) => r.slice(0, 4))).toEqual([['tcp', '127.0.0.1:18500', 0, 5], ['tcp', '[::1]:18501', 0, 5]]);
    const tunlp = parseText(fx('ss-tunlp.txt'));
    const ref = jcCounts('ss-tunlp.jc.json');
    expect(byState(tunlp)).toEqual(ref.states);
    expect(tunlp.warnings).toEqual([]);
  });

  it('takes the port after the last colon: [v6]:port, %iface scopes, *:*', () => {
    // the real -tan capture with its addresses rewritten to link-local forms (derived variant)
    const t = fx('ss-tan.txt').replace(/127\.0\.0\.1:18500/g, '[fe80::5054:ff:fe02:fcf3]%eth1:18500').replace('0.0.0.0:*', '*:*');
    const c = parseText(t);
    expect(byState(c)).toEqual({ time_wait: 301, established: 4, listen: 2 });
    expect(c.tables!.connections_by_local_port!.rows[0]!.slice(0, 2)).toEqual(['18500', 302]);
    expect(c.tables!.listeners!.rows[0]![1]).toBe('[fe80::5054:ff:fe02:fcf3]%eth1:18500');
  });

  it('skips the -e/-i detail lines', () => {
    const c = parseText(fx('ss-tanei.txt'));
    expect(c.kind).toBe('ss');
    expect(byState(c)).toEqual({ time_wait: 19, listen: 1 });
    expect(c.warnings).toEqual([]);
    const est = parseText(fx('ss-tnimoe.txt'));
    expect(byState(est)).toEqual({ established: 2 });
    expect(est.warnings).toEqual([]);
    expect(parseText(fx('ss-tnimoe.txt').replace(/^[\t ]+/gm, '')).warnings).toEqual([]);
    // pasted without the indentation of the detail lines
    const flat = parseText(fx('ss-tanei.txt').split('\n').map((l) => l.trim()).join('\n'));
    expect(byState(flat)).toEqual({ time_wait: 19, listen: 1 });
    expect(flat.warnings).toEqual([]);
  });

  it('takes the state from a "state time-wait" filter on the command line', () => {
    const c = parseText(fx('ss-state-tw-prompt.txt'));
    expect(c.kind).toBe('ss');
    expect(c.command).toBe('ss -ant state time-wait');
    expect(byState(c)).toEqual({ time_wait: 301 });
    expect(c.findings.map((f) => f.id)).toEqual([]); // 301 of 28232 default ports
    // without the command line the state is unknown
    expect(byState(parseText(fx('ss-state-tw.txt')))).toEqual({ unknown: 301 });
  });

  it('reads state counts of an ss | awk | sort | uniq -c one-liner', () => {
    const c = parseText(fx('ss-state-uniq.txt'));
    expect(c.kind).toBe('ss');
    expect(byState(c)).toEqual({ time_wait: 301, established: 4, listen: 2 });
    expect(c.warnings).toEqual([]);
  });

  it('reads the ss -s summary', () => {
    const c = parseText(fx('ss-s.txt'));
    expect(c.kind).toBe('ss');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(metric(c, 'sockets_total')).toBe(15);
    expect(metric(c, 'tcp_total')).toBe(321);
    expect(metric(c, 'tcp_established')).toBe(4);
    expect(metric(c, 'tcp_closed')).toBe(315);
    expect(metric(c, 'tcp_orphaned')).toBe(0);
    expect(metric(c, 'tcp_timewait')).toBe(301);
    expect(metric(c, 'transport_sockets_total', { protocol: 'tcp', family: 'ipv6' })).toBe(3);
    expect(metric(c, 'transport_sockets_total', { protocol: 'udp', family: 'all' })).toBe(1);
    // older iproute2: "(kernel N)", synrecv, "timewait a/b", ", ports N", a "*" transport row
    const old = parseText('Total: 1234 (kernel 1500)\nTCP:   50 (estab 10, closed 30, orphaned 0, synrecv 0, timewait 30/0), ports 0\n\nTransport Total     IP        IPv6\n*\t  1500      -         -        \nRAW\t  0         0         0        \n');
    expect(old.kind).toBe('ss');
    expect(metric(old, 'sockets_kernel_total')).toBe(1500);
    expect(metric(old, 'tcp_timewait')).toBe(30);
    expect(metric(old, 'tcp_synrecv')).toBe(0);
    expect(metric(old, 'tcp_ports')).toBe(0);
    expect(metric(old, 'transport_sockets_total', { protocol: 'kernel', family: 'all' })).toBe(1500);
  });

  it('survives CRLF, ANSI, a missing header and a truncated last line', () => {
    const lines = fx('ss-tan.txt').split('\n');
    const noHeader = parseText(lines.slice(1).join('\r\n'));
    expect(noHeader.kind).toBe('ss');
    expect(byState(noHeader)).toEqual({ time_wait: 301, established: 4, listen: 2 });
    const colour = parseText('\x1b[32m$ \x1b[0mss -tan\n' + lines.slice(0, 100).join('\n') + '\nTIME-WAIT 0      0   ');
    expect(colour.command).toBe('ss -tan');
    expect(colour.warnings).toEqual(['line 102: could not read "TIME-WAIT 0      0"']);
  });

  it('net.time-wait-near-port-range: warns when TIME_WAIT nears the default port range', () => {
    // 301 real rows repeated 50× = 15050 TIME_WAIT (derived): 53 % of 28232
    const lines = fx('ss-tan.txt').split('\n');
    const tw = lines.filter((l) => l.startsWith('TIME-WAIT'));
    const big = parseText([lines[0], ...Array.from({ length: 50 }, () => tw).flat()].join('\n'));
    const f = big.findings.find((x) => x.id === 'net.time-wait-near-port-range');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toMatch(/^15050 sockets in TIME_WAIT = 53 % of the 28232 local ports of the Linux default 32768–60999/);
    expect(f?.evidence).toBe('lines 2-15051');
  });
});
