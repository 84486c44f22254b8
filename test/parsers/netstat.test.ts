import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedCapture } from '../../shared/capture/types';
import { evaluateFindings, parseText } from '../../shared/capture/registry';
import { stateLabel } from '../../shared/capture/parsers/settings/common';

const dir = join(__dirname, '../fixtures/captures/netstat');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');
const byState = (c: ParsedCapture) => Object.fromEntries(c.metrics.filter((m) => m.name === 'sockets_total' && m.labels?.state).map((m) => [m.labels!.state, m.value]));
const metric = (c: ParsedCapture, name: string) => c.metrics.find((m) => m.name === name && !m.labels)?.value;

/** jc --netstat rows: network sockets by state (jc has no state for UDP), unix sockets counted. */
function jcCounts(name: string) {
  const rows = JSON.parse(fx(name)) as { kind: string; state?: string; local_port?: string }[];
  const states: Record<string, number> = {};
  let unix = 0;
  for (const r of rows) {
    if (r.kind !== 'network') { unix++; continue; }
    const s = stateLabel(r.state ?? '');
    states[s] = (states[s] ?? 0) + 1;
  }
  return { states, unix };
}

describe('netstat parser', () => {
  it('counts netstat -an sockets by state like jc --netstat, UNIX section included', () => {
    const c = parseText(fx('netstat-an.txt'));
    expect(c.kind).toBe('netstat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    const ref = jcCounts('netstat-an.jc.json');
    expect(byState(c)).toEqual(ref.states);
    expect(byState(c)).toEqual({ time_wait: 301, established: 4, listen: 2, unconn: 1 });
    expect(metric(c, 'sockets_total')).toBe(308);
    expect(metric(c, 'unix_sockets_total')).toBe(ref.unix);
    expect(c.metrics.find((m) => m.labels?.state === 'time_wait')?.column).toBe('TIME_WAIT');
    expect(c.tables!.connections_by_local_port!.rows[0]!.slice(0, 2)).toEqual(['18500', 302]);
    expect(c.warnings).toEqual([]);
  });

  it('reads netstat -antp (PID/Program name column)', () => {
    const c = parseText(fx('netstat-antp.txt'));
    expect(c.kind).toBe('netstat');
    expect(byState(c)).toEqual(jcCounts('netstat-antp.jc.json').states);
    expect(c.warnings).toEqual([]);
  });

  it('reads netstat -s counters (netns capture)', () => {
    const c = parseText(fx('netstat-s.txt'));
    expect(c.kind).toBe('netstat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(metric(c, 'tcp_active_opens')).toBe(307);
    expect(metric(c, 'tcp_passive_opens')).toBe(303);
    expect(metric(c, 'tcp_segments_sent')).toBe(3616);
    expect(metric(c, 'tcp_segments_retransmitted')).toBe(0);
    expect(metric(c, 'tcp_retransmit_ratio')).toBe(0);
    expect(metric(c, 'tcp_listen_overflows')).toBe(4);
    expect(metric(c, 'tcp_listen_drops')).toBe(4);
    expect(metric(c, 'tcp_timewait_fast_timer')).toBe(301);
    expect(metric(c, 'udp_no_port')).toBe(1);
    const rows = c.tables!.counters!.rows;
    expect(rows).toContainEqual(['IcmpMsg', 'InType3', 1]);
    expect(rows).toContainEqual(['Icmp/ICMP output histogram', 'destination unreachable', 1]);
    expect(rows).toContainEqual(['TcpExt', 'TCPOrigDataSent', 1502]);
    expect(rows).toContainEqual(['IpExt', 'InOctets', 839326]);
    expect(c.warnings).toEqual([]);
    const host = parseText(fx('netstat-s-host.txt'));
    expect(metric(host, 'tcp_segments_sent')).toBe(1005269);
    expect(metric(host, 'tcp_timewait_recycled')).toBe(1);
    expect(host.warnings).toEqual([]);
  });

  it('reads German (de_DE) netstat output: translated headings, English counters', () => {
    const an = parseText(fx('netstat-an-de.txt'));
    expect(an.kind).toBe('netstat');
    expect(byState(an)).toEqual({ time_wait: 52, listen: 1 });
    expect(an.warnings).toEqual([]);
    const st = parseText(fx('netstat-s-de.txt'));
    expect(st.kind).toBe('netstat');
    expect(metric(st, 'tcp_active_opens')).toBe(52);
    expect(st.tables!.counters!.rows.some((r) => String(r[0]).includes('ICMP-Eingabehistogramm'))).toBe(false);
    expect(st.warnings).toEqual([]);
  });

  it('reads older net-tools spellings and the retransmit ratio', () => {
    const c = parseText('Tcp:\n    1234 active connections openings\n    56 passive connection openings\n    10000 segments received\n    20000 segments send out\n    300 segments retransmited\nTcpExt:\n    12 SYN cookies sent\n    7 SYNs to LISTEN sockets ignored\n    Quick ack mode was activated 5 times\n    TCPSynRetrans: 9\n');
    expect(c.kind).toBe('netstat');
    expect(metric(c, 'tcp_active_opens')).toBe(1234);
    expect(metric(c, 'tcp_segments_sent')).toBe(20000);
    expect(metric(c, 'tcp_segments_retransmitted')).toBe(300);
    expect(metric(c, 'tcp_retransmit_ratio')).toBe(0.015);
    expect(metric(c, 'tcp_syncookies_sent')).toBe(12);
    expect(metric(c, 'tcp_listen_drops')).toBe(7);
    expect(metric(c, 'tcp_syn_retransmits')).toBe(9);
    expect(c.tables!.counters!.rows).toContainEqual(['TcpExt', 'Quick ack mode was activated N times', 5]);
  });

  it('survives CRLF, a prompt line, the non-root notice and a truncated capture', () => {
    const text = 'user@h:~$ netstat -antp\r\n(Not all processes could be identified, non-owned process info\r\n will not be shown, you would have to be root to see it all.)\r\n'
      + fx('netstat-antp.txt').split('\n').slice(0, 50).join('\r\n') + '\r\ntcp        0      0 127.0';
    const c = parseText(text);
    expect(c.kind).toBe('netstat');
    expect(c.command).toBe('netstat -antp');
    expect(metric(c, 'sockets_total')).toBe(48);
    expect(c.warnings).toEqual(['line 54: could not read "tcp        0      0 127.0"']);
  });

  it('reads state counts of awk | sort | uniq -c one-liners (both orders)', () => {
    for (const name of ['netstat-state-uniq.txt', 'netstat-state-awk.txt']) {
      const c = parseText(fx(name));
      expect(c.kind, name).toBe('netstat');
      expect(c.confidence).toBeGreaterThanOrEqual(0.5);
      expect(byState(c)).toEqual({ time_wait: 301, established: 4, listen: 2 });
      expect(metric(c, 'sockets_total')).toBe(307);
    }
  });

  it('net.listen-overflows and net.retransmits', () => {
    const c = parseText(fx('netstat-s.txt'));
    expect(c.findings).toHaveLength(1);
    expect(c.findings[0]!.id).toBe('net.listen-overflows');
    expect(c.findings[0]!.severity).toBe('warning');
    expect(c.findings[0]!.message).toMatch(/^4 times the listen queue of a socket overflowed, 4 SYNs to LISTEN sockets dropped \(netstat -s counts since boot\)/);
    expect(c.findings[0]!.evidence).toMatch(/^line \d+$/);
    const lossy = parseText('Tcp:\n    1000 active connection openings\n    200000 segments sent out\n    4000 segments retransmitted\n');
    expect(lossy.findings.map((f) => [f.id, f.severity])).toEqual([['net.retransmits', 'warning']]);
    expect(lossy.findings[0]!.message).toMatch(/^4000 of 200000 TCP segments were retransmitted \(2\.00 %/);
  });

  it('feeds the TIME_WAIT rule with the port range of a sysctl capture', () => {
    const ns = parseText(fx('netstat-an.txt'), { file: 'netstat-an.txt' });
    expect(ns.findings).toEqual([]); // 301 of 28232 default ports
    const sysctl = parseText('net.ipv4.ip_local_port_range = 61000\t61400\nnet.ipv4.tcp_max_tw_buckets = 400\n', { file: 'sysctl.txt' });
    const f = evaluateFindings([ns, sysctl])[0]!;
    expect(f.map((x) => x.id)).toEqual(['net.time-wait-near-port-range', 'net.time-wait-near-port-range']);
    expect(f[0]!.message).toMatch(/^301 sockets in TIME_WAIT = 75 % of the 401 local ports of net\.ipv4\.ip_local_port_range = 61000 61400/);
    expect(f[1]!.message).toMatch(/^301 sockets in TIME_WAIT = 75 % of net\.ipv4\.tcp_max_tw_buckets = 400 \(sysctl\.txt\)/);
  });
});

describe('netstat -i (issue 11)', () => {
  it('reads the Kernel Interface table: the same counts as jc --netstat, per interface', () => {
    const c = parseText(fx('netstat-i.txt'));
    expect(c.kind).toBe('netstat');
    expect(c.warnings).toEqual([]);
    const jcRows = JSON.parse(fx('netstat-i.jc.json')) as Record<string, number | string>[];
    expect(jcRows.length).toBeGreaterThan(0);
    for (const r of jcRows) {
      const m = (name: string) => c.metrics.find((x) => x.name === name && x.labels?.iface === r.iface)?.value;
      expect([m('rx_packets_total'), m('rx_errors_total'), m('rx_dropped_total'), m('rx_overruns_total')]).toEqual([r.rx_ok, r.rx_err, r.rx_drp, r.rx_ovr]);
      expect([m('tx_packets_total'), m('tx_errors_total'), m('tx_dropped_total'), m('tx_overruns_total')]).toEqual([r.tx_ok, r.tx_err, r.tx_drp, r.tx_ovr]);
    }
    expect(c.tables?.interfaces?.rows.map((row) => row[0])).toEqual(jcRows.map((r) => r.iface));
  });
});
