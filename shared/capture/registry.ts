/**
 * The capture registry: detects a capture's kind from its content, streams its lines through the
 * chosen parser, and applies the finding rules. Pure TypeScript: runs in Node, a worker, or a page.
 */
import type { CaptureContext, CaptureParser, Finding, FindingContext, FindingRule, LineSink, ParseOutput, ParsedCapture, SinkOptions } from './types';
import { asciiString, cleanLine, commandParts, hasControlChar } from './text';
import { keepFiniteNumbers } from './safe';
import { emptyOutput } from './parsers/kit';
import { group as load } from './parsers/load/index';
import { group as fio } from './parsers/fio/index';
import { group as facts } from './parsers/facts/index';
import { group as sysstat } from './parsers/sysstat/index';
import { group as trace } from './parsers/trace/index';
import { group as settings } from './parsers/settings/index';
import { bareValue } from './bareValue';
import { alignSeries } from './context';

const GROUPS = [load, fio, facts, sysstat, trace, settings];

export const PARSERS: readonly CaptureParser[] = GROUPS.flatMap((g) => g.parsers);
export const RULES: readonly FindingRule[] = GROUPS.flatMap((g) => g.rules);

/**
 * The capture engine's version, stored with every parsed capture. Raise it when a parser reads
 * more or reads differently; `tunebook reparse` then brings stored captures up to date. (4: sums of
 * samples are compensated, so a mean can differ from 3's in its sixth decimal.)
 */
export const CAPTURE_ENGINE_VERSION = 4;

/** How much of the start of a capture detection looks at. */
export const DETECT_BYTES = 64 * 1024;
/** At most this many warnings are kept per capture; the rest are counted. */
export const MAX_WARNINGS = 200;
/** How sure a kind told by a bare value's file name is (below any detection from content). */
export const BARE_VALUE_CONFIDENCE = 0.5;

/** Lines longer than this are cut (a binary file can be one 100 MB "line"). */
export const MAX_LINE = 64 * 1024;
/** How much of the start of a text is looked at to tell its encoding (CaptureStream). */
const SNIFF_CHARS = 512;
const NUL_ALL = /\0/g;

/**
 * Whether `head`, the start of a text, is UTF-16 decoded as UTF-8 (a zero byte beside every ASCII
 * character; a byte order mark FF FE / FE FF became two U+FFFD): undefined when it is not, else its
 * byte order and whether the two U+FFFD of a BOM lead it. Needs 16 characters to say yes.
 */
export function utf16ReadAsUtf8(head: string): { le: boolean; bom: boolean } | undefined {
  const bom = head.charCodeAt(0) === 0xfffd && head.charCodeAt(1) === 0xfffd;
  const s = bom ? head.slice(2) : head;
  if (s.length < 16) return undefined;
  let even = 0, odd = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 0) { if (i & 1) odd++; else even++; }
  const pairs = s.length >> 1;
  // text: ASCII characters with their zero byte after (LE) or before (BE); a stray NUL is not enough
  if (odd >= pairs * 0.6 && even <= pairs * 0.1) return { le: true, bom };
  if (even >= pairs * 0.6 && odd <= pairs * 0.1) return { le: false, bom };
  return undefined;
}

/** Below this confidence a capture is kept as plain text. */
export const MIN_CONFIDENCE = 0.3;

export interface Detection { kind: string; confidence: number }

/**
 * The parser of a command's output, by the commands parsers declare (CaptureParser.commands): of
 * those naming the program, the first whose argument pattern matches, else the first without one.
 * Undefined when no parser reads that program's output.
 */
export function parserForCommand(cmd: string): CaptureParser | undefined {
  const { program, args } = commandParts(cmd);
  if (!program) return undefined;
  const rest = args.join(' ');
  let fallback: CaptureParser | undefined;
  for (const p of PARSERS) {
    for (const c of p.commands ?? []) {
      if (c.program !== program) continue;
      if (!c.args) fallback ??= p;
      else if (c.args.test(rest)) return p;
    }
  }
  return fallback;
}

