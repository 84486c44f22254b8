/**
 * ss (iproute2): socket listings (`ss -tan`, `-tanp`, `-tuna`, `-tunlp`, `-ant state time-wait`,
 * with -e/-i/-m/-o extras, with or without the header, IPv6 "[::1]:80" and "%iface" scopes) and
 * the `ss -s` summary (Total, TCP line, Transport table).
 */
import type { CaptureParser, LineSink, Metric, ParseOutput, Table } from '../../types';
import { commandLine, emptyOutput, fields, lookupTable, num } from '../kit';
import { isSsSpelling, promptLine, SocketCounter, stateCountLine, warnIfEmpty } from './common';

/** the program of a prompt line (or bare command line) that printed the capture */
const TOOLS = ['ss'];

const HEADER = /^(Netid\s+)?(State\s+)?Recv-Q\s+Send-Q\s+Local\s+Address:Port\s+Peer\s+Address:Port/;
const SS_STATES = new Set(['ESTAB', 'SYN-SENT', 'SYN-RECV', 'FIN-WAIT-1', 'FIN-WAIT-2', 'TIME-WAIT', 'UNCONN', 'CLOSE-WAIT', 'LAST-ACK', 'LISTEN', 'CLOSING', 'UNKNOWN', 'CLOSED', 'NEW-SYN-RECV', 'BOUND']);
const NETIDS = /^(?:tcp|udp|raw|u_str|u_dgr|u_seq|p_raw|p_dgr|nl|mptcp|sctp|tipc|v_str|v_dgr|xdp|icmp6?|dccp|u_seqpacket|unix)$/;
const TOTAL = /^Total:\s+(\d+)(?:\s+\(kernel\s+(\d+)\))?\s*$/;
const TCP_LINE = /^TCP:\s+(\d+)\s+\(([^)]*)\)(?:,\s*ports\s+(\d+))?\s*$/;
const TRANSPORT_HEAD = /^Transport\s+Total\s+IP\s+IPv6\s*$/;
const TRANSPORT_ROW = /^(RAW|UDP|TCP|INET|FRAG|\*)\s+(\d+)\s+(\d+|-)\s+(\d+|-)\s*$/;
/** ss state filter names (`ss state time-wait`) → how ss prints that state */
const FILTER_STATES = lookupTable({
  established: 'ESTAB', 'syn-sent': 'SYN-SENT', 'syn-recv': 'SYN-RECV', 'fin-wait-1': 'FIN-WAIT-1', 'fin-wait-2': 'FIN-WAIT-2',
  'time-wait': 'TIME-WAIT', closed: 'UNCONN', 'close-wait': 'CLOSE-WAIT', 'last-ack': 'LAST-ACK', listening: 'LISTEN', listen: 'LISTEN', closing: 'CLOSING',
});

