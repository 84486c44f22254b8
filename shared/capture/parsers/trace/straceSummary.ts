/**
 * strace -c / -C / -w / -S / -U summary tables (strace 4.x … 6.x), per personality.
 * See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric } from '../../types';
import { commandLine, emptyOutput, fields, lookupTable, metric, num } from '../kit';
import { snippet, table, Warnings } from './helpers';

/** the program whose prompt line ("$ strace …") names the capture's command */
const STRACE = ['strace'];

/** Column ids, from the header words strace prints. */
const HEAD_WORDS = lookupTable({
  '%time': 'time_percent', '%': 'time_percent', seconds: 'seconds', 'usecs/call': 'usecs_per_call', calls: 'calls',
  errors: 'errors', syscall: 'syscall', 'syscall(s)': 'syscall', shortest: 'min_seconds', longest: 'max_seconds',
  'avg(us)': 'usecs_per_call', 'total(s)': 'seconds', 'min(us)': 'min_usecs', 'max(us)': 'max_usecs',
});

/** Is this line a summary header? Returns the column ids in order, or null. */
export function summaryHeader(line: string): string[] | null {
  if (!/\bcalls\b/.test(line) || !/\bsyscall/.test(line)) return null;
  const t = line.trim().replace(/^%\s+time\b/, '%time').replace(/\s%\s+time\b/, ' %time');
  const cols: string[] = [];
  for (const w of fields(t)) {
    const id = HEAD_WORDS[w];
    if (!id) return null;
    cols.push(id);
  }
  return cols.includes('calls') && cols.includes('syscall') ? cols : null;
}

const DASHES = /^[-\s]+$/;
const PERSONALITY = /^System call usage summary for (.+?) mode:?\s*$/;

function detect(head: readonly string[]): number {
  const n = Math.min(head.length, 2000);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (summaryHeader(l) && i + 1 < head.length && DASHES.test(head[i + 1]!) && head[i + 1]!.includes('------')) return 0.97;
    if (PERSONALITY.test(l.trim())) return 0.9;
  }
  return 0;
}

interface Row { syscall: string; calls: number; errors: number; seconds: number; timePct: number; usecs: number; min: number; max: number; line: number; personality: string; }

