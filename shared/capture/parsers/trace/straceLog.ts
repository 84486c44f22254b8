/**
 * Raw strace logs: strace [-f] [-t|-tt|-ttt|-r] [-T] [-y] [-o file | -ff -o prefix], with "[pid N]" or "N " pid
 * prefixes, <unfinished ...> / <... resumed> pairs, signals, exits. Counts calls, errors and -T time per
 * syscall and per pid. Lines are scanned from the end for the result, so argument strings never need to be
 * understood. See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric } from '../../types';
import { commandLine, emptyOutput, metric } from '../kit';
import { StraceSummarySink } from './straceSummary';
import { isJsSpace } from '../../text';
import { snippet, table, Warnings } from './helpers';

/** the program whose prompt line ("$ strace …") names the capture's command */
const STRACE = ['strace'];

/**
 * [pid N] or "N " (-f with -o), then a -t/-tt/-ttt/-r timestamp (µs or ns), then -i "[ip]" / -n "[ nr]" brackets.
 * Every part is optional and anchored, so this never backtracks far.
 */
const PREFIX = /^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+(?=\S))?(?:(\d{1,2}:\d{2}:\d{2}(?:\.\d+)?)\s+|(\d{9,}\.\d+)\s+|\s*(\d+\.\d{6,9})\s+)?(?:\[[^\]\s]{1,20}\]\s+|\[\s*\d{1,4}\]\s+){0,2}/;
const RESUMED = /^<\.\.\. ([a-z_][a-z0-9_]*) resumed>/;
const RESULT_TAIL = /^\s*(-?\d+|0x[0-9a-fA-F]+|\?)(?:<[^>]*>)?(?:\s+(E[A-Z0-9_]+|ERESTART\w*)\b)?/;

/** The system call a line starts with: what /^([a-z_][a-z0-9_]*)\(/ captures, or null (read without a match array). */
export function callName(rest: string): string | null {
  const c0 = rest.charCodeAt(0);
  if (!((c0 >= 97 && c0 <= 122) || c0 === 95)) return null;
  let i = 1;
  for (; i < rest.length; i++) {
    const c = rest.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95)) break;
  }
  return rest.charCodeAt(i) === 40 ? rest.slice(0, i) : null;
}

/**
 * The -T time at the end of a result ("= 0 <0.000224>"), as /<(\d+\.\d+)>\s*$/ reads it, or NaN:
 * the last non-space character is ">", and the run of digits and one dot before it follows a "<".
 */
export function duration(tail: string): number {
  let end = tail.length;
  while (end > 0 && isJsSpace(tail.charCodeAt(end - 1))) end--;
  if (end === 0 || tail.charCodeAt(end - 1) !== 62) return NaN;
  let dot = -1;
  let i = end - 2;
  for (; i >= 0; i--) {
    const c = tail.charCodeAt(i);
    if (c === 46) {
      if (dot >= 0) return NaN;
      dot = i;
    } else if (c < 48 || c > 57) break;
  }
  if (i < 0 || tail.charCodeAt(i) !== 60 || dot < 0 || dot === i + 1 || dot === end - 2) return NaN;
  return Number(tail.slice(i + 1, end - 1));
}

/** The number of one or two ASCII digits at s[from, to), as Number() reads them; NaN otherwise. */
function smallInt(s: string, from: number, to: number): number {
  if (to - from < 1 || to - from > 2) return Number(s.slice(from, to));
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

function detect(head: readonly string[]): number {
  let good = 0;
  let total = 0;
  const n = Math.min(head.length, 500);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    const lt = l.trim();
    if (lt === '' || lt.startsWith('> ') || lt.startsWith('strace: ')) continue;
    total++;
    const p = PREFIX.exec(l);
    const rest = p ? l.slice(p[0].length) : l;
    if ((callName(rest) !== null && (/\)\s+=\s+\S/.test(rest) || rest.endsWith('<unfinished ...>'))) || RESUMED.test(rest) || /^(---|\+\+\+) /.test(rest)) good++;
  }
  if (good >= 3 && good >= total * 0.5) return 0.9;
  if (good >= 2 && good >= total * 0.3) return 0.6;
  if (good >= 1) return 0.3;
  return 0;
}