export function parserById(kind: string): CaptureParser | undefined {
  return PARSERS.find((p) => p.id === kind);
}

/** Every parser's confidence for these lines, best first (only those above zero). */
export function detectAll(head: readonly string[]): Detection[] {
  const out: Detection[] = [];
  for (const p of PARSERS) {
    let c: number;
    try { c = p.detect(head); } catch { c = 0; }
    if (c > 0) out.push({ kind: p.id, confidence: Math.min(1, c) });
  }
  return out.sort((a, b) => b.confidence - a.confidence);
}

export function detect(head: readonly string[]): Detection {
  const best = detectAll(head)[0];
  return best && best.confidence >= MIN_CONFIDENCE ? best : { kind: 'text', confidence: 0 };
}

const TEXT_PARSER: CaptureParser = {
  id: 'text',
  title: 'Plain text',
  detect: () => 0,
  open(): LineSink {
    let lines = 0;
    return {
      line() { lines++; },
      span() { lines++; return true; },
      end: () => {
        const out = emptyOutput();
        out.warnings.push(`not a capture Tunebook recognizes; kept as plain text (${lines} lines)`);
        return out;
      },
    };
  },
};

export interface ParseOptions {
  /** force a parser instead of detecting one */
  kind?: string;
  file?: string;
  /**
   * What the capture's surroundings tell (a capture kit's manifest; shared/capture/context.ts). Its
   * command's parser (parserForCommand) reads the capture without detection and is told the command
   * as if it led the text after a shell prompt (free -m → MiB); with a `kind` as well, that parser
   * is told it; a command no parser reads leaves detection to the content. A start time puts the
   * series on the clock (alignSeries). The context comes back on the parsed capture.
   */
  context?: CaptureContext;
  /** the second half of a capture cut in two (shared/capture/split.ts): SinkOptions.sampleBase */
  sampleBase?: number;
  /** points kept per series, for the parsers that take it (SinkOptions.budget; tests) */
  budget?: number;
  /** the input's length in bytes, when known (a file's size): its share read is the sink's pace (SinkOptions.pace) */
  size?: number;
}

/**
 * Read this far into an input of known size, the share read tells the rate of samples well enough
 * for a store to size its arrays from it (RowStore.grown): a 64 KiB piece being parsed is then at
 * most 1.6 % of what was read.
 */
const PACE_FROM_CHARS = 4 << 20;

/**
 * An input of known size this long keeps its series' points in Float64Arrays (SinkOptions.typed).
 * Plain arrays of doubles live in V8's heap: a young one is copied at every scavenge it survives,
 * and the points of a long capture all survive (a 100 MB pidstat -urd log: 1.64 → 1.37 s, a
 * 200 MB iostat -x log's first half ~50 ms less, alternated). Shorter inputs keep plain arrays.
 */
const TYPED_POINTS_FROM_BYTES = 32 << 20;

/** Where a stream is at a cut between two halves (shared/capture/split.ts): its sink's splitState and the lines read. */
export interface SplitPoint { samples: number; key: string; settled: string; series: number; lines: number }

/**
 * A streaming parse: write text chunks as they arrive, then end(). Detection runs on the first
 * DETECT_BYTES; memory stays bounded by the parser's own state, not the input size.
 */
export class CaptureStream {
  private head: string[] = [];
  private headBytes = 0;
  private sink: LineSink | null = null;
  private parser: CaptureParser | null = null;
  private confidence = 1;
  private partial = '';
  private lineNo = 0;
  private pendingCR = false;
  private readonly extraWarnings: string[] = [];
  private droppedWarnings = 0;
  private cut = 0;
  /** the sink reads lines in place (LineSink.span) */
  private spans = false;
  /** the sink reads lines of bytes (LineSink.spanBytes) */
  private bytesSink = false;
  /** characters written (UTF-8 bytes, for most logs all ASCII) */
  private written = 0;
  /** the share of the input written, once PACE_FROM_CHARS are (SinkOptions.pace) */
  private readonly pace = { share: 0 };

