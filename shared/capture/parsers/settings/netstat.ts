/**
 * netstat (net-tools): connection listings (`netstat -an`, `-tan`, `-antp`, `-tunlp`, with -e/-o
 * extra columns; the "Active UNIX domain sockets" section is counted, not broken on) and the
 * `netstat -s` counters (Ip:, Icmp:, IcmpMsg:, Tcp:, Udp:, UdpLite:, TcpExt:, IpExt:, MPTcpExt:),
 * and `netstat -i` ("Kernel Interface table": packets, errors, drops and overruns per interface).
 */
import type { CaptureParser, LineSink, Metric, ParseOutput, Table } from '../../types';
import { commandLine, emptyOutput, fields, lookupTable, num } from '../kit';
import { isSsSpelling, promptLine, SocketCounter, stateCountLine, warnIfEmpty } from './common';

/** the program of a prompt line (or bare command line) that printed the capture */
const TOOLS = ['netstat'];

const ACTIVE = /^Active (Internet|UNIX domain|Bluetooth|IPX|AX\.25|NET\/ROM|X\.25|Connections|LOCAL \(UNIX\) domain|kernel (?:control|event))\b/i;
const INET_HEAD = /^Proto\s+Recv-Q\s+Send-Q\s+Local\s+Address\s+Foreign\s+Address\s+\(?state\)?/i;
/** Windows `netstat -an`: "  Proto  Local Address  Foreign Address  State" */
const WIN_HEAD = /^Proto\s+Local\s+Address\s+Foreign\s+Address\s+State/;
const UNIX_HEAD = /^Proto\s+RefCnt\s+Flags\s+Type\s+State\s+I-Node/;
/** netstat -i: "Iface MTU [Met] RX-OK RX-ERR RX-DRP RX-OVR TX-OK TX-ERR TX-DRP TX-OVR Flg" */
const IFACE_HEAD = /^Iface\s+MTU\s+(?:Met\s+)?RX-OK\s+RX-ERR\s+RX-DRP\s+RX-OVR\s+TX-OK\s+TX-ERR\s+TX-DRP\s+TX-OVR\s+Flg$/;
/** netstat -i columns → metric names (counts since the interface came up) */
const IFACE_COLUMNS = lookupTable({
  'RX-OK': 'rx_packets_total', 'RX-ERR': 'rx_errors_total', 'RX-DRP': 'rx_dropped_total', 'RX-OVR': 'rx_overruns_total',
  'TX-OK': 'tx_packets_total', 'TX-ERR': 'tx_errors_total', 'TX-DRP': 'tx_dropped_total', 'TX-OVR': 'tx_overruns_total',
});
const PROTO = /^(?:tcp|tcp4|tcp6|tcp46|udp|udp4|udp6|udp46|udpl|udpl6|raw|raw6|sctp|sctp6|mptcp|mptcp6)$/;
const STATES = new Set(['LISTENING', 'SYN_RECEIVED', 'ESTABLISHED', 'SYN_SENT', 'SYN_RECV', 'FIN_WAIT1', 'FIN_WAIT2', 'TIME_WAIT', 'CLOSE', 'CLOSE_WAIT', 'LAST_ACK', 'LISTEN', 'CLOSING', 'UNKNOWN']);
const SECTION = /^([A-Za-z][A-Za-z0-9]*):\s*$/;
const SECTIONS = /^(?:Ip|Icmp|IcmpMsg|Tcp|Udp|UdpLite|TcpExt|IpExt|MPTcpExt|Ip6|Icmp6|Udp6|UdpLite6|Sctp|Tcp6)$/;
/** "    1234 active connection openings" */
const COUNT_TEXT = /^(\d+)\s+(\S.*)$/;
/** "    Forwarding: 2", "    TCPTimeouts: 5", "        InType3: 1", "    destination unreachable: 1" */
const KEY_COUNT = /^(.+?):\s+(\d+)\s*$/;
/** older net-tools print "NNN text" with the number inside the sentence */
const TEXT_COUNT = /^(.*?\D)\s(\d+)\s+(.+)$/;

