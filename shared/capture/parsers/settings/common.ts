/** Helpers shared by the settings/sockets parsers (sysctl, ulimit, ini, ss, netstat). Pure, never throw. */
import type { LineRange, Metric, ParseOutput, Table } from '../../types';
import { commandLine } from '../kit';

/** Trim and collapse runs of spaces/tabs to one space (used to compare setting values). */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t]+/g, ' ').trim();
}

/**
 * Socket state as a label: lowercase with underscores, same for ss and netstat spellings.
 * ss: ESTAB TIME-WAIT FIN-WAIT-1 SYN-RECV UNCONN …; netstat: ESTABLISHED TIME_WAIT FIN_WAIT1 …
 */
export function stateLabel(raw: string): string {
  const u = raw.trim().toUpperCase().replace(/-/g, '_');
  switch (u) {
    case 'ESTAB': case 'ESTABLISHED': return 'established';
    case 'FIN_WAIT1': case 'FIN_WAIT_1': return 'fin_wait_1';
    case 'FIN_WAIT2': case 'FIN_WAIT_2': return 'fin_wait_2';
    case 'SYN_RECV': case 'SYN_RECEIVED': return 'syn_recv';
    case 'SYN_SENT': return 'syn_sent';
    case 'TIME_WAIT': case 'TIMEWAIT': return 'time_wait';
    case 'CLOSE_WAIT': return 'close_wait';
    case 'LAST_ACK': return 'last_ack';
    case 'LISTEN': case 'LISTENING': return 'listen';
    case 'CLOSING': return 'closing';
    case 'CLOSE': case 'CLOSED': return 'closed';
    case 'UNCONN': case '': return 'unconn';
    case 'NEW_SYN_RECV': return 'new_syn_recv';
    case 'BOUND': return 'bound';
    default: return u.toLowerCase().replace(/[^a-z0-9_]+/g, '_') || 'unknown';
  }
}

/** TCP/UDP states as ss and netstat print them (upper case). */
export const SOCKET_STATES = new Set([
  'ESTAB', 'ESTABLISHED', 'SYN-SENT', 'SYN_SENT', 'SYN-RECV', 'SYN_RECV', 'FIN-WAIT-1', 'FIN_WAIT1', 'FIN-WAIT-2', 'FIN_WAIT2',
  'TIME-WAIT', 'TIME_WAIT', 'CLOSE', 'CLOSED', 'CLOSE-WAIT', 'CLOSE_WAIT', 'LAST-ACK', 'LAST_ACK', 'LISTEN', 'CLOSING',
  'UNCONN', 'UNKNOWN', 'NEW-SYN-RECV', 'BOUND',
]);

/**
 * A state-count line as shell one-liners print them: `… | awk '{print $6}' | sort | uniq -c`
 * ("    301 TIME_WAIT") or `awk '{++S[$NF]} END {for (a in S) print a, S[a]}'` ("TIME_WAIT 301").
 */
export function stateCountLine(line: string): { state: string; count: number } | undefined {
  const m = /^(\d+)\s+([A-Z][A-Z12_-]{2,15})$|^([A-Z][A-Z12_-]{2,15}):?\s+(\d+)$/.exec(line.trim());
  if (!m) return undefined;
  const state = m[2] ?? m[3]!;
  if (!SOCKET_STATES.has(state)) return undefined;
  return { state, count: Number(m[1] ?? m[4]) };
}

/** States only ss spells this way (netstat: ESTABLISHED, TIME_WAIT, no UNCONN). */
export function isSsSpelling(state: string): boolean {
  return state.includes('-') || state === 'ESTAB' || state === 'UNCONN';
}

/** The port of "127.0.0.1:80", "[::1]:80", ":::22", "fe80::1%eth0:53", "*:*"; '' when absent. */
export function portOf(addr: string): string {
  const i = addr.lastIndexOf(':');
  if (i < 0) return '';
  return addr.slice(i + 1);
}

/** Counts sockets by state and by local port, and builds the metrics/table both ss and netstat emit. */
export class SocketCounter {
  readonly byState = new Map<string, { column: string; count: number; first: number; last: number }>();
  readonly byPort = new Map<string, Map<string, number>>();
  total = 0;
  first = 0;
  last = 0;

  add(stateColumn: string, localAddr: string, lineNo: number, n = 1): void {
    const label = stateLabel(stateColumn);
    let s = this.byState.get(label);
    if (!s) { s = { column: stateColumn || 'UNCONN', count: 0, first: lineNo, last: lineNo }; this.byState.set(label, s); }
    s.count += n;
    s.last = lineNo;
    this.total += n;
    if (!this.first) this.first = lineNo;
    this.last = lineNo;
    const port = portOf(localAddr);
    if (port && port !== '*') {
      let m = this.byPort.get(port);
      if (!m) { m = new Map(); this.byPort.set(port, m); }
      m.set(label, (m.get(label) ?? 0) + 1);
    }
  }

  emit(metrics: Metric[], tables: Record<string, Table>, totalColumn: string): void {
    if (!this.total) return;
    const lines: LineRange = [this.first, this.last];
    metrics.push({ name: 'sockets_total', value: this.total, unit: 'count', column: totalColumn, lines });
    const states = [...this.byState.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
    for (const [label, s] of states) {
      metrics.push({ name: 'sockets_total', value: s.count, unit: 'count', labels: { state: label }, column: s.column, lines: [s.first, s.last] });
    }
    if (this.byPort.size) {
      const cols = states.map(([l]) => l);
      const rows: (string | number)[][] = [];
      for (const [port, m] of this.byPort) {
        let sum = 0;
        for (const v of m.values()) sum += v;
        rows.push([port, sum, ...cols.map((c) => m.get(c) ?? 0)]);
      }
      rows.sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0]), undefined, { numeric: true }));
      tables.connections_by_local_port = {
        title: 'sockets per local port (top 100)',
        columns: ['local_port', 'sockets', ...cols],
        rows: rows.slice(0, 100),
      };
    }
  }
}

/**
 * An unreadable line that is a shell prompt + command ("$ cat /etc/sysctl.conf"): take it as the
 * capture's command (the first one) instead of warning. Returns true when the line was one.
 */
export function promptLine(out: ParseOutput, line: string): boolean {
  const c = commandLine(line);
  if (!c) return false;
  out.command ??= c;
  return true;
}

/** Collapse repeated error lines into one warning (no warning storm). */
export class ErrorCounter {
  private readonly kinds = new Map<string, { count: number; first: number; example: string }>();
  add(kind: string, lineNo: number, example: string): void {
    const k = this.kinds.get(kind);
    if (k) k.count++; else this.kinds.set(kind, { count: 1, first: lineNo, example });
  }
  get size(): number { let n = 0; for (const k of this.kinds.values()) n += k.count; return n; }
  warnings(what: string): string[] {
    const out: string[] = [];
    for (const [kind, k] of this.kinds) {
      out.push(k.count === 1
        ? `line ${k.first}: ${what}: ${k.example}`
        : `${k.count} ${what} (${kind}), first on line ${k.first}: ${k.example}`);
    }
    return out;
  }
}

/** A sink that read nothing says so (an empty result must never look like a clean parse). */
export function warnIfEmpty(out: ParseOutput, what: string): ParseOutput {
  const empty = out.metrics.length === 0 && out.series.length === 0 && Object.keys(out.facts).length === 0
    && Object.keys(out.settings).length === 0 && Object.keys(out.tables ?? {}).length === 0;
  if (empty && out.warnings.length === 0) out.warnings.push(`no ${what} found`);
  return out;
}