  constructor(private readonly opts: ParseOptions = {}) {
    if (opts.kind) {
      const p = opts.kind === 'text' ? TEXT_PARSER : parserById(opts.kind);
      if (!p) throw new Error(`unknown capture kind "${opts.kind}" (known: ${['text', ...PARSERS.map((x) => x.id)].join(', ')})`);
      this.start(p, 1);
    } else if (opts.context?.command) {
      const p = parserForCommand(opts.context.command);
      if (p) this.start(p, 1);
    }
  }

  private start(p: CaptureParser, confidence: number): void {
    this.parser = p;
    this.confidence = confidence;
    const sinkOpts: SinkOptions = {
      ...(this.opts.sampleBase !== undefined ? { sampleBase: this.opts.sampleBase } : {}),
      ...(this.opts.budget !== undefined ? { budget: this.opts.budget } : {}),
      ...(this.opts.size !== undefined && this.opts.size >= TYPED_POINTS_FROM_BYTES ? { typed: true } : {}),
      pace: this.pace,
    };
    try { this.sink = p.open(sinkOpts); } catch (e) { this.sink = TEXT_PARSER.open(); this.extraWarnings.push(`parser ${p.id} failed to start: ${String(e)}`); }
    this.spans = typeof this.sink.span === 'function';
    this.bytesSink = typeof this.sink.spanBytes === 'function';
    const command = this.opts.context?.command;
    if (command && this.sink.setCommand) {
      try { this.sink.setCommand(command); } catch (e) { this.warn(`parser ${p.id} could not read the command line: ${String(e)}`); }
    }
  }

  /** One line. `clean`: known to hold no control character (its chunk had none), so cleanLine is skipped. */
  private feed(raw: string, clean = false): void {
    let text = raw.length > MAX_LINE ? (this.cut++, raw.slice(0, MAX_LINE)) : raw;
    if (!clean) text = cleanLine(text);
    const n = ++this.lineNo;
    if (!this.sink) {
      this.head.push(text);
      this.headBytes += text.length + 1;
      if (this.headBytes >= DETECT_BYTES) this.detectNow();
      return;
    }
    try { this.sink.line(text, n); } catch (e) { this.warn(`line ${n}: parser error: ${e instanceof Error ? e.message : String(e)}`); }
  }

  /**
   * The line chunk[start, end): handed to the sink in place when it reads spans (no substring made;
   * the sink refuses a line with a character it does not expect, and gets it cleaned through
   * `line`), else cut out and fed as usual. `clean`: the chunk holds no control character.
   */
  private feedSpan(chunk: string, start: number, end: number, clean: boolean): void {
    const sink = this.sink;
    if (sink === null || !this.spans || end - start > MAX_LINE) { this.feed(chunk.slice(start, end), clean); return; }
    const n = ++this.lineNo;
    try {
      if (!sink.span!(chunk, start, end, n)) sink.line(cleanLine(chunk.slice(start, end)), n);
    } catch (e) { this.warn(`line ${n}: parser error: ${e instanceof Error ? e.message : String(e)}`); }
  }

  private warn(w: string): void {
    if (this.extraWarnings.length < MAX_WARNINGS) this.extraWarnings.push(w); else this.droppedWarnings++;
  }

  private detectNow(): void {
    const d = detect(this.head);
    const bare = d.kind === 'text' ? bareValue(this.head, this.opts.file) : null;
    if (bare && parserById(bare.kind)) {
      // one bare value: its kind told by the file's name, read as the line its parser knows
      this.start(parserById(bare.kind)!, BARE_VALUE_CONFIDENCE);
      this.warn(`a bare value with nothing to say what it is: read as ${bare.meaning} because of the file's name (${this.opts.file})`);
      const at = this.head.findIndex((l) => l.trim() !== '');
      this.head = this.head.map((l, i) => (i === at ? bare.line : l));
    } else {
      this.start(d.kind === 'text' ? TEXT_PARSER : parserById(d.kind)!, d.confidence);
    }
    const head = this.head;
    this.head = [];
    const first = this.lineNo - head.length;
    for (let i = 0; i < head.length; i++) {
      try { this.sink!.line(head[i]!, first + i + 1); } catch (e) { this.warn(`line ${first + i + 1}: parser error: ${e instanceof Error ? e.message : String(e)}`); }
    }
  }