/** netstat -s phrases (lowercase, all spellings net-tools used) → metric name */
const KNOWN = lookupTable<Readonly<Record<string, string>>>({
  Tcp: lookupTable({
    'active connection openings': 'tcp_active_opens',
    'active connections openings': 'tcp_active_opens',
    'passive connection openings': 'tcp_passive_opens',
    'failed connection attempts': 'tcp_failed_connection_attempts',
    'connection resets received': 'tcp_resets_received',
    'connections established': 'tcp_current_established',
    'segments received': 'tcp_segments_received',
    'segments sent out': 'tcp_segments_sent',
    'segments send out': 'tcp_segments_sent',
    'segments retransmitted': 'tcp_segments_retransmitted',
    'segments retransmited': 'tcp_segments_retransmitted',
    'bad segments received': 'tcp_bad_segments_received',
    'bad segments received.': 'tcp_bad_segments_received',
    'resets sent': 'tcp_resets_sent',
  }),
  TcpExt: lookupTable({
    'times the listen queue of a socket overflowed': 'tcp_listen_overflows',
    'syns to listen sockets dropped': 'tcp_listen_drops',
    'syns to listen sockets ignored': 'tcp_listen_drops',
    'syn cookies sent': 'tcp_syncookies_sent',
    'syn cookies received': 'tcp_syncookies_received',
    'invalid syn cookies received': 'tcp_syncookies_failed',
    'tcp sockets finished time wait in fast timer': 'tcp_timewait_fast_timer',
    'tcp sockets finished time wait in slow timer': 'tcp_timewait_slow_timer',
    'time wait sockets recycled by time stamp': 'tcp_timewait_recycled',
    'passive connections rejected because of time stamp': 'tcp_paws_passive_rejected',
    'active connections rejected because of time stamp': 'tcp_paws_active_rejected',
    'packets rejects in established connections because of timestamp': 'tcp_paws_established_rejected',
    'packets rejected in established connections because of timestamp': 'tcp_paws_established_rejected',
    'connections aborted due to timeout': 'tcp_aborts_on_timeout',
    'connections reset due to unexpected data': 'tcp_aborts_on_data',
    'connections reset due to early user close': 'tcp_aborts_on_close',
    'fast retransmits': 'tcp_fast_retransmits',
    'retransmits in slow start': 'tcp_slow_start_retransmits',
    'other tcp timeouts': 'tcp_timeouts',
    'tcptimeouts': 'tcp_timeouts',
    'tcpsynretrans': 'tcp_syn_retransmits',
    'tcptimewaitoverflow': 'tcp_timewait_overflow',
    'tcpbacklogdrop': 'tcp_backlog_drops',
    'tcpreqqfulldrop': 'tcp_request_queue_full_drops',
    'tcpreqqfulldocookies': 'tcp_request_queue_full_cookies',
    'tcplostretransmit': 'tcp_lost_retransmits',
  }),
  Udp: lookupTable({
    'packets received': 'udp_packets_received',
    'packets to unknown port received': 'udp_no_port',
    'packets to unknown port received.': 'udp_no_port',
    'packet receive errors': 'udp_receive_errors',
    'packets sent': 'udp_packets_sent',
    'receive buffer errors': 'udp_receive_buffer_errors',
    'send buffer errors': 'udp_send_buffer_errors',
  }),
  Ip: lookupTable({
    'total packets received': 'ip_packets_received',
    'requests sent out': 'ip_packets_sent',
    'incoming packets discarded': 'ip_incoming_discarded',
    'incoming packets delivered': 'ip_incoming_delivered',
    'outgoing packets dropped': 'ip_outgoing_dropped',
  }),
});

/** BSD/macOS netstat prints "127.0.0.1.80" / "*.22": make it "addr:port" for the port table. */
function localPort(addr: string): string {
  if (addr.indexOf(':') >= 0 || addr.indexOf('[') >= 0) return addr;
  const i = addr.lastIndexOf('.');
  return i > 0 ? `${addr.slice(0, i)}:${addr.slice(i + 1)}` : addr;
}

