/**
 * The public shape of a parsed capture (specified in docs/capture-json.md).
 * Pure types: this file is imported by every parser, the registry, the CLI and the renderer.
 */

/** Units travel with every value. Values are always in base units. */
export type Unit = '1/s' | 'B/s' | 'B' | 's' | '%' | 'count' | 'ratio' | (string & {});

export type Labels = Readonly<Record<string, string>>;

/** Inclusive 1-based line range in the capture text, for evidence. */
export type LineRange = readonly [first: number, last: number];

export interface Metric {
  /** canonical snake_case name, e.g. requests_per_second */
  name: string;
  value: number;
  unit: Unit;
  labels?: Labels;
  /** the label exactly as the tool printed it, e.g. "Requests per second" */
  column?: string;
  lines?: LineRange;
}

/**
 * A time series: one value per sample. Stored column-wise (numbers in a plain array)
 * so long captures stay compact and fast to plot.
 */
export interface Series {
  name: string;
  /** the column header exactly as the tool printed it, e.g. "w/s" */
  column: string;
  unit: Unit;
  labels?: Labels;
  /**
   * NaN = a missing sample. A plain array, but a Float64Array in a long capture read in two threads
   * (split.ts): the second thread makes the whole's array, the first half's points are written
   * into its front, and it comes back as it is, where the first thread would otherwise make (and
   * fault in) the whole's points again.
   */
  values: number[] | Float64Array;
  /** epoch milliseconds per sample when the capture shows a clock (iostat -t, vmstat -t, sar), else absent */
  times?: (number | null)[];
  /** true when values[0] is the "since boot" report of iostat/vmstat/pidstat/mpstat/sar: kept, but left out of summaries */
  firstSampleSinceBoot?: boolean;
  lines?: LineRange;
  /**
   * Present (≥ 2) when a long series was thinned to its point budget (MAX_POINTS_PER_SERIES in series.ts):
   * values[j] (and times[j]) is sample j × stride; absent = 1, every sample kept.
   */
  stride?: number;
  /** exact statistics over every sample pushed, present when the series was thinned (summaries use them) */
  stats?: SeriesStats;
  /**
   * Only in the second half of a capture cut in two (split.ts), before it is joined: this many
   * points of the whole come before values[0] (the first half's, not held here).
   */
  lead?: number;
}

/**
 * Exact running statistics of a series, kept while its points are thinned. JSON-safe.
 * The first sample is kept apart so a since-boot report can be left out (or included) at the end.
 */
export interface SeriesStats {
  /** every sample pushed, including NaN (missing) ones and the first */
  count: number;
  /** sample 0 (null when missing / not finite) */
  first: number | null;
  /** finite samples after the first: how many, their sum (in order), min, max and the last one */
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
  last: number | null;
  /** sum of all finite samples including the first, in order (the mean when the first is not since-boot) */
  sumAll: number;
  /**
   * What rounding left out of `sum` / `sumAll` (Neumaier's compensated sum; absent: 0): the sum is
   * sum + sumC (series.ts statSum). Exact to the last bit in practice, and so the same whichever
   * way the samples were added up — one after another, or two halves' sums (split.ts).
   */
  sumC?: number;
  sumAllC?: number;
}

export interface SeriesSummary {
  name: string;
  column: string;
  unit: Unit;
  labels?: Labels;
  /** all samples, including a since-boot first sample */
  count: number;
  /** min/mean/max/last over the interval samples (since-boot sample left out) */
  min: number | null;
  mean: number | null;
  max: number | null;
  last: number | null;
  firstSampleSinceBoot?: boolean;
}

export type FactValue = string | number | boolean | null | FactValue[] | { [key: string]: FactValue };

export type Severity = 'info' | 'warning' | 'critical';

export interface Finding {
  /** stable rule id, e.g. io.random-writes */
  id: string;
  severity: Severity;
  message: string;
  /** human pointer into the capture, e.g. "lines 5-25" */
  evidence?: string;
  labels?: Labels;
}

