/**
 * perf script: sample header lines "comm pid[/tid] [cpu] time: [period] event:" followed by indented stack
 * frames "addr sym+off (dso)", or one line per sample without call graphs. Stacks are folded
 * ("comm;outer;…;leaf count", as stackcollapse-perf.pl makes them) for a flame graph. See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric } from '../../types';
import { commandLine, emptyOutput, metric } from '../kit';
import { isJsSpace } from '../../text';
import { snippet, table, Warnings } from './helpers';

/** the program whose prompt line ("$ perf …") names the capture's command */
const PERF = ['perf'];

/** " 394.085453: " — the timestamp that ends the "comm pid [cpu]" part. */
const TIME = /\s(\d+\.\d{3,9}):\s/;
const MAX_STACKS = 200_000;

function detect(head: readonly string[]): number {
  let headers = 0;
  let frames = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    const tm = TIME.exec(l);
    if (tm && !/^\t/.test(l) && /^\s*(?:\d+\s+)?[A-Za-z][\w:.\-/]*:(\s|$)/.test(l.slice(tm.index + tm[0].length - 1))) headers++;
    if (/^\t\s*[0-9a-f]+ \S.*\(\S*\)\s*$/.test(l)) frames++;
  }
  if (headers >= 2 && frames >= 2) return 0.92;
  const nonblank = head.slice(0, n).filter((l) => l.trim() !== '' && !l.startsWith('#')).length;
  if (headers >= 3 && headers >= nonblank * 0.8) return 0.88;
  if (headers >= 3) return 0.75;
  return 0;
}

interface Sample { comm: string; pid: string; event: string; frames: string[]; line: number; }

class PerfScriptSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private cur: Sample | null = null;
  private samples = 0;
  private folded = new Map<string, number>();
  private leaf = new Map<string, number>();
  private byComm = new Map<string, number>();
  private byEvent = new Map<string, number>();
  /** the first and last sample's header lines (-1: none yet) */
  private first = -1;
  private last = -1;
  private droppedStacks = 0;

  line(text: string, lineNo: number): void {
    let s0 = 0;
    while (s0 < text.length && isJsSpace(text.charCodeAt(s0))) s0++;
    if (s0 === text.length) { this.flush(); return; }
    if (text.charCodeAt(s0) === 35) { // "#"
      const t = text.slice(s0);
      const vm = /^#\s*perf version\s*:\s*(\S+)/.exec(t);
      if (vm) this.out.toolVersion = `perf ${vm[1]!}`;
      const hm = /^#\s*hostname\s*:\s*(\S+)/.exec(t);
      if (hm) this.out.facts.hostname = hm[1]!;
      return;
    }
    if (this.cur && s0 > 0) {
      const fr = frameOf(text);
      if (fr !== undefined) { this.cur.frames.push(fr); return; }
    }
    const tm = TIME.exec(text);
    if (tm) {
      this.flush();
      const left = text.slice(0, tm.index).trim();
      const right = text.slice(tm.index + tm[0].length);
      // left: "comm pid[/tid] [cpu]" — comm may contain spaces, so read from the right
      const lf = left.split(/\s+/);
      if (lf.length && /^\[\d+\]$/.test(lf[lf.length - 1]!)) lf.pop();
      // -F without pid/tid prints no pid: then everything left of the time is the comm
      const pidTok = lf.length > 1 && /^-?\d+(\/\d+)?$/.test(lf[lf.length - 1]!) ? lf.pop()! : '';
      const comm = lf.join(' ');
      if (!comm) { this.w.add(`line ${lineNo}: could not read sample header "${snippet(text)}"`); return; }
      // right: "[period] event: [inline ip sym (dso) | tracepoint args]"
      const rm = /^\s*(?:(\d+)\s+)?([^\s]+?):(?:\s+|$)(.*)$/.exec(right);
      const event = rm ? rm[2]! : '?';
      this.cur = { comm, pid: pidTok.split('/')[0]!, event, frames: [], line: lineNo };
      const fr = frameOf(rm?.[3] ?? '');
      if (fr !== undefined) this.cur.frames.push(fr);
      return;
    }
    if (!this.samples && !this.cur && !this.out.command) {
      const c = commandLine(text, PERF);
      if (c) { this.out.command = c; return; }
    }
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  private flush(): void {
    const s = this.cur;
    if (!s) return;
    this.cur = null;
    this.samples++;
    if (this.first < 0) this.first = s.line;
    this.last = s.line;
    this.byComm.set(s.comm, (this.byComm.get(s.comm) ?? 0) + 1);
    this.byEvent.set(s.event, (this.byEvent.get(s.event) ?? 0) + 1);
    const leaf = s.frames[0] ?? '[unknown]';
    this.leaf.set(leaf, (this.leaf.get(leaf) ?? 0) + 1);
    let key = s.comm.replace(/;/g, ':').replace(/\s/g, '_');
    for (let i = s.frames.length - 1; i >= 0; i--) key += ';' + s.frames[i]!;
    const prev = this.folded.get(key);
    if (prev !== undefined) this.folded.set(key, prev + 1);
    else if (this.folded.size < MAX_STACKS) this.folded.set(key, 1);
    else this.droppedStacks++;
  }

  end() {
    this.flush();
    const out = this.out;
    const metrics: Metric[] = [];
    metrics.push(metric('samples_total', this.samples, 'count', { column: 'samples', lines: this.first >= 0 ? [this.first, this.last] : undefined }));
    if (this.byEvent.size > 1) for (const [e, n] of this.byEvent) metrics.push(metric('samples_total', n, 'count', { labels: { event: e }, column: e }));
    for (const [c, n] of [...this.byComm.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) metrics.push(metric('samples_total', n, 'count', { labels: { command: c }, column: 'comm' }));
    const leaves = [...this.leaf.entries()].sort((a, b) => b[1] - a[1]);
    for (const [sym, n] of leaves.slice(0, 20)) {
      metrics.push(metric('leaf_samples_total', n, 'count', { labels: { symbol: sym }, column: 'leaf frame' }));
      if (this.samples) metrics.push(metric('leaf_samples_percent', Math.round((n / this.samples) * 10000) / 100, '%', { labels: { symbol: sym }, column: 'leaf frame' }));
    }
    out.metrics = metrics;
    out.tables = {
      folded: table(['stack', 'count'], [...this.folded.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n]), 'folded stacks (comm;outermost;…;leaf), as stackcollapse-perf.pl'),
      leaf_symbols: table(['symbol', 'samples'], leaves.map(([k, n]) => [k, n])),
    };
    if (!this.samples) this.w.add('no perf script samples found');
    if (this.droppedStacks) this.w.add(`${this.droppedStacks} samples with stacks beyond ${MAX_STACKS} distinct ones were counted but not folded`);
    out.warnings = this.w.done();
    return out;
  }
}