  /**
   * The first SNIFF_CHARS characters, held back until there are that many (or the end) to tell a
   * UTF-16 file read as UTF-8 (see utf16ReadAsUtf8); null once decided.
   */
  private sniff: string | null = '';
  /** the text is UTF-16 read as UTF-8: its zero bytes are dropped before lines are split */
  private dropNul = false;

  /** Feed a chunk of text. Lines end at \n, \r\n or a lone \r (terminal progress output). */
  write(chunk: string): void {
    this.paced(chunk.length);
    if (this.sniff !== null) {
      this.sniff += chunk;
      if (this.sniff.length < SNIFF_CHARS) return;
      chunk = this.decideEncoding();
    }
    this.writeText(this.dropNul && chunk.indexOf('\0') !== -1 ? chunk.replace(NUL_ALL, '') : chunk);
  }

  /** `n` more characters written: the share as of their end, what their samples are counted against while they are parsed */
  private paced(n: number): void {
    const size = this.opts.size;
    if (size === undefined || size <= 0) return;
    this.written += n;
    if (this.written >= PACE_FROM_CHARS) this.pace.share = Math.min(1, this.written / size);
  }

  /** Look at the start of the text: a BOM is dropped, UTF-16 read as UTF-8 is recognized. Returns the text held back. */
  private decideEncoding(): string {
    let text = this.sniff!;
    this.sniff = null;
    // a UTF-8 byte order mark (Windows Notepad writes one) is not part of the first line
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const u16 = utf16ReadAsUtf8(text.slice(0, SNIFF_CHARS));
    if (u16) {
      this.dropNul = true;
      if (u16.bom) text = text.slice(2);
      this.warn(`this file looks like UTF-16 (${u16.le ? 'little-endian, as Windows PowerShell\'s > writes it' : 'big-endian'}) but was read as UTF-8: `
        + 'it was read with its zero bytes dropped, so characters beyond ASCII are lost (shown as \uFFFD); save it as UTF-8 for an exact read');
    }
    return text;
  }

