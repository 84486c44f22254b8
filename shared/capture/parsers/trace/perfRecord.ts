/**
 * perf record's own summary lines, as it prints them on stderr (tools/perf/builtin-record.c):
 * `[ perf record: Woken up N times to write data ]`, `[ perf record: Captured and wrote X MB FILE (N samples) ]`
 * (`, compressed (original Y MB, ratio is R)` with -z; `FILE.<timestamp>` with --switch-output),
 * `[ perf record: perf size limit reached (N KB), stopping session ]`, --switch-output's `Dump FILE` and
 * `dump data: Woken up N times` lines, and the warnings perf prints around them (util/session.c: lost events
 * and lost samples). Read alone (kind perf-record: the recorded command's own output around them is counted, not
 * read) and in front of a report (perfReport.ts uses RecordSummary and PerfMessages). See docs/capture-json.md.
 */
import type { CaptureParser, LineSink, Metric, ParseOutput } from '../../types';
import { commandLine, emptyOutput, metric } from '../kit';
import { snippet, Warnings } from './helpers';

/** the program whose prompt line ("$ perf …") names the capture's command */
const PERF = ['perf'];

const RECORD_PREFIX = '[ perf record: ';
const MB = 1024 * 1024;
/** perf's messages kept as the fact perf_messages (each cut at MESSAGE_CHARS) */
const MAX_MESSAGES = 20;
const MESSAGE_CHARS = 300;
/** lines of one "Warning:" / "Error:" block (perf's are two or three) */
const MAX_BLOCK_LINES = 6;
/** dump file names kept (--switch-output) */
const MAX_DUMPS = 100;

/** What perf record's summary lines said. */
export class RecordSummary {
  wakeups: { n: number; line: number } | null = null;
  written: { mb: number; file: string; samples?: number; originalMb?: number; ratio?: number; line: number } | null = null;
  sizeLimit: { kb: number; line: number } | null = null;
  dumps: string[] = [];
  dumpCount = 0;
  /** lines of the summary that were seen */
  lines = 0;
  /** "[ perf record: … ]" lines not understood (perf says more in other versions and modes): said in a warning each */
  unread: string[] = [];

  /** Read one line (trimmed); true when it is a perf record summary line. */
  line(t: string, lineNo: number): boolean {
    const s = recordText(t);
    if (s === undefined) return false;
    this.lines++;
    let r: RegExpExecArray | null;
    if ((r = /^Woken up (\d+) times to write data$/.exec(s))) {
      this.wakeups = { n: (this.wakeups?.n ?? 0) + Number(r[1]), line: lineNo };
    } else if ((r = /^dump data: Woken up (\d+) times$/.exec(s))) {
      this.wakeups = { n: (this.wakeups?.n ?? 0) + Number(r[1]), line: lineNo };
    } else if ((r = /^Captured and wrote ([\d.]+) MB (.*)$/.exec(s))) {
      let rest = r[2]!;
      const w: NonNullable<RecordSummary['written']> = { mb: Number(r[1]), file: '', line: lineNo };
      // read from the right (the file name may hold anything): ", compressed (original Y MB, ratio is R)", " (N samples)"
      const ci = rest.lastIndexOf(', compressed (original ');
      const c = ci >= 0 ? /^, compressed \(original ([\d.]+) MB, ratio is ([\d.]+)\)$/.exec(rest.slice(ci)) : null;
      if (c) { w.originalMb = Number(c[1]); w.ratio = Number(c[2]); rest = rest.slice(0, ci); }
      const ni = rest.lastIndexOf(' (');
      const n = ni >= 0 ? /^ \((\d+) samples\)$/.exec(rest.slice(ni)) : null;
      if (n) { w.samples = Number(n[1]); rest = rest.slice(0, ni); }
      w.file = rest.trim();
      this.written = w;
    } else if ((r = /^perf size limit reached \((\d+) KB\)/.exec(s))) {
      this.sizeLimit = { kb: Number(r[1]), line: lineNo };
    } else if ((r = /^Dump (.+)$/.exec(s))) {
      this.dumpCount++;
      if (this.dumps.length < MAX_DUMPS) this.dumps.push(r[1]!.trim());
    } else if (this.unread.length < 20) {
      // another "[ perf record: … ]" line (or one of these cut short): perf's, but not understood
      this.unread.push(`line ${lineNo}: a perf record line not read: "${snippet(t)}"`);
    }
    return true;
  }