/**
 * A stack frame line "\t ffffffff81000000 sym+0x1 (dso)" as the name it is folded under
 * ("sym"; "[dso's file name]" for an unknown symbol); undefined when the line is not a frame.
 * Read in place, by index, with one string made for the name: most lines of a log with call
 * graphs are frames. Linear, no regex.
 */
export function frameOf(line: string): string | undefined {
  // the trimmed line is [a, b); its first word, the address, is [a, sp)
  let a = 0;
  let b = line.length;
  while (a < b && isJsSpace(line.charCodeAt(a))) a++;
  while (b > a && isJsSpace(line.charCodeAt(b - 1))) b--;
  let sp = a;
  while (sp < b && !isJsSpace(line.charCodeAt(sp))) sp++;
  if (sp === a) return undefined;
  for (let i = a; i < sp; i++) if (!isHex(line.charCodeAt(i))) return undefined;
  // the rest, trimmed: [r, b); "sym (dso)", "(dso)" or "sym"
  let r = sp;
  while (r < b && isJsSpace(line.charCodeAt(r))) r++;
  let symEnd = b;
  let dsoFrom = -1;
  let dsoTo = -1;
  if (r < b && line.charCodeAt(b - 1) === 41) { // ")"
    const open = b - r >= 2 ? line.lastIndexOf(' (', b - 2) : -1;
    if (open >= r) {
      dsoFrom = open + 2;
      dsoTo = b - 1;
      symEnd = open;
      while (symEnd > r && isJsSpace(line.charCodeAt(symEnd - 1))) symEnd--;
    } else if (line.charCodeAt(r) === 40) { // "("
      dsoFrom = r + 1;
      dsoTo = b - 1;
      symEnd = r;
    }
  }
  // "sym+0x1c1" → "sym": a "+0x" and hex digits that end the symbol
  let h = symEnd;
  while (h > r && isHex(line.charCodeAt(h - 1))) h--;
  if (h < symEnd && h - r >= 3 && line.charCodeAt(h - 1) === 120 && line.charCodeAt(h - 2) === 48 && line.charCodeAt(h - 3) === 43) symEnd = h - 3;
  let name = line.slice(r, symEnd);
  if (name === '' || name === '[unknown]') {
    const dso = dsoFrom >= 0 ? line.slice(dsoFrom, dsoTo) : undefined;
    if (dso && dso !== '[unknown]') name = '[' + (dso.split('/').pop() ?? dso) + ']';
    else name = '[unknown]';
  }
  return name.includes(';') ? name.replace(/;/g, ':') : name;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

export const perfScriptParser: CaptureParser = {
  id: 'perf-script',
  title: 'perf script (stacks)',
  commands: [{ program: 'perf', args: /^(?:-\S+\s+)*script\b/ }],
  detect,
  open: () => new PerfScriptSink(),
};