  private writeText(chunk: string): void {
    const n = chunk.length;
    let start = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (n > 0 && chunk.charCodeAt(0) === 10) start = 1;
    }
    // Lines a sink reads in place are not cleaned first (it refuses any character it does not
    // expect); for the other sinks, one native scan per chunk instead of one per line: most chunks
    // hold no control character, so their lines need no cleaning.
    const clean = this.sink !== null && this.spans ? false : !hasControlChar(chunk);
    // indexOf scans natively; most captures have no \r at all, so that search runs once
    let nl = chunk.indexOf('\n', start);
    let cr = chunk.indexOf('\r', start);
    while (nl !== -1 || cr !== -1) {
      let end: number;
      let next: number;
      if (cr === -1 || (nl !== -1 && nl < cr)) {
        end = nl;
        next = nl + 1;
      } else {
        end = cr;
        if (cr + 1 < n) next = chunk.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        else { next = cr + 1; this.pendingCR = true; }
      }
      if (this.partial) { this.feed(this.partial + chunk.slice(start, end)); this.partial = ''; } else this.feedSpan(chunk, start, end, clean);
      start = next;
      if (nl !== -1 && nl < start) nl = chunk.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf('\r', start);
    }
    if (start < n) {
      this.partial += chunk.slice(start);
      if (this.partial.length > MAX_LINE * 4) { this.feed(this.partial); this.partial = ''; }
    }
  }

  /** the parser chosen (forced, told by the command, or detected once the head was read), else null */
  get kind(): string | null { return this.parser?.id ?? null; }

  /** series begun so far, when the parser can be cut (splitState), else null */
  get seriesBegun(): number | null { return this.sink?.splitState?.().series ?? null; }

  /** The whole capture has `total` samples (split.ts: counted ahead), `own` of them this part's, when its parser can be cut: LineSink.planSamples. */
  planSamples(total: number, own?: number): void {
    this.sink?.planSamples?.(total, own);
  }

  /** At least `n` samples follow this part's (split.ts: a first half, told as they are counted): LineSink.samplesAfter. */
  samplesAfter(n: number): void {
    this.sink?.samplesAfter?.(n);
  }

  /**
   * The sink reads lines of bytes (LineSink.spanBytes) and nothing is held back to tell the
   * encoding: writeAscii may be given the next piece.
   */
  get readsBytes(): boolean {
    return this.bytesSink && this.sniff === null && !this.dropNul;
  }

  /**
   * A piece of the text as its bytes, when they are their own text (readsBytes; every byte ASCII,
   * none a carriage return: the caller checks, as halfParse.writeBytes does). Its lines go to the
   * sink as bytes, with no string made of them (LineSink.spanBytes); a line the sink refuses, one
   * that began in the piece before and the last one if unfinished become text as in write().
   */
  writeAscii(bytes: Uint8Array): void {
    const n = bytes.length;
    this.paced(n);
    let start = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (n > 0 && bytes[0] === 10) start = 1;
    }
    let nl = bytes.indexOf(10, start);
    if (nl !== -1 && this.partial) {
      this.feed(this.partial + asciiString(bytes, start, nl));
      this.partial = '';
      start = nl + 1;
      nl = bytes.indexOf(10, start);
    }
    const sink = this.sink!;
    while (nl !== -1) {
      if (nl - start > MAX_LINE) this.feed(asciiString(bytes, start, nl));
      else {
        const k = ++this.lineNo;
        try {
          if (!sink.spanBytes!(bytes, start, nl, k)) sink.line(cleanLine(asciiString(bytes, start, nl)), k);
        } catch (e) { this.warn(`line ${k}: parser error: ${e instanceof Error ? e.message : String(e)}`); }
      }
      start = nl + 1;
      nl = bytes.indexOf(10, start);
    }
    if (start < n) {
      this.partial += asciiString(bytes, start, n);
      if (this.partial.length > MAX_LINE * 4) { this.feed(this.partial); this.partial = ''; }
    }
  }

  /** The text held back to tell its encoding is read now (a primer shorter than that, split.ts). */
  private settle(): void {
    if (this.sniff !== null) { const held = this.decideEncoding(); this.writeText(this.dropNul ? held.replace(NUL_ALL, '') : held); }
  }

  /** Everything written is read: the text held back to tell its encoding, and a last line without its break. */
  private flush(): void {
    this.settle();
    if (this.partial) { this.feed(this.partial); this.partial = ''; }
  }

  /** nothing of the stream's own: no warning, no cut line, no UTF-16 guess */
  private get plain(): boolean {
    return this.extraWarnings.length === 0 && this.droppedWarnings === 0 && this.cut === 0 && !this.dropNul;
  }

  /**
   * Where this stream is, to cut the capture here (split.ts): null unless it is at a line's start,
   * has added nothing of its own, and its parser can be cut.
   */
  splitState(): SplitPoint | null {
    this.settle();
    const sink = this.sink;
    if (sink === null || !sink.splitState || this.partial !== '' || this.pendingCR || !this.plain) return null;
    return { ...sink.splitState(), lines: this.lineNo };
  }

  /** The second half's end (split.ts): its sink's own output, what it settled on, and whether the stream added anything. */
  endHalf(): { out: ParseOutput; settled: string; clean: boolean } {
    this.flush();
    const sink = this.sink;
    if (sink === null || !sink.splitState) return { out: emptyOutput(), settled: '', clean: false };
    try {
      const settled = sink.splitState().settled;
      return { out: sink.end(), settled, clean: this.plain };
    } catch { return { out: emptyOutput(), settled: '', clean: false }; }
  }

  /**
   * The parse. `join`: this stream read the first half of a capture cut in two, and this joins the
   * second's (split.ts; it may throw SplitMismatch, which goes to the caller).
   */
  end(join?: (out: ParseOutput, at: SplitPoint | null) => ParseOutput): ParsedCapture {
    let at = join ? this.splitState() : null;
    this.flush();
    if (!this.sink) this.detectNow();
    let out: ParseOutput;
    try { out = this.sink!.end(); } catch (e) {
      out = emptyOutput();
      at = null;
      this.warn(`parser ${this.parser!.id} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (join) out = join(out, at);
    // the numbers shown are finite, whatever the parser made of a number too long for a double
    let unsafe: string;
    try { unsafe = keepFiniteNumbers(out); } catch (e) { unsafe = `parser ${this.parser!.id} gave a malformed result: ${e instanceof Error ? e.message : String(e)}`; }
    const warnings = [...this.extraWarnings, ...out.warnings.slice(0, MAX_WARNINGS)];
    if (unsafe) warnings.push(unsafe);
    const dropped = this.droppedWarnings + Math.max(0, out.warnings.length - MAX_WARNINGS);
    if (dropped) warnings.push(`${dropped} more warnings not shown`);
    if (this.cut) warnings.push(`${this.cut} overlong lines were cut at ${MAX_LINE} characters`);
    const ctx = this.opts.context;
    if (ctx) {
      if (out.command === undefined && ctx.command && this.parser !== TEXT_PARSER) out.command = ctx.command;
      try { alignSeries(out.series, ctx); } catch (e) { this.warn(`could not put the series on the capture's clock: ${String(e)}`); }
    }
    const parsed: ParsedCapture = {
      ...(this.opts.file !== undefined ? { file: this.opts.file } : {}),
      kind: this.parser!.id,
      confidence: Math.round(this.confidence * 100) / 100,
      ...out,
      warnings,
      findings: [],
      ...(ctx ? { context: ctx } : {}),
    };
    return parsed;
  }
}

