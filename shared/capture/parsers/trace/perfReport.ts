/**
 * perf report --stdio: header (# Samples / # Event count / --header facts), the column header and its dotted
 * ruler (which gives the column spans for any --sort key set), entry rows with Children/Self or Overhead,
 * and the call-graph art under each entry (kept as chains). See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric } from '../../types';
import { promptCommand } from '../../text';
import { emptyOutput, metric, snippet, table, Warnings } from './helpers';

const SAMPLES = /^#\s*Samples:\s*([\d.,]+)\s*([KMG])?\s+of event\s+'([^']*)'/;
const TOP_N = 20;
const MAX_CHAINS = 2000;

function detect(head: readonly string[]): number {
  let s = 0;
  const n = Math.min(head.length, 200);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (SAMPLES.test(l)) s += 0.6;
    else if (/^#\s+(Overhead|Children)\s+\S/.test(l)) s += 0.35;
    else if (/^#\s+Event count \(approx\.\):/.test(l)) s += 0.2;
    else if (/^# To display the perf\.data header info/.test(l)) s += 0.3;
    if (s >= 0.95) break;
  }
  return Math.min(0.97, s);
}

const COLUMN_KEY: Record<string, string> = {
  Children: 'children_percent', Self: 'self_percent', Overhead: 'overhead_percent', Samples: 'samples', Period: 'period',
  Command: 'command', 'Shared Object': 'object', Symbol: 'symbol', Pid: 'pid', 'Pid:Command': 'pid_command', Tid: 'tid',
  CPU: 'cpu', 'Source:Line': 'srcline', Trace: 'trace', 'Data Symbol': 'data_symbol', 'Data Object': 'data_object',
  'Local Weight': 'local_weight', 'Memory access': 'mem', 'Branch Mispredicted': 'mispredict',
};

interface Node { col: number; syms: string[]; pct: number; hasChild: boolean; }

class PerfReportSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private header: string | null = null;
  private spans: { name: string; start: number; end: number }[] | null = null;
  private rows: (string | number | null)[][] = [];
  private entryKeys: string[] = [];
  private event = '';
  private events: { event: string; samples: number; count?: number; lost?: number; line: number }[] = [];
  private chains: (string | number | null)[][] = [];
  private stack: Node[] = [];
  private entry: { idx: number; pct: number; label: string } | null = null;

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') { this.flushChain(); return; }
    if (t.startsWith('#')) { this.hashLine(text, t, lineNo); return; }
    // -g folded: "8.73% a;b;c" at column 0 under an entry
    const fm = this.entry ? /^(\d+(?:\.\d+)?)% (\S.*)$/.exec(text) : null;
    if (fm) {
      const syms = fm[2]!.split(';');
      if (this.chains.length < MAX_CHAINS) this.chains.push([this.entry!.idx, this.entry!.label, Number(fm[1]), syms.length, syms.join(' <- ')]);
      return;
    }
    if (this.spans && /^\s*-?\d+(\.\d+)?%/.test(text)) { this.flushChain(); this.entryRow(text, lineNo); return; }
    if (this.entry && /^\s+(?:[|\s-]|\S)/.test(text)) { this.graphLine(text); return; }
    if (!this.header && !this.out.command) {
      const c = promptCommand(text, ['perf']);
      if (c) { this.out.command = c; return; }
    }
    if (/^(Warning|Error|Tip|Failed|no symbols found|\[ perf record)/i.test(t)) return;
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  private hashLine(text: string, t: string, lineNo: number): void {
    this.flushChain();
    this.entry = null;
    const sm = SAMPLES.exec(t);
    if (sm) {
      const mul = sm[2] === 'K' ? 1e3 : sm[2] === 'M' ? 1e6 : sm[2] === 'G' ? 1e9 : 1;
      this.event = sm[3]!;
      this.events.push({ event: sm[3]!, samples: Math.round(Number(sm[1]!.replace(/,/g, '')) * mul), line: lineNo });
      this.spans = null;
      return;
    }
    const cm = /^#\s*Event count \(approx\.\):\s*(\d+)/.exec(t);
    if (cm && this.events.length) { this.events[this.events.length - 1]!.count = Number(cm[1]); return; }
    const lm = /^#\s*Total Lost Samples:\s*(\d+)/.exec(t);
    if (lm) { this.out.facts.perf_lost_samples = Number(lm[1]); return; }
    const hm = /^#\s+([a-z][a-z ]*[a-z])\s+:\s+(.*)$/.exec(t);
    if (hm) { this.headerFact(hm[1]!, hm[2]!.trim()); return; }
    if (/^#\s+(Children|Self|Overhead|Samples|Period)\b/.test(t)) { this.header = text; this.spans = null; return; }
    if (this.header && /^#\s*\.{2,}/.test(t)) {
      // the dotted ruler gives the spans of the columns named by the header line
      const spans: { name: string; start: number; end: number }[] = [];
      const re = /\.+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text))) spans.push({ name: '', start: m.index, end: m.index + m[0].length });
      for (let i = 0; i < spans.length; i++) {
        const s = spans[i]!;
        const e = i + 1 < spans.length ? spans[i + 1]!.start : this.header.length;
        s.name = this.header.slice(s.start, Math.max(s.end, e)).trim();
      }
      this.spans = spans;
      this.entryKeys = spans.map((s) => COLUMN_KEY[s.name] ?? s.name.toLowerCase().replace(/[^a-z0-9]+/g, '_'));
    }
  }

  private headerFact(key: string, value: string): void {
    const f = this.out.facts;
    switch (key) {
      case 'hostname': f.hostname = value; break;
      case 'os release': f.kernel = value; break;
      case 'perf version': this.out.toolVersion = `perf ${value}`; break;
      case 'arch': f.arch = value; break;
      case 'nrcpus online': f.cpu_threads = Number(value); break;
      case 'cpudesc': f.cpu_model = value; break;
      case 'total memory': { const m = /^(\d+)\s*kB$/.exec(value); if (m) f.memory_total_bytes = Number(m[1]) * 1024; break; }
      case 'cmdline': f.perf_record_command = value; break;
      case 'sample duration': { const m = /^([\d.]+)\s*ms$/.exec(value); if (m) f.perf_sample_duration_seconds = Number(m[1]) / 1000; break; }
      default: break;
    }
  }

  private entryRow(text: string, lineNo: number): void {
    const spans = this.spans!;
    const row: (string | number | null)[] = [this.event];
    const cells: string[] = [];
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      const end = i + 1 < spans.length ? spans[i + 1]!.start : text.length;
      cells.push(text.slice(s.start, end).trim());
    }
    // a cell that overflowed its span (very long names) shifts the next ones: fall back to splitting on 2+ spaces
    if (cells.some((c, i) => i < cells.length - 1 && c === '') || /\S$/.test(text.slice(0, (spans[1]?.start ?? 1) - 1))) {
      const parts = text.trim().split(/\s{2,}/);
      if (parts.length >= spans.length) { cells.length = 0; cells.push(...parts.slice(0, spans.length - 1), parts.slice(spans.length - 1).join('  ')); }
      // a row cut short ("    2.94%  ls") and shifted: its percentage is not where the header says; take its words in order
      else if (!/^-?[\d.]+%?$/.test(cells[0]!) && /^-?[\d.]+%$/.test(parts[0]!)) { cells.length = 0; cells.push(...parts, ...Array<string>(spans.length - parts.length).fill('')); }
    }
    for (let i = 0; i < cells.length; i++) {
      const k = this.entryKeys[i]!;
      const c = cells[i]!;
      if (k.endsWith('_percent')) row.push(Number(c.replace('%', '')));
      else if (k === 'samples' || k === 'period') row.push(Number(c));
      else row.push(c);
    }
    row.push(lineNo);
    if (this.rows.length < 100_000) this.rows.push(row);
    const idx = this.rows.length;
    const iSelf = this.entryKeys.indexOf('self_percent');
    const iOver = this.entryKeys.indexOf('overhead_percent');
    const iCh = this.entryKeys.indexOf('children_percent');
    const pctIdx = iCh >= 0 ? iCh : iOver >= 0 ? iOver : iSelf;
    const pct = pctIdx >= 0 ? Number(row[pctIdx + 1]) : NaN;
    const label = ['command', 'symbol'].map((k) => { const i = this.entryKeys.indexOf(k); return i >= 0 ? String(row[i + 1]) : ''; }).filter(Boolean).join(' ');
    this.entry = { idx, pct, label };
    this.stack = [];
  }

  private graphLine(text: string): void {
    if (!this.entry) return;
    let i = 0;
    const n = text.length;
    while (i < n && (text[i] === ' ' || text[i] === '|')) i++;
    if (i >= n) return; // "|   |" spacer lines
    const rest = text.slice(i);
    if (rest.startsWith('---')) {
      this.flushChain();
      this.stack = [{ col: i + 3, syms: [rest.slice(3).trim()], pct: this.entry.pct, hasChild: false }];
      return;
    }
    const bm = /^--(-?[\d.]+)%--(.*)$/.exec(rest);
    if (bm) {
      const col = i + 10;
      if (!this.stack.length) this.stack.push({ col: -1, syms: [], pct: this.entry.pct, hasChild: false });
      while (this.stack.length > 1 && this.stack[this.stack.length - 1]!.col >= col) this.pop();
      const parent = this.stack[this.stack.length - 1]!;
      parent.hasChild = true;
      this.stack.push({ col, syms: [...parent.syms, bm[2]!.trim()], pct: Number(bm[1]), hasChild: false });
      return;
    }
    if (/^[\d.]+%\s/.test(rest)) return; // -g folded/flat percentages: not kept
    while (this.stack.length > 1 && this.stack[this.stack.length - 1]!.col > i) this.pop();
    const top = this.stack[this.stack.length - 1];
    if (top) top.syms.push(rest.trim());
  }

  private pop(): void {
    const node = this.stack.pop();
    if (node && !node.hasChild && node.syms.length && this.entry && this.chains.length < MAX_CHAINS) {
      this.chains.push([this.entry.idx, this.entry.label, node.pct, node.syms.length, node.syms.join(' <- ')]);
    }
  }

  private flushChain(): void {
    while (this.stack.length) this.pop();
  }

  end() {
    this.flushChain();
    const out = this.out;
    const metrics: Metric[] = [];
    const multi = this.events.length > 1;
    for (const e of this.events) {
      const l = multi ? { event: e.event } : undefined;
      if (!multi) out.facts.perf_event = e.event;
      metrics.push(metric('samples_total', e.samples, 'count', l, 'Samples', [e.line, e.line]));
      if (e.count !== undefined) metrics.push(metric('event_count_total', e.count, 'count', l, 'Event count (approx.)', [e.line, e.line]));
    }
    const keys = this.entryKeys;
    const iSelf = keys.indexOf('self_percent');
    const iOver = keys.indexOf('overhead_percent');
    const iCh = keys.indexOf('children_percent');
    const selfIdx = (iOver >= 0 ? iOver : iSelf) + 1;
    const labelKeys = ['command', 'object', 'symbol', 'pid', 'pid_command', 'tid', 'cpu', 'srcline'];
    const byPct = this.rows.slice().sort((a, b) => Number(b[selfIdx]) - Number(a[selfIdx]));
    for (const r of byPct.slice(0, TOP_N)) {
      const labels: Record<string, string> = {};
      for (const k of labelKeys) { const i = keys.indexOf(k); if (i >= 0) labels[k] = String(r[i + 1]); }
      if (multi) labels.event = String(r[0]);
      const line = Number(r[r.length - 1]);
      if (selfIdx > 0) metrics.push(metric('overhead_percent', Number(r[selfIdx]), '%', labels, keys[selfIdx - 1] === 'self_percent' ? 'Self' : 'Overhead', [line, line]));
      if (iCh >= 0) metrics.push(metric('children_percent', Number(r[iCh + 1]), '%', labels, 'Children', [line, line]));
    }
    out.metrics = metrics;
    out.tables = {};
    if (keys.length) out.tables.entries = table(['event', ...keys, 'line'], this.rows, 'perf report rows (percentages as numbers)');
    if (this.chains.length) out.tables.callchains = table(['entry', 'entry_label', 'percent', 'depth', 'chain'], this.chains, 'call chains under each entry, frames in printed order');
    if (!this.events.length && !this.rows.length) this.w.add('no perf report rows found');
    out.warnings = this.w.done();
    return out;
  }
}

export const perfReportParser: CaptureParser = {
  id: 'perf-report',
  title: 'perf report --stdio',
  detect,
  open: () => new PerfReportSink(),
};