export const netstat: CaptureParser = {
  id: 'netstat',
  title: 'netstat (connections, -s counters)',
  commands: [{ program: 'netstat' }],
  detect(head) {
    let active = 0, inetHead = 0, sections = 0, counters = 0, rows = 0, stateCounts = 0, other = 0, n = 0;
    for (const raw of head) {
      const line = raw.trim();
      if (!line) continue;
      if (n++ > 300) break;
      if (ACTIVE.test(line)) { active++; continue; }
      if (INET_HEAD.test(line) || UNIX_HEAD.test(line) || WIN_HEAD.test(line) || IFACE_HEAD.test(line)) { inetHead++; continue; }
      if (/^Kernel Interface table$/.test(line)) { active++; continue; }
      const s = SECTION.exec(line);
      if (s) { if (SECTIONS.test(s[1]!)) sections++; else other++; continue; }
      const sc = stateCountLine(line);
      if (sc) { if (isSsSpelling(sc.state)) other++; else stateCounts++; continue; }
      if (/^\s/.test(raw) && (COUNT_TEXT.test(line) || KEY_COUNT.test(line))) { counters++; continue; }
      const f = fields(line);
      if (f[0] && PROTO.test(f[0]) && /^\d+$/.test(f[1] ?? '') && /^\d+$/.test(f[2] ?? '')) { rows++; continue; }
      if (f[0] === 'unix' && /^\d+$/.test(f[1] ?? '')) { rows++; continue; }
      if (commandLine(line, TOOLS, { bare: true })) continue;
      other++;
    }
    if (inetHead || active) return 0.95;
    if (sections >= 2 && counters >= 3) return 0.95;
    if (sections >= 1 && counters >= 3 && counters >= other) return 0.7;
    if (rows >= 3 && rows >= other) return 0.6;
    if (stateCounts >= 1 && stateCounts >= other && sections === 0) return 0.5;
    return 0;
  },
  open(): LineSink {
    const out: ParseOutput = emptyOutput();
    const counter = new SocketCounter();
    const metrics: Metric[] = [];
    const counterRows: (string | number)[][] = [];
    let mode: 'none' | 'inet' | 'unix' | 'other' | 'stats' | 'iface' = 'none';
    let ifaceCols: string[] = [];
    const ifaceRows: (string | number)[][] = [];
    let section = '';
    let subsection = '';
    let unixCount = 0, unixFirst = 0, unixLast = 0;
    let unread = 0;
    let windows = false;
    let countsOnly = false;
    const known = new Map<string, { value: number; column: string; line: number }>();
    const bad = (lineNo: number, line: string) => {
      if (promptLine(out, line)) return;
      if (++unread <= 50) out.warnings.push(`line ${lineNo}: could not read "${line.slice(0, 80)}"`);
    };
    const counterValue = (text: string, value: number, lineNo: number) => {
      const phrase = text.trim();
      if (counterRows.length < 5000) counterRows.push([subsection ? `${section}/${subsection}` : section, phrase, value]);
      const k = KNOWN[section]?.[phrase.toLowerCase()];
      if (k && !known.has(k)) known.set(k, { value, column: phrase, line: lineNo });
    };
    return {
      line(text, lineNo) {
        const line = text.trim();
        if (!line) return;
        const c = commandLine(line, TOOLS, { bare: true });
        if (c) { out.command ??= c; return; }
        if (/^net-tools \d/.test(line)) { out.toolVersion = line; return; }
        const a = ACTIVE.exec(line);
        if (a) { mode = /internet|^connections$/i.test(a[1]!) ? 'inet' : /unix/i.test(a[1]!) ? 'unix' : 'other'; return; }
        // translated section headings (de: "Aktive Internetverbindungen (Server und stehende Verbindungen)")
        if (mode !== 'stats' && !/^(?:unix|tcp|udp|raw)/i.test(line) && /^[^\d]*\([^)]*\)\s*$|[^\x00-\x7f]/.test(line) && !/\s\d+\s+\d+\s/.test(line)) {
          if (/internet/i.test(line)) mode = 'inet'; else if (/unix/i.test(line)) mode = 'unix';
          return;
        }
        if (/^Kernel Interface table$/.test(line)) { mode = 'iface'; return; }
        if (IFACE_HEAD.test(line)) { mode = 'iface'; ifaceCols = fields(line); return; }
        if (mode === 'iface') {
          const f = fields(line);
          // "eth0  1400  180762  0  0 0  171799  0  0  0 BMRU": the name, numbers, the flags last
          if (ifaceCols.length && f.length === ifaceCols.length && f.slice(1, -1).every((x) => /^\d+$/.test(x))) {
            const iface = f[0]!;
            ifaceRows.push(f.map((x, i) => (i === 0 || i === f.length - 1 ? x : Number(x))));
            ifaceCols.forEach((col, i) => {
              const name = IFACE_COLUMNS[col];
              if (name) out.metrics.push({ name, value: Number(f[i]), unit: 'count', labels: { iface }, column: col, lines: [lineNo, lineNo] });
            });
            return;
          }
          bad(lineNo, line);
          return;
        }
        if (INET_HEAD.test(line)) { mode = 'inet'; return; }
        if (WIN_HEAD.test(line)) { mode = 'inet'; windows = true; return; }
        if (UNIX_HEAD.test(line)) { mode = 'unix'; return; }
        const s = SECTION.exec(line);
        if (s && (SECTIONS.test(s[1]!) || mode === 'stats')) { mode = 'stats'; section = s[1]!; subsection = ''; return; }
        if (/^\(Not all processes could be identified|^will not be shown|^\(No info could be read/i.test(line)) return;
        if (mode === 'none' || countsOnly) {
          // "    301 TIME_WAIT" / "TIME_WAIT 301" from netstat … | awk | sort | uniq -c
          const sc = stateCountLine(line);
          if (sc) { countsOnly = true; counter.add(sc.state, '', lineNo, sc.count); return; }
        }
        if (mode === 'stats') {
          if (/histogram\w*:$/i.test(line)) { subsection = line.replace(/:$/, ''); return; }
          let m = COUNT_TEXT.exec(line);
          if (m) { subsection = ''; counterValue(m[2]!.trim(), num(m[1]), lineNo); return; }
          m = KEY_COUNT.exec(line);
          if (m) {
            // histogram entries are indented deeper than the section's own lines
            if (subsection && !/^ {8}|^\t\t/.test(text)) subsection = '';
            counterValue(m[1]!, num(m[2]), lineNo);
            return;
          }
          m = line.length < 300 ? TEXT_COUNT.exec(line) : null;
          if (m) { counterValue(`${m[1]} N ${m[3]}`, num(m[2]), lineNo); return; }
          bad(lineNo, line);
          return;
        }
        const f = fields(line);
        if (f[0] === 'unix' || (mode === 'unix' && /^\d+$/.test(f[1] ?? ''))) {
          unixCount++;
          if (!unixFirst) unixFirst = lineNo;
          unixLast = lineNo;
          return;
        }
        if (mode === 'other') return;
        if (windows && f[0] && /^(?:TCP|UDP)$/.test(f[0]) && f.length >= 3) {
          counter.add(f[0] === 'UDP' ? '' : f[3] ?? 'UNKNOWN', localPort(f[1]!), lineNo);
          return;
        }
        if (f[0] && PROTO.test(f[0]) && f.length >= 5 && /^\d+$/.test(f[1]!) && /^\d+$/.test(f[2]!)) {
          const st = f[5];
          const state = st !== undefined && STATES.has(st) ? st : '';
          counter.add(state === '' && f[0].startsWith('tcp') ? 'UNKNOWN' : state, localPort(f[3]!), lineNo);
          return;
        }
        bad(lineNo, line);
      },
      end() {
        if (unread > 50) out.warnings.push(`${unread - 50} more lines could not be read`);
        const tables: Record<string, Table> = {};
        counter.emit(out.metrics, tables, 'State');
        if (unixCount) out.metrics.push({ name: 'unix_sockets_total', value: unixCount, unit: 'count', column: 'Active UNIX domain sockets', lines: [unixFirst, unixLast] });
        for (const [name, k] of known) metrics.push({ name, value: k.value, unit: 'count', column: k.column, lines: [k.line, k.line] });
        const sent = known.get('tcp_segments_sent');
        const retr = known.get('tcp_segments_retransmitted');
        if (sent && retr && sent.value > 0) {
          metrics.push({ name: 'tcp_retransmit_ratio', value: retr.value / sent.value, unit: 'ratio', column: `${retr.column} / ${sent.column}`, lines: [Math.min(sent.line, retr.line), Math.max(sent.line, retr.line)] });
        }
        out.metrics.push(...metrics);
        if (counterRows.length) tables.counters = { title: 'netstat -s counters', columns: ['section', 'counter', 'value'], rows: counterRows };
        if (ifaceRows.length) tables.interfaces = { title: 'netstat -i', columns: ifaceCols, rows: ifaceRows };
        if (Object.keys(tables).length) out.tables = tables;
        return warnIfEmpty(out, 'netstat sockets or counters');
      },
    };
  },
};
