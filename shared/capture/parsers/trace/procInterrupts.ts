/**
 * /proc/interrupts: one snapshot, several snapshots in one file (repeated `cat`, pasted `watch` screens).
 * See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric, Series } from '../../types';
import { commandLine, emptyOutput, fields, metric } from '../kit';
import { snippet, table, Warnings } from './helpers';

const HEADER = /^\s*CPU\d+(\s+CPU\d+)*\s*$/;
const ROW = /^\s*([A-Za-z0-9_]+):(.*)$/;
const WATCH = /^Every\s+[\d.,]+s:\s*(.*)$/;

export interface IrqRow { irq: string; counts: number[]; description: string; }
export interface Snapshot { cpus: string[]; rows: Map<string, IrqRow>; first: number; last: number; time?: number; }

function detect(head: readonly string[]): number {
  let header = false;
  let rows = 0;
  let named = 0;
  const n = Math.min(head.length, 300);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (HEADER.test(l)) header = true;
    else if (/^\s*(NMI|LOC|RES|CAL|TLB|SPU|PMI|IWI|ERR|MIS):\s+\d/.test(l)) named++;
    else if (/^\s*\d+:\s+\d+/.test(l)) rows++;
  }
  if (header && named >= 2) return 0.97;
  if (header && rows >= 2) return 0.8;
  if (named >= 3) return 0.7;
  return 0;
}

/** Parse "Sun Nov 29 22:46:46 2026" (the date `watch` prints) → epoch ms (UTC), or undefined. */
function watchTime(s: string): number | undefined {
  const m = /(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})/.exec(s);
  if (!m) return undefined;
  const mon = 'JanFebMarAprMayJunJulAugSepOctNovDec'.indexOf(m[2]!) / 3;
  return Date.UTC(Number(m[7]), mon, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

class InterruptsSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  readonly snaps: Snapshot[] = [];
  private cur: Snapshot | null = null;
  private pendingTime: number | undefined;

  line(text: string, lineNo: number): void {
    if (text.trim() === '') return;
    if (HEADER.test(text)) {
      this.cur = { cpus: fields(text), rows: new Map(), first: lineNo, last: lineNo };
      if (this.pendingTime !== undefined) { this.cur.time = this.pendingTime; this.pendingTime = undefined; }
      this.snaps.push(this.cur);
      return;
    }
    const wm = WATCH.exec(text.trim());
    if (wm) {
      this.pendingTime = watchTime(wm[1]!);
      if (!this.out.command) this.out.command = 'watch ' + wm[1]!.split(/\s{2,}/)[0]!.trim();
      return;
    }
    const m = ROW.exec(text);
    if (m && this.cur) {
      const irq = m[1]!;
      const f = fields(m[2]!);
      const counts: number[] = [];
      let i = 0;
      for (; i < f.length && counts.length < this.cur.cpus.length; i++) {
        if (!/^\d+$/.test(f[i]!)) break;
        counts.push(Number(f[i]));
      }
      if (!counts.length) { this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`); return; }
      if (this.cur.rows.has(irq)) {
        // a repeated irq without a new header: a new snapshot that lost its header line
        const cpus = this.cur.cpus;
        this.cur = { cpus, rows: new Map(), first: lineNo, last: lineNo };
        this.snaps.push(this.cur);
      }
      this.cur.rows.set(irq, { irq, counts, description: f.slice(i).join(' ') });
      this.cur.last = lineNo;
      return;
    }
    if (!this.snaps.length) {
      const c = commandLine(text);
      if (c) { this.out.command = c; return; }
    }
    if (/^\s*\S+@\S+[:~].*[#$]\s*$/.test(text)) return; // a bare prompt
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  end() {
    const out = this.out;
    const snaps = this.snaps.filter((s) => s.rows.size > 0);
    if (!snaps.length) { this.w.add('no /proc/interrupts table found'); out.warnings = this.w.done(); return out; }
    const last = snaps[snaps.length - 1]!;
    const firstSnap = snaps[0]!;
    const metrics: Metric[] = [];
    /** "CPU3" → "3", the cpu label every per-CPU figure of Tunebook carries */
    const cpuLabel = (c: number) => (last.cpus[c] ?? `CPU${c}`).replace(/^CPU/i, '');
    for (const r of last.rows.values()) {
      metrics.push(metric('interrupts_total', sum(r.counts), 'count', { labels: labelsOf(r), column: r.irq, lines: [last.first, last.last] }));
      // every CPU's count of every row, not only the row's total
      for (let c = 0; r.counts.length === last.cpus.length && c < r.counts.length; c++) {
        metrics.push(metric('interrupts_per_cpu_total', r.counts[c]!, 'count', { labels: { ...labelsOf(r), cpu: cpuLabel(c) }, column: `${r.irq} ${last.cpus[c]}`, lines: [last.first, last.last] }));
      }
    }
    out.facts.cpu_threads = last.cpus.length;
    const cols = ['snapshot', 'irq', ...last.cpus, 'total', 'description'];
    const rows: (string | number | null)[][] = [];
    snaps.forEach((s, k) => {
      for (const r of s.rows.values()) {
        const cells: (string | number | null)[] = [k + 1, r.irq];
        for (let c = 0; c < last.cpus.length; c++) cells.push(r.counts[c] ?? null);
        cells.push(sum(r.counts), r.description);
        rows.push(cells);
      }
    });
    out.tables = { interrupts: table(cols, rows, 'counts per irq per cpu, per snapshot') };
    if (snaps.length >= 2) {
      const seconds = firstSnap.time !== undefined && last.time !== undefined && last.time > firstSnap.time ? (last.time - firstSnap.time) / 1000 : undefined;
      const drows: (string | number | null)[][] = [];
      for (const r of last.rows.values()) {
        const p = firstSnap.rows.get(r.irq);
        if (!p) continue;
        const d = sum(r.counts) - sum(p.counts);
        metrics.push(metric('interrupts_delta', d, 'count', { labels: labelsOf(r), column: r.irq, lines: [firstSnap.first, last.last] }));
        for (let c = 0; r.counts.length === last.cpus.length && c < r.counts.length; c++) {
          metrics.push(metric('interrupts_per_cpu_delta', (r.counts[c] ?? 0) - (p.counts[c] ?? 0), 'count', { labels: { ...labelsOf(r), cpu: cpuLabel(c) }, column: `${r.irq} ${last.cpus[c]}`, lines: [firstSnap.first, last.last] }));
        }
        if (seconds) metrics.push(metric('interrupts_per_second', d / seconds, '1/s', { labels: labelsOf(r), column: r.irq, lines: [firstSnap.first, last.last] }));
        const cells: (string | number | null)[] = [r.irq];
        for (let c = 0; c < last.cpus.length; c++) cells.push((r.counts[c] ?? 0) - (p.counts[c] ?? 0));
        cells.push(d, r.description);
        drows.push(cells);
      }
      out.tables.delta = table(['irq', ...last.cpus, 'total', 'description'], drows, 'last snapshot minus first');
      const series: Series[] = [];
      const seen = new Set<string>();
      for (const s of snaps) for (const irq of s.rows.keys()) seen.add(irq);
      const times = snaps.every((s) => s.time !== undefined) ? snaps.map((s) => s.time!) : undefined;
      for (const irq of seen) {
        const ref = last.rows.get(irq) ?? firstSnap.rows.get(irq);
        const sr: Series = {
          name: 'interrupts_total', column: irq, unit: 'count',
          labels: ref ? labelsOf(ref) : { irq },
          values: snaps.map((s) => { const r = s.rows.get(irq); return r ? sum(r.counts) : NaN; }),
          lines: [firstSnap.first, last.last],
        };
        if (times) sr.times = times;
        series.push(sr);
      }
      out.series = series;
    }
    out.metrics = metrics;
    out.warnings = this.w.done();
    return out;
  }
}

function sum(a: number[]): number {
  let s = 0;
  for (const x of a) s += x;
  return s;
}

function labelsOf(r: IrqRow): Record<string, string> {
  return r.description ? { irq: r.irq, description: r.description } : { irq: r.irq };
}

export const procInterruptsParser: CaptureParser = {
  id: 'proc-interrupts',
  title: '/proc/interrupts',
  commands: [{ program: 'cat', args: /\/proc\/interrupts\b/ }],
  detect,
  open: () => new InterruptsSink(),
};