  metrics(): Metric[] {
    const out: Metric[] = [];
    const w = this.written;
    if (this.wakeups) out.push(metric('record_wakeups_total', this.wakeups.n, 'count', { column: 'Woken up', lines: this.wakeups.line }));
    if (w) {
      const at: [number, number] = [w.line, w.line];
      if (Number.isFinite(w.mb)) out.push(metric('recorded_bytes', Math.round(w.mb * MB), 'B', { column: 'Captured and wrote', lines: at }));
      if (w.samples !== undefined) out.push(metric('recorded_samples_total', w.samples, 'count', { column: 'samples', lines: at }));
      if (w.originalMb !== undefined && Number.isFinite(w.originalMb)) out.push(metric('recorded_uncompressed_bytes', Math.round(w.originalMb * MB), 'B', { column: 'original', lines: at }));
      if (w.ratio !== undefined && Number.isFinite(w.ratio)) out.push(metric('record_compression_ratio', w.ratio, 'ratio', { column: 'ratio', lines: at }));
    }
    return out;
  }

  facts(f: ParseOutput['facts']): void {
    if (this.written?.file) f.perf_record_output = this.written.file;
    if (this.sizeLimit) f.perf_record_size_limit_bytes = this.sizeLimit.kb * 1024;
    if (this.dumpCount) { f.perf_record_dumps = this.dumps.slice(); if (this.dumpCount > this.dumps.length) f.perf_record_dumps_total = this.dumpCount; }
  }
}

/**
 * perf's own messages on stderr: "Warning:" / "Error:" blocks and the lines in them, and single lines such as
 * "WARNING: …", "Failed to …", "no symbols found in …". Lost events and samples are read as figures
 * (lost_chunks_total, lost_samples_percent); every message is kept, once, in the fact perf_messages.
 */
export class PerfMessages {
  private list: string[] = [];
  private block: { lines: string[] } | null = null;
  lostChunks: { events: number; chunks: number; line: number } | null = null;
  lostSamples: { samples: number; percent: number; line: number } | null = null;