export class StraceSummarySink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private cols: string[] | null = null;
  private inTable = false;
  private personality = '';
  private rows: Row[] = [];
  private totals: Row[] = [];
  private sawTable = false;

  /** Is the sink inside a table (for strace-log, which hands summary lines over)? */
  get active(): boolean { return this.cols !== null; }

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    const pm = PERSONALITY.exec(t);
    if (pm) { this.personality = pm[1]!; this.cols = null; return; }
    const h = summaryHeader(text);
    if (h) { this.cols = h; this.inTable = false; this.sawTable = true; return; }
    if (!this.cols) {
      if (!this.sawTable && !this.out.command) {
        const c = commandLine(text, STRACE);
        if (c) { this.out.command = c; return; }
      }
      const vm = /^strace -- version (\S+)/.exec(t);
      if (vm) { this.out.toolVersion = 'strace ' + vm[1]!; return; }
      return; // trace lines (-C), program output, "strace: Process N attached": not part of the summary
    }
    if (DASHES.test(t)) { this.inTable = true; return; }
    const f = fields(text);
    const cols = this.cols;
    const nameIdx = cols.indexOf('syscall');
    let name: string;
    let nums: string[];
    if (nameIdx === cols.length - 1) { name = f[f.length - 1]!; nums = f.slice(0, -1); } else if (nameIdx === 0) { name = f[0]!; nums = f.slice(1); } else { name = f[nameIdx] ?? ''; nums = f.filter((_, i) => i !== nameIdx); }
    const numCols = cols.filter((c) => c !== 'syscall');
    let vals: (string | undefined)[];
    if (nums.length === numCols.length) vals = nums;
    else if (nums.length === numCols.length - 1 && numCols.includes('errors')) {
      // the errors column is blank when a syscall never failed
      const ei = numCols.indexOf('errors');
      vals = [...nums.slice(0, ei), '0', ...nums.slice(ei)];
    } else { this.bad(text, lineNo); return; }
    const get = (id: string): number => { const i = numCols.indexOf(id); return i < 0 ? NaN : num(vals[i]); };
    if (!/^[A-Za-z_][\w:]*$/.test(name) || !Number.isFinite(get('calls'))) { this.bad(text, lineNo); return; }
    const row: Row = {
      syscall: name, calls: get('calls'), errors: Number.isFinite(get('errors')) ? get('errors') : 0,
      seconds: get('seconds'), timePct: get('time_percent'), usecs: get('usecs_per_call'),
      min: Number.isFinite(get('min_seconds')) ? get('min_seconds') : get('min_usecs') / 1e6,
      max: Number.isFinite(get('max_seconds')) ? get('max_seconds') : get('max_usecs') / 1e6,
      line: lineNo, personality: this.personality,
    };
    if (name === 'total') { this.totals.push(row); this.cols = null; this.inTable = false; return; }
    this.rows.push(row);
  }

  private bad(text: string, lineNo: number): void {
    this.w.add(`line ${lineNo}: could not read summary row "${snippet(text)}"`);
  }

  /** metrics + table for the rows read; shared with strace-log for -C captures. */
  results(): { metrics: Metric[]; rows: (string | number | null)[][]; columns: string[] } {
    const metrics: Metric[] = [];
    const multi = new Set([...this.rows, ...this.totals].map((r) => r.personality)).size > 1;
    const lab = (r: Row, extra?: Record<string, string>): Record<string, string> => ({ ...extra, ...(multi && r.personality ? { personality: r.personality } : {}) });
    // one syscall can appear in several tables (per personality) — keep them apart by label
    for (const r of this.rows) {
      const l = lab(r, { syscall: r.syscall });
      metrics.push(metric('syscall_calls_total', r.calls, 'count', { labels: l, column: 'calls', lines: r.line }));
      metrics.push(metric('syscall_errors_total', r.errors, 'count', { labels: l, column: 'errors', lines: r.line }));
      if (Number.isFinite(r.seconds)) metrics.push(metric('syscall_seconds_total', r.seconds, 's', { labels: l, column: 'seconds', lines: r.line }));
      if (Number.isFinite(r.timePct)) metrics.push(metric('syscall_time_percent', r.timePct, '%', { labels: l, column: '% time', lines: r.line }));
    }
    for (const r of this.totals) {
      const l = lab(r);
      metrics.push(metric('syscall_calls_total', r.calls, 'count', { labels: l, column: 'total calls', lines: r.line }));
      metrics.push(metric('syscall_errors_total', r.errors, 'count', { labels: l, column: 'total errors', lines: r.line }));
      if (Number.isFinite(r.seconds)) metrics.push(metric('syscall_seconds_total', r.seconds, 's', { labels: l, column: 'total seconds', lines: r.line }));
    }
    const columns = ['syscall', 'calls', 'errors', 'seconds', 'time_percent', 'usecs_per_call', 'min_seconds', 'max_seconds', 'personality'];
    const f = (x: number): number | null => (Number.isFinite(x) ? x : null);
    const rows = [...this.rows, ...this.totals].map((r) => [r.syscall, r.calls, r.errors, f(r.seconds), f(r.timePct), f(r.usecs), f(r.min), f(r.max), r.personality || null]);
    return { metrics, rows, columns };
  }

  end() {
    const out = this.out;
    const r = this.results();
    out.metrics = r.metrics;
    if (r.rows.length) out.tables = { syscalls: table(r.columns, r.rows, 'strace -c summary') };
    else this.w.add('no strace -c summary table found');
    out.warnings = this.w.done();
    return out;
  }
}

export const straceSummaryParser: CaptureParser = {
  id: 'strace-summary',
  title: 'strace -c (syscall summary)',
  commands: [{ program: 'strace', args: /(?:^|\s)(?:-[a-zA-Z]*[cC][a-zA-Z]*|--summary-only|--summary(?:-wall-clock)?)(?:\s|=|$)/ }],
  detect,
  open: () => new StraceSummarySink(),
};