/** Parse a whole text at once (small captures, tests). */
export function parseText(text: string, opts: ParseOptions = {}): ParsedCapture {
  const s = new CaptureStream(opts);
  s.write(text);
  const parsed = s.end();
  parsed.findings = evaluateFindings([parsed])[0]!;
  return parsed;
}

/**
 * Run every rule over a set of captures that belong together (one experiment, or the files given
 * to one `tunebook parse`). Returns the findings of each capture, in order. A rule that throws is
 * skipped: findings are advice, never a reason to lose a capture.
 */
export function evaluateFindings(captures: readonly ParsedCapture[]): Finding[][] {
  return captures.map((capture) => findingsOf(capture, captures));
}

/**
 * The findings of one capture among the captures it belongs with (`all` includes it). Each finding
 * gets its rule's id here (first, as stored captures have it), so a rule cannot give another's.
 */
export function findingsOf(capture: ParsedCapture, all: readonly ParsedCapture[]): Finding[] {
  const out: Finding[] = [];
  // one context for every rule: what one works out from the points, another of the same evaluation can reuse (writeSizes)
  const ctx: FindingContext = { capture, all };
  for (const rule of RULES) {
    if (!rule.kinds.includes(capture.kind)) continue;
    try {
      out.push(...rule.evaluate(ctx).map((f): Finding => {
        const stamped: Finding = { id: rule.id, ...f };
        stamped.id = rule.id; // also over an id a finding carried after all (spread in from elsewhere)
        return stamped;
      }));
    } catch { /* a broken rule must not lose the capture */ }
  }
  return out;
}

/** Whether any finding rule looks at captures of this kind. */
export function hasRules(kind: string): boolean {
  return RULES.some((r) => r.kinds.includes(kind));
}