function filterState(cmd: string): string | undefined {
  const m = /\b(?:state|exclude)\s+(\S+)/g;
  const states: string[] = [];
  let r: RegExpExecArray | null;
  while ((r = m.exec(cmd))) {
    if (r[0].startsWith('exclude')) return undefined;
    const s = FILTER_STATES[r[1]!.toLowerCase().replace(/['"]/g, '')];
    if (!s) return undefined;
    states.push(s);
  }
  return states.length === 1 ? states[0] : undefined;
}

/** -i / -m / -e detail text (when pasted without its indentation) */
const DETAIL = /^(?:(?:bbr|cubic|reno|dctcp|htcp|vegas|westwood|bic|illinois|hybla|scalable|yeah|lp|veno|highspeed|nv|cdg)\b|skmem:\(|ts\b|sack\b|ecn\b|wscale:|rto:|rtt:|mss:|cwnd:|timer:\(|ino:|uid:)|\b(?:cwnd|rtt|rto|wscale|bytes_acked|bytes_received|segs_out|segs_in|send|pacing_rate|delivery_rate|lastsnd|lastrcv|lastack|minrtt|rcv_space|rcv_ssthresh):\S/;

function isNumber(s: string | undefined): boolean { return s !== undefined && /^\d+$/.test(s); }

export const ss: CaptureParser = {
  id: 'ss',
  title: 'ss (socket statistics)',
  commands: [{ program: 'ss' }],
  detect(head) {
    let header = 0, rows = 0, summary = 0, other = 0, ssCounts = 0, cmd = false, n = 0;
    for (const raw of head) {
      const line = raw.trim();
      if (!line) continue;
      if (n++ > 300) break;
      if (HEADER.test(line)) { header++; continue; }
      if (TOTAL.test(line) || TCP_LINE.test(line) || TRANSPORT_HEAD.test(line)) { summary++; continue; }
      if (TRANSPORT_ROW.test(line)) continue;
      const c = commandLine(line, TOOLS, { bare: true });
      if (c && /^(?:sudo\s+)?(?:\S*\/)?ss(\s|$)/.test(c)) { cmd = true; continue; }
      const f = fields(line);
      let i = 0;
      if (f[i] !== undefined && NETIDS.test(f[i]!)) i++;
      const st = f[i] !== undefined && SS_STATES.has(f[i]!);
      if (st) i++;
      // ss prints the state before the queues; netstat prints it last ("tcp 0 0 a b LISTEN")
      if (st && isNumber(f[i]) && isNumber(f[i + 1]) && f.length >= i + 4) { rows++; continue; }
      const sc = stateCountLine(line);
      if (sc) { if (isSsSpelling(sc.state)) ssCounts++; else other++; continue; }
      if (/^\s/.test(raw)) continue; // -i/-e continuation lines
      other++;
    }
    if (summary >= 2) return 0.95;
    if (header) return rows > 0 || n <= 3 ? 0.96 : 0.85;
    if (rows >= 3 && rows >= other) return cmd ? 0.8 : 0.6;
    if (cmd && rows >= 1) return 0.6;
    if (ssCounts >= 1 && ssCounts >= other) return cmd ? 0.6 : 0.5;
    return 0;
  },
  open(): LineSink {
    const out: ParseOutput = emptyOutput();
    const counter = new SocketCounter();
    const metrics: Metric[] = [];
    const tables: Record<string, Table> = {};
    let hasNetid: boolean | undefined;
    let hasState: boolean | undefined;
    let fixedState: string | undefined;
    let transport = false;
    let countsOnly = false;
    let unread = 0;
    const listeners: (string | number | null)[][] = [];
    const push = (name: string, value: number, column: string, lineNo: number, labels?: Record<string, string>) => {
      if (!Number.isFinite(value)) return;
      const m: Metric = { name, value, unit: 'count', column, lines: [lineNo, lineNo] };
      if (labels) m.labels = labels;
      metrics.push(m);
    };
    const bad = (lineNo: number, line: string) => {
      if (promptLine(out, line)) return;
      if (++unread <= 50) out.warnings.push(`line ${lineNo}: could not read "${line.slice(0, 80)}"`);
    };
    return {
      line(text, lineNo) {
        const line = text.trim();
        if (!line) return;
        // -i / -e / -m detail lines are indented under their socket
        if (!countsOnly && /^[\t ]/.test(text) && (hasNetid !== undefined || counter.total > 0)) return;
        const h = HEADER.exec(line);
        if (h) { hasNetid = !!h[1]; hasState = !!h[2]; transport = false; return; }
        const v = /^ss utility, (iproute2-\S+)/.exec(line);
        if (v) { out.toolVersion = `ss ${v[1]}`; return; }
        const c = commandLine(line, TOOLS, { bare: true });
        if (c && /^(?:sudo\s+)?(?:\S*\/)?ss(\s|$)/.test(c)) { out.command ??= c; fixedState = filterState(c); return; }
        let m = TOTAL.exec(line);
        if (m) {
          push('sockets_total', num(m[1]), 'Total', lineNo);
          if (m[2] !== undefined) push('sockets_kernel_total', num(m[2]), 'kernel', lineNo);
          return;
        }
        m = TCP_LINE.exec(line);
        if (m) {
          push('tcp_total', num(m[1]), 'TCP', lineNo);
          for (const part of m[2]!.split(',')) {
            const p = /^\s*([a-z-]+)\s+(\d+)(?:\/(\d+))?\s*$/.exec(part);
            if (!p) continue;
            const name = p[1] === 'estab' ? 'tcp_established' : `tcp_${p[1]!.replace(/-/g, '_')}`;
            push(name, num(p[2]), p[1]!, lineNo);
          }
          if (m[3] !== undefined) push('tcp_ports', num(m[3]), 'ports', lineNo);
          return;
        }
        if (TRANSPORT_HEAD.test(line)) { transport = true; return; }
        if (transport) {
          const t = TRANSPORT_ROW.exec(line);
          if (t) {
            const proto = t[1] === '*' ? 'kernel' : t[1]!.toLowerCase();
            push('transport_sockets_total', num(t[2]), `${t[1]} Total`, lineNo, { protocol: proto, family: 'all' });
            if (t[3] !== '-') push('transport_sockets_total', num(t[3]), `${t[1]} IP`, lineNo, { protocol: proto, family: 'ipv4' });
            if (t[4] !== '-') push('transport_sockets_total', num(t[4]), `${t[1]} IPv6`, lineNo, { protocol: proto, family: 'ipv6' });
            return;
          }
          transport = false;
        }
        // "  301 TIME-WAIT" from ss … | awk | sort | uniq -c
        const sc = counter.total === 0 || countsOnly ? stateCountLine(line) : undefined;
        if (sc) { countsOnly = true; counter.add(sc.state, '', lineNo, sc.count); return; }
        if (/^\d+\s+State$/.test(line) || line === 'State') return; // the header line counted by uniq -c
        // a socket row
        const f = fields(line);
        let i = 0;
        let netid: string | undefined;
        let state: string | undefined;
        if (hasNetid ?? (f[0] !== undefined && NETIDS.test(f[0]))) netid = f[i++];
        if (hasState ?? (f[i] !== undefined && SS_STATES.has(f[i]!))) state = f[i++];
        if (hasState === false) state = fixedState ?? 'UNKNOWN';
        if (state === undefined || !isNumber(f[i]) || !isNumber(f[i + 1]) || f.length < i + 4) {
          if (!DETAIL.test(line)) bad(lineNo, line);
          return;
        }
        if (hasNetid === undefined && hasState === undefined && !SS_STATES.has(state)) { bad(lineNo, line); return; }
        let local = f[i + 2]!;
        // unix sockets: "path inode"; give them no port
        if (netid !== undefined && /^(?:u_|unix|nl|p_)/.test(netid)) local = '';
        counter.add(state, local, lineNo);
        if (state === 'LISTEN' && listeners.length < 200) {
          const proc = f.slice(i + 4).join(' ');
          const pm = /users:\(\("([^"]+)",pid=(\d+)/.exec(proc);
          listeners.push([netid ?? 'tcp', local, num(f[i]), num(f[i + 1]), pm ? `${pm[1]}/${pm[2]}` : null]);
        }
      },
      end() {
        if (unread > 50) out.warnings.push(`${unread - 50} more lines could not be read`);
        counter.emit(out.metrics, tables, 'State');
        out.metrics.push(...metrics);
        if (listeners.length) tables.listeners = { title: 'listening sockets: Recv-Q = accept queue now, Send-Q = backlog', columns: ['netid', 'local_address', 'recv_q', 'send_q', 'process'], rows: listeners };
        if (Object.keys(tables).length) out.tables = tables;
        return warnIfEmpty(out, 'ss sockets or summary');
      },
    };
  },
};