/** What a parser produces. `kind`, `confidence` and `findings` are filled in by the registry. */
export interface ParseOutput {
  command?: string;
  toolVersion?: string;
  metrics: Metric[];
  series: Series[];
  /** hardware / environment facts: cpu_model, cpu_cores, memory_total_bytes, disks … */
  facts: Record<string, FactValue>;
  /** key → value settings (sysctl, ulimit, ini) */
  settings: Record<string, string>;
  /**
   * Parser-specific structured data that does not fit metrics/series (top process tables,
   * strace per-syscall tables, perf stacks, interrupt matrices). JSON-safe. Documented per parser.
   */
  tables?: Record<string, Table>;
  warnings: string[];
}

/** A small JSON-safe table: column names and rows of cells. */
export interface Table {
  columns: string[];
  rows: (string | number | null)[][];
  /** optional grouping, e.g. top frame index or snapshot */
  title?: string;
}

/** The benchmark a monitor was recorded around (a capture kit's COMMAND): shared/capture/context.ts. */
export interface CaptureRun {
  /** the benchmark's command line */
  command: string;
  /** epoch ms */
  started: number;
  ended: number;
}

/** What a capture's surroundings say about it (a capture kit's manifest): shared/capture/context.ts. */
export interface CaptureContext {
  /** the command line that printed the capture */
  command?: string;
  /** when that command started and ended, epoch ms */
  started?: number;
  ended?: number;
  /** the benchmark the capture was recorded around (a monitor's), when there was one */
  run?: CaptureRun;
  /** where this was told, e.g. "capture kit manifest (tunebook-kit 1)" */
  source?: string;
}

export interface ParsedCapture extends ParseOutput {
  file?: string;
  kind: string;
  confidence: number;
  findings: Finding[];
  /** what its surroundings told (CaptureStream's `context`), when anything did */
  context?: CaptureContext;
}

/**
 * A streaming line consumer. The registry cleans the text (CRLF, ANSI, glued lines are the
 * parser's business) and feeds one line at a time; `end` returns what was read.
 * Lines are passed without their terminator. lineNo is 1-based.
 * A sink must never throw; the registry still guards it and turns a throw into a warning.
 */
export interface LineSink {
  line(text: string, lineNo: number): void;
  /**
   * Optional fast path: the line is `chunk[start, end)` (within the registry's line limit), read in
   * place without cutting it out of the chunk. It is NOT cleaned: return true only for a line whose
   * every character was one the sink expects (digits, blanks, a name it has seen clean) — a line
   * with a control character or an ANSI escape must be refused. On false the registry calls `line`
   * with the cleaned text instead, so a sink handles here only the lines it reads most (data rows).
   */
  span?(chunk: string, start: number, end: number, lineNo: number): boolean;
  /**
   * `span` for a line of bytes: `bytes[start, end)`, every byte ASCII (CaptureStream.writeAscii),
   * read without making a string of it. The same contract: true only for a line whose every
   * character the sink expects; on false the registry calls `line` with the cleaned text.
   */
  spanBytes?(bytes: Uint8Array, start: number, end: number, lineNo: number): boolean;
  /**
   * Optional: the command line the capture came from, told from outside the text (a capture kit's
   * manifest), before any line — read as the sink reads a shell prompt + command at the top (free -m
   * → MiB, vmstat -S M). A sink without it still gets the command into `ParseOutput.command`.
   */
  setCommand?(cmd: string): void;
  /**
   * A sink whose parser can be cut (CaptureParser.split): the samples it has begun, a key of what
   * else carries from one sample to the next (headers, clock), and what it settles on at its first
   * sample (vmstat's memory unit, guessed from the first row). Two halves join only when the first's
   * key at its end equals the second's after its primer, and both settled alike (shared/capture/split.ts).
   * `series`: how many it has begun (what a second half would hold as many of: the import cuts only
   * captures of few).
   */
  splitState?(): { samples: number; key: string; settled: string; series: number };
  /**
   * A sink whose parser can be cut: the whole capture has `total` samples (counted ahead by
   * SplitPlan.count), to keep its points in just the room they need; `own`, told a first half: its
   * own samples (those before the cut), whose points are all it holds (the second half's thread
   * makes the whole's arrays: HalfSeries.whole).
   */
  planSamples?(total: number, own?: number): void;
  /** A sink whose parser can be cut: at least `n` samples follow this part's (a first half, told before the whole's count). */
  samplesAfter?(n: number): void;
  end(): ParseOutput;
}