interface Acc { calls: number; errors: number; seconds: number; timed: number; first: number; last: number; }
const newAcc = (line: number): Acc => ({ calls: 0, errors: 0, seconds: 0, timed: 0, first: line, last: line });

class StraceLogSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private bySyscall = new Map<string, Acc>();
  private byPid = new Map<string, Acc>();
  private errnos = new Map<string, number>();
  private signals = new Map<string, number>();
  private exits: (string | number | null)[][] = [];
  private unfinished = 0;
  private resumed = 0;
  private filePid = '';
  private firstTs = NaN;
  private lastTs = NaN;
  private dayOffset = 0;
  private prevClock = NaN;
  private relSum = 0;
  private relative = false;
  private summary = new StraceSummarySink();
  private inSummary = false;
  private sawCall = false;
  /** the first and last lines of the calls counted (-1: none yet) */
  private allFirst = -1;
  private allLast = -1;
  private cut: string | null = null;

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    // a -C summary at the end of a log: hand it to the summary reader
    // (each pattern tried only on a line that starts with its first word: most lines start with a pid, a time or a call)
    if (this.inSummary || (t.startsWith('% time') && /^% time\s+seconds/.test(t)) || (t.startsWith('syscall') && /^syscall\s+calls\s/.test(t))
      || t.startsWith('System call usage summary')) {
      this.inSummary = true;
      this.summary.line(text, lineNo);
      if (t.startsWith('100.00') || /\stotal$/.test(t) || /^total\s/.test(t)) this.inSummary = /^System call usage/.test(t);
      return;
    }
    const hm = t.startsWith('==> ') ? /^==> .*?(\d+) <==$/.exec(t) : null;
    if (hm) { this.filePid = hm[1]!; return; }
    const sp = t.indexOf('strace: ');
    if (sp === 0) {
      const vm = /^strace -- version (\S+)/.exec(t);
      if (vm) this.out.toolVersion = 'strace ' + vm[1]!;
      return;
    }
    if (t.startsWith('> ') && this.sawCall) return; // -k stack frames under a call
    // strace 4.x "Process 1234 attached", personality switches "[ Process PID=1234 runs in 32 bit mode. ]"
    if ((t.startsWith('Process ') && /^Process \d+ (attached|detached|suspended)/.test(t)) || (t.startsWith('[ Process PID=') && /^\[ Process PID=\d+ runs in /.test(t))) return;
    if (t === '<unfinished ...>') { this.cut = null; return; } // the tail of a line cut by "strace: Process N attached"
    if (this.cut) {
      // "clone(child_stack=NULL, flags=…strace: Process 13311 attached" + ", child_tidptr=…) = 13311": join the halves
      const head = this.cut;
      this.cut = null;
      const p0 = PREFIX.exec(text);
      const rest0 = p0 ? text.slice(p0[0].length) : text;
      if (callName(rest0) === null && !RESUMED.test(rest0) && !rest0.startsWith('--- ') && !rest0.startsWith('+++ ')) { this.line(head + text, lineNo); return; }
    }
    if (t.startsWith('strace -- version ') && /^strace -- version (\S+)/.test(t)) { this.out.toolVersion = 'strace ' + /^strace -- version (\S+)/.exec(t)![1]!; return; }
    let line = text;
    if (sp > 0) line = text.slice(0, text.indexOf('strace: '));
    const p = PREFIX.exec(line);
    const pid = p?.[1] ?? p?.[2] ?? (this.filePid || '-');
    if (p) this.clock(p, lineNo);
    const rest = p ? line.slice(p[0].length) : line;
    if (rest.startsWith('--- ')) {
      const sm = /^--- (SIG[A-Z0-9+-]+|stopped by \S+)/.exec(rest);
      if (sm) this.signals.set(sm[1]!, (this.signals.get(sm[1]!) ?? 0) + 1);
      return;
    }
    if (rest.startsWith('+++ ')) {
      const em = /^\+\+\+ (exited with (-?\d+)|killed by (\S+))/.exec(rest);
      if (em) this.exits.push([pid, em[2] !== undefined ? Number(em[2]) : null, em[3] ?? null, lineNo]);
      return;
    }
    let name: string | undefined;
    const rm = rest.charCodeAt(0) === 60 ? RESUMED.exec(rest) : null; // "<"
    if (rm) { name = rm[1]!; this.resumed++; }
    else {
      const cn = callName(rest);
      if (cn !== null) {
        name = cn;
        if (rest.endsWith('<unfinished ...>')) { this.unfinished++; this.sawCall = true; return; }
        if (sp > 0) { this.sawCall = true; this.cut = line; return; } // "vfork(strace: Process 13308 attached": finished on the next line
      }
    }
    if (!name) {
      if (!this.sawCall && !this.out.command) {
        const c = commandLine(text, STRACE);
        if (c) { this.out.command = c; return; }
      }
      this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
      return;
    }
    // the result: the last " = " that follows the closing ")" of the call (strace pads with spaces before "=")
    let eqAt = -1;
    let from = rest.length;
    while (from > 0) {
      const e = rest.lastIndexOf(' = ', from);
      if (e < 0) break;
      let k = e;
      while (k > 0 && rest.charCodeAt(k - 1) === 32) k--;
      const prev = rest[k - 1];
      if (prev === ')' || (rm && prev === '>')) { eqAt = e + 3; break; }
      from = e - 1;
    }
    if (eqAt < 0) {
      // a call cut at the end of a truncated file, or garbage
      this.w.add(`line ${lineNo}: could not read the result of ${name}() "${snippet(text)}"`);
      return;
    }
    const tail = rest.slice(eqAt);
    const r = RESULT_TAIL.exec(tail);
    if (!r) { this.w.add(`line ${lineNo}: could not read the result of ${name}() "${snippet(text)}"`); return; }
    const errno = r[2];
    // exit/exit_group never return ("= ?"); strace -c does not count them either
    if (r[1] === '?' && (name === 'exit_group' || name === 'exit')) { this.sawCall = true; return; }
    const dur = duration(tail);
    this.sawCall = true;
    this.count(this.bySyscall, name, errno, dur, lineNo);
    this.count(this.byPid, pid, errno, dur, lineNo);
    if (errno) { const k = name + '\u0000' + errno; this.errnos.set(k, (this.errnos.get(k) ?? 0) + 1); }
    if (this.allFirst < 0) this.allFirst = lineNo;
    this.allLast = lineNo;
  }

  private count(m: Map<string, Acc>, key: string, errno: string | undefined, dur: number, lineNo: number): void {
    let a = m.get(key);
    if (!a) { a = newAcc(lineNo); if (m.size < 100_000) m.set(key, a); else return; }
    a.calls++;
    if (errno) a.errors++;
    if (Number.isFinite(dur)) { a.seconds += dur; a.timed++; }
    a.last = lineNo;
  }

  private clock(p: RegExpExecArray, _lineNo: number): void {
    let ts = NaN;
    if (p[3]) {
      const x = p[3];
      const a = x.indexOf(':'), b = x.indexOf(':', a + 1);
      let v = smallInt(x, 0, a) * 3600 + smallInt(x, a + 1, b) * 60 + Number(x.slice(b + 1));
      if (Number.isFinite(this.prevClock) && v + this.dayOffset < this.prevClock - 43200) this.dayOffset += 86400;
      v += this.dayOffset;
      this.prevClock = v;
      ts = v;
    } else if (p[4]) ts = Number(p[4]);
    else if (p[5]) { this.relative = true; this.relSum += Number(p[5]); ts = this.relSum; }
    if (!Number.isFinite(ts)) return;
    if (!Number.isFinite(this.firstTs)) this.firstTs = ts;
    this.lastTs = ts;
  }

  end() {
    const out = this.out;
    const metrics: Metric[] = [];
    let calls = 0, errors = 0, seconds = 0, timed = 0;
    const sorted = [...this.bySyscall.entries()].sort((a, b) => b[1].calls - a[1].calls);
    for (const [sc, a] of sorted) {
      const lines: [number, number] = [a.first, a.last];
      metrics.push(metric('syscall_calls_total', a.calls, 'count', { labels: { syscall: sc }, column: 'calls', lines }));
      metrics.push(metric('syscall_errors_total', a.errors, 'count', { labels: { syscall: sc }, column: 'errors', lines }));
      if (a.timed) metrics.push(metric('syscall_seconds_total', round9(a.seconds), 's', { labels: { syscall: sc }, column: '<time>', lines }));
      calls += a.calls; errors += a.errors; seconds += a.seconds; timed += a.timed;
    }
    for (const [k, n] of this.errnos) {
      const [sc, errno] = k.split('\u0000') as [string, string];
      metrics.push(metric('syscall_errno_total', n, 'count', { labels: { syscall: sc, errno }, column: 'errno' }));
    }
    const allRange: [number, number] | undefined = this.allFirst >= 0 ? [this.allFirst, this.allLast] : undefined;
    if (calls) {
      metrics.push(metric('syscall_calls_total', calls, 'count', { column: 'calls', lines: allRange }));
      metrics.push(metric('syscall_errors_total', errors, 'count', { column: 'errors', lines: allRange }));
      if (timed) metrics.push(metric('syscall_seconds_total', round9(seconds), 's', { column: '<time>', lines: allRange }));
    }
    for (const [sig, n] of this.signals) metrics.push(metric('signals_total', n, 'count', { labels: { signal: sig }, column: sig }));
    if (Number.isFinite(this.firstTs) && this.lastTs >= this.firstTs && (this.relative || this.lastTs > this.firstTs)) {
      metrics.push(metric('trace_duration_seconds', Math.round((this.lastTs - this.firstTs) * 1e6) / 1e6, 's', { column: 'timestamps' }));
    }
    if (this.byPid.size) metrics.push(metric('processes_total', this.byPid.size, 'count', { column: 'pids' }));
    const f = (x: Acc): (number | null)[] => [x.calls, x.errors, x.timed ? Math.round(x.seconds * 1e6) / 1e6 : null, x.timed ? Math.round((x.seconds / x.timed) * 1e9) / 1e9 : null];
    out.tables = {
      syscalls: table(['syscall', 'calls', 'errors', 'seconds', 'seconds_per_call'], sorted.map(([k, a]) => [k, ...f(a)]), 'per syscall'),
      pids: table(['pid', 'calls', 'errors', 'seconds', 'seconds_per_call'], [...this.byPid.entries()].sort((a, b) => b[1].calls - a[1].calls).map(([k, a]) => [k, ...f(a)]), 'per pid ("-" = the first process when strace printed no pid)'),
      errors: table(['syscall', 'errno', 'count'], [...this.errnos.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [...(k.split('\u0000') as [string, string]), n]), 'failed calls by errno'),
    };
    if (this.exits.length) out.tables.exits = table(['pid', 'exit_code', 'killed_by', 'line'], this.exits);
    const sum = this.summary.results();
    if (sum.rows.length) {
      out.tables.summary = table(sum.columns, sum.rows, 'strace -C summary at the end of the log');
    }
    if (this.unfinished > this.resumed) out.warnings.push(`${this.unfinished - this.resumed} calls were never resumed (process killed or log cut)`);
    if (!calls) this.w.add('no system calls found');
    out.metrics = metrics;
    out.warnings.push(...this.w.done());
    return out;
  }
}

function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

export const straceLogParser: CaptureParser = {
  id: 'strace-log',
  title: 'strace log (-f -tt -T)',
  commands: [{ program: 'strace' }],
  detect,
  open: () => new StraceLogSink(),
};