  /** Read one line (trimmed, not blank); true when it is one of perf's messages. */
  line(t: string, lineNo: number): boolean {
    if (/^(Warning|Error|WARNING):?$/.test(t)) { this.close(); this.block = { lines: [t.replace(/:?$/, ':')] }; return true; }
    let r: RegExpExecArray | null;
    if ((r = /^Processed (\d+) events and lost (\d+) chunks!$/.exec(t))) {
      if (!this.lostChunks) this.lostChunks = { events: Number(r[1]), chunks: Number(r[2]), line: lineNo };
      return this.add(t);
    }
    if ((r = /^Processed (\d+) samples and lost ([\d.]+)%!$/.exec(t))) {
      if (!this.lostSamples) this.lostSamples = { samples: Number(r[1]), percent: Number(r[2]), line: lineNo };
      return this.add(t);
    }
    if (this.block && this.block.lines.length < MAX_BLOCK_LINES) { this.block.lines.push(t); return true; }
    if (/^(WARNING: |Warning: |Error: |Failed to |Couldn't |no symbols found|Check IO\/CPU overload!|Found \d+ unknown events!|Found invalid callchains!|\d+ out of order events recorded|Kernel address maps|The .* data has no samples!)/.test(t)) {
      this.close();
      this.keep(t);
      return true;
    }
    this.close();
    return false;
  }

  private add(t: string): boolean {
    if (this.block && this.block.lines.length < MAX_BLOCK_LINES) this.block.lines.push(t);
    else this.keep(t);
    return true;
  }

  /** A line that is not a message (or a blank line after one): ends the block it was in. */
  close(): void {
    if (!this.block) return;
    this.keep(this.block.lines.join(' '));
    this.block = null;
  }

  private keep(text: string): void {
    const m = text.length > MESSAGE_CHARS ? text.slice(0, MESSAGE_CHARS) + '…' : text;
    if (this.list.length < MAX_MESSAGES && !this.list.includes(m)) this.list.push(m);
  }

  metrics(): Metric[] {
    this.close();
    const out: Metric[] = [];
    if (this.lostChunks) out.push(metric('lost_chunks_total', this.lostChunks.chunks, 'count', { column: 'lost chunks', lines: this.lostChunks.line }));
    if (this.lostSamples && Number.isFinite(this.lostSamples.percent)) out.push(metric('lost_samples_percent', this.lostSamples.percent, '%', { column: 'lost', lines: this.lostSamples.line }));
    return out;
  }

  facts(f: ParseOutput['facts']): void {
    this.close();
    if (this.list.length) f.perf_messages = this.list.slice();
  }
}

/** The text of a perf record summary line "[ perf record: … ]" (its closing bracket may be cut), else undefined. */
export function recordText(t: string): string | undefined {
  if (!t.startsWith(RECORD_PREFIX)) return undefined;
  let s = t.slice(RECORD_PREFIX.length).trim();
  if (s.endsWith(']')) s = s.slice(0, -1).trimEnd();
  return s;
}

/** Lines that belong to another perf output (report, script, stat): then that parser reads the summary lines too. */
const OTHER_PERF = /^#\s*(Samples:|Overhead\b|Children\b|Event count|To display the perf\.data header|captured on)|Performance counter stats for |\s\d+\.\d{3,9}:\s/;

function detect(head: readonly string[]): number {
  let rec = 0;
  let other = 0;
  let perf = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const t = head[i]!.trim();
    if (t === '') continue;
    if (t.startsWith(RECORD_PREFIX)) rec++;
    else if (OTHER_PERF.test(t)) perf++;
    else other++;
  }
  if (!rec) return 0;
  if (perf) return 0.35;
  // the recorded command's own output may surround the summary: a little of it is expected, a lot means it is that tool's capture
  return other <= 10 * rec + 10 ? 0.9 : 0.5;
}

class PerfRecordSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private rec = new RecordSummary();
  private msg = new PerfMessages();
  private other = 0;
  private otherFirst = 0;
  private otherLast = 0;
  private otherSample = '';

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') { this.msg.close(); return; }
    if (this.rec.line(t, lineNo)) { this.msg.close(); return; }
    if (this.msg.line(t, lineNo)) return;
    if (!this.out.command && !this.rec.lines) {
      const c = commandLine(text, PERF);
      if (c) { this.out.command = c; return; }
    }
    if (!this.other) { this.otherFirst = lineNo; this.otherSample = snippet(text); }
    this.other++;
    this.otherLast = lineNo;
  }

  end(): ParseOutput {
    const out = this.out;
    out.metrics = [...this.rec.metrics(), ...this.msg.metrics()];
    this.rec.facts(out.facts);
    this.msg.facts(out.facts);
    if (this.other) {
      const where = this.otherFirst === this.otherLast ? `line ${this.otherFirst}` : `lines ${this.otherFirst}-${this.otherLast}`;
      this.w.add(`${where}: ${this.other} line${this.other > 1 ? 's' : ''} not perf's (the recorded command's own output?), not read: "${this.otherSample}"`);
    }
    for (const u of this.rec.unread) this.w.add(u);
    if (!this.rec.lines) this.w.add('no perf record summary lines found');
    out.warnings = this.w.done();
    return out;
  }
}

export const perfRecordParser: CaptureParser = {
  id: 'perf-record',
  title: 'perf record (its summary lines)',
  // no `commands`: what `perf record -- COMMAND` prints is mostly COMMAND's own output, which its content tells
  detect,
  open: () => new PerfRecordSink(),
};