/**
 * A command a parser reads the output of, as data (as jc's magic commands): the program (its base
 * name, after sudo/env/time/watch prefixes) and, when one program has several output formats read
 * by different parsers (`strace -c` and `strace -f`, `sadf -d` and `sadf -j`, `cat /proc/…`), a
 * pattern its arguments must match.
 */
export interface CommandMatch {
  program: string;
  /** tested on the arguments after the program (joined by single spaces) */
  args?: RegExp;
}

export interface CaptureParser {
  /** parser id as listed in capture-json.md, e.g. "iostat", "proc-interrupts" */
  id: string;
  /** a short human title, e.g. "iostat (sysstat)" */
  title: string;
  /**
   * Confidence 0..1 that `head` (the first ≤ 64 KiB of the cleaned capture, split in lines) is
   * this parser's format. 0 = certainly not. Must be fast and never throw.
   */
  detect(head: readonly string[]): number;
  /** a fresh sink for one capture */
  open(opts?: SinkOptions): LineSink;
  /** the commands whose output this parser reads (registry.parserForCommand) */
  commands?: readonly CommandMatch[];
  /**
   * How a long capture of this format is cut in two, to be parsed on two cores (shared/capture/split.ts):
   * absent when it cannot be. Its sink then takes `SinkOptions.sampleBase` and has `splitState`.
   */
  split?: SplitRules;
}

/** How a sink is opened. */
export interface SinkOptions {
  /**
   * The second half of a capture cut in two (shared/capture/split.ts): its samples are numbered from
   * this many, as if the first half's had come before (the points before are missing ones).
   */
  sampleBase?: number;
  /** points kept per series (MAX_POINTS_PER_SERIES), for tests: the split-capable sinks take it */
  budget?: number;
  /**
   * How much of the input is read (CaptureStream, told the input's size): the stores of the sinks
   * that keep long series (parsers/sysstat/common.ts) guess from it how many points they will end
   * with, and grow once to that instead of doubling their way up.
   */
  pace?: ReadPace;
  /**
   * Keep the series' points in Float64Arrays (a long input: CaptureStream's TYPED_POINTS_FROM_BYTES;
   * a second half is always typed), where they are otherwise plain arrays: Series.values.
   */
  typed?: boolean;
}

/**
 * The share of the input read so far, 0 … 1, kept up to date by its stream as it reads: 0 while
 * unknown (no size told, or too little read for the share to tell the rate of samples).
 */
export interface ReadPace {
  readonly share: number;
}

/**
 * Where a capture of one format can be cut (shared/capture/split.ts), as seen from its head (the
 * first lines): null when this one cannot be (a JSON report, a mode whose samples are not told by
 * a line of their own).
 */
export interface SplitRules {
  plan(head: readonly string[]): SplitPlan | null;
}

export interface SplitPlan {
  /** the head's lines before its first sample: what the second half is read after (banner, headers) */
  primer: string[];
  /**
   * How many samples begin in `bytes` (UTF-8, whole lines): the sample count of a first half, told
   * ahead. On bytes: a first half of 500 MB is counted without making it a string.
   */
  count(bytes: Uint8Array): number;
  /** offset of the first line at or after `from` (a line start) where a sample begins, or -1 */
  boundary(text: string, from: number): number;
}

/** Context handed to finding rules: the capture and the other captures of the same experiment. */
export interface FindingContext {
  capture: ParsedCapture;
  /** all captures considered together (includes `capture`) */
  all: readonly ParsedCapture[];
}

/** A finding as a rule returns it: the registry stamps the rule's id on it (findingsOf). */
export type RuleFinding = Omit<Finding, 'id'>;

export interface FindingRule {
  /** the id of every finding this rule gives; one rule, one id */
  id: string;
  /** parser ids this rule looks at; the rule runs only on those captures */
  kinds: readonly string[];
  /**
   * The limits the rule judges by, by name (e.g. maxBytesPerWrite: 8192), each documented where the
   * rule defines them, in base units or as a share/percent the name says. Absent when the rule
   * fires on any occurrence at all (a setting that is on, a counter above zero).
   */
  thresholds?: Readonly<Record<string, number>>;
  evaluate(ctx: FindingContext): RuleFinding[];
}

/** What a parser group module exports (shared/capture/parsers/<group>/index.ts). */
export interface ParserGroup {
  parsers: CaptureParser[];
  rules: FindingRule[];
}
