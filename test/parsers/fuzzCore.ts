/**
 * The parser fuzzer, shared by the CI fuzz tests (test/parsers/fuzz-*.test.ts) and the bench's fuzz
 * phase (scripts/benchFuzz.mjs). No vitest here: a failed check throws a FuzzFailure that says how
 * to replay it.
 *
 * Inputs are real captures (test/fixtures/captures/<kind>/…), cut to a window of lines (small, so
 * ten thousand of them per parser stay fast) and mutated the way pasted, redirected and re-saved
 * output gets mangled. Each mutation is plain data, so fast-check can shrink a failure and print
 * it, and the input can be rebuilt from it (`buildInput`).
 *
 * Each input goes through `checkInput`:
 *  - the parser's sink directly, lines split, cut and cleaned the way the registry does it, so a
 *    throw is seen with its stack (the registry would turn it into a warning);
 *  - the parser's detect on the first lines (never throws, a number ≥ 0);
 *  - CaptureStream with the kind forced, written in the chunks the input names (the app's path,
 *    LineSink.span included), and again in one piece: no "parser error" warning, and the same
 *    result whatever the chunk boundaries;
 *  - the output is JSON-safe (no NaN or ±Infinity where a number is shown, line ranges inside the
 *    capture), says in a warning why it read nothing when it read nothing, and took no more than a
 *    generous time per MB and per line (a hang detector, not a speed test; measured twice before
 *    it fails, so a stalled machine is not a hang).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { CaptureStream, MAX_LINE, PARSERS } from '../../shared/capture/registry';
import { cleanLine } from '../../shared/capture/text';
import type { CaptureParser, FactValue, ParseOutput, ParsedCapture } from '../../shared/capture/types';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');

export interface Sample { kind: string; file: string; text: string; lines: string[] }

/** Every real capture of the fixtures (command lines, jc's JSON and notes left out). */
export function loadSamples(root = FIXTURES): Sample[] {
  const out: Sample[] = [];
  const walk = (dir: string, kind: string): void => {
    for (const n of readdirSync(dir).sort()) {
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) walk(p, kind);
      else if (!/\.(cmd\.txt|jc\.json|md)$/.test(n)) {
        const text = readFileSync(p, 'utf8');
        out.push({ kind, file: path.relative(root, p), text, lines: text.split('\n') });
      }
    }
  };
  for (const kind of readdirSync(root).sort()) if (statSync(path.join(root, kind)).isDirectory()) walk(path.join(root, kind), kind);
  return out;
}

// ---- settings ----------------------------------------------------------------------------------

const envInt = (name: string, dflt: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name}=${v}: not an integer`);
  return n;
};
/** The default seed: fixed, so a CI run is reproducible; FUZZ_SEED changes it. */
export const DEFAULT_SEED = 20261130;
export const fuzzSeed = (): number => envInt('FUZZ_SEED', DEFAULT_SEED);
/** Mutated real captures per parser (FUZZ_RUNS overrides). */
export const fuzzRuns = (dflt: number): number => envInt('FUZZ_RUNS', dflt);
/** fast-check's replay path of a reported failure (with FUZZ_SEED) */
export const fuzzPath = (): string | undefined => process.env.FUZZ_PATH || undefined;

/**
 * Hang detector: an input may take at most FLOOR_MS + MS_PER_MB per MB of text (sink, detect and
 * both stream runs together). Linear parsers take about 10 ms per MB here; a backtracking regex or
 * a quadratic loop takes seconds on a 64 KiB line. Generous, for a loaded CI machine.
 */
export const FLOOR_MS = 3_000;
export const MS_PER_MB = 2_000;
export const budgetMs = (chars: number): number => FLOOR_MS + MS_PER_MB * (chars / 1e6);
/**
 * And no single line (at most MAX_LINE = 64 KiB, as the registry cuts them) may take more than this:
 * linear work on 64 KiB takes about a millisecond, a regex that backtracks over it seconds.
 */
export const LINE_MS = 500;

// ---- mutations ---------------------------------------------------------------------------------

/** One mutation, as data (printable, shrinkable, replayable). Positions are taken modulo the size. */
export type Mut =
  | { op: 'crlf' } | { op: 'cr' } | { op: 'ansi' } | { op: 'comma' } | { op: 'tabs' } | { op: 'trail' } | { op: 'upper' } | { op: 'negate' }
  | { op: 'cut'; at: number } | { op: 'from'; at: number }
  | { op: 'drop'; at: number } | { op: 'blank'; at: number } | { op: 'join'; at: number } | { op: 'colcut'; at: number; col: number }
  | { op: 'dup'; at: number; times: number } | { op: 'swap'; at: number; b: number }
  | { op: 'insert'; at: number; s: string }
  | { op: 'chars'; at: number; s: string }
  | { op: 'bytes'; at: number; bytes: number[] }
  | { op: 'nul'; at: number; n: number }
  | { op: 'number'; at: number; to: string }
  | { op: 'line'; at: number; from: number; sample: number }
  | { op: 'stretch'; at: number; times: number }
  | { op: 'utf16'; le: boolean; bom: boolean };

/** What the input is made of: a window of a real capture (own kind or any), then mutations. */
export interface InputSpec {
  /** true: one of the parser's own captures; false: any capture (cross-feeding) */
  own: boolean;
  sample: number;
  /** first line of the window (0 half the time: the header matters) */
  start: number;
  /** lines in the window */
  lines: number;
  muts: Mut[];
  /** character positions where the text is cut into stream writes */
  cuts: number[];
}

/** Numbers as tools never print them, or print them when they overflow. */
const ODD_NUMBERS = [
  '9'.repeat(400), '1' + '0'.repeat(330), '-' + '9'.repeat(400), '0.' + '0'.repeat(400) + '1', '1e999', '-1e999', '1e-999', '18446744073709551616',
  '9'.repeat(2000) + '.' + '9'.repeat(2000), 'NaN', 'nan', 'inf', '-inf', 'Infinity', '-0', '+0', '0x10', '1.2.3', '--1', '.', '-', '', '1,2,3,4', '١٢٣', '１２３',
];
const INSERTS = ['', ' ', '\t', '-', '%', ':', 'Average:', 'Total', '[', ']', '{', '}', '"', "'", '===', '|', '#', '\\', '0', '-1', '1e309', '\uFEFF', '\uFFFD', '\u00A0', '\u2028'];

const pos = fc.nat({ max: 1 << 20 });
export const mutArb: fc.Arbitrary<Mut> = fc.oneof(
  fc.constantFrom<Mut>({ op: 'crlf' }, { op: 'cr' }, { op: 'ansi' }, { op: 'comma' }, { op: 'tabs' }, { op: 'trail' }, { op: 'upper' }, { op: 'negate' }),
  fc.record({ op: fc.constant('cut' as const), at: pos }),
  fc.record({ op: fc.constant('from' as const), at: pos }),
  fc.record({ op: fc.constant('drop' as const), at: pos }),
  fc.record({ op: fc.constant('blank' as const), at: pos }),
  fc.record({ op: fc.constant('join' as const), at: pos }),
  fc.record({ op: fc.constant('colcut' as const), at: pos, col: fc.nat({ max: 200 }) }),
  fc.record({ op: fc.constant('dup' as const), at: pos, times: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('swap' as const), at: pos, b: pos }),
  fc.record({ op: fc.constant('insert' as const), at: pos, s: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 })) }),
  fc.record({ op: fc.constant('chars' as const), at: pos, s: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ unit: 'binary', maxLength: 8 })) }),
  fc.record({ op: fc.constant('bytes' as const), at: pos, bytes: fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }) }),
  fc.record({ op: fc.constant('nul' as const), at: pos, n: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant('number' as const), at: pos, to: fc.constantFrom(...ODD_NUMBERS) }),
  fc.record({ op: fc.constant('line' as const), at: pos, from: pos, sample: pos }),
  fc.record({ op: fc.constant('stretch' as const), at: pos, times: fc.integer({ min: 2, max: 200 }) }),
  fc.record({ op: fc.constant('utf16' as const), le: fc.boolean(), bom: fc.boolean() }),
);

export const inputArb: fc.Arbitrary<InputSpec> = fc.record({
  own: fc.oneof({ weight: 7, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
  sample: pos,
  start: fc.oneof(fc.constant(0), pos),
  lines: fc.integer({ min: 1, max: 30 }),
  muts: fc.array(mutArb, { minLength: 1, maxLength: 4 }),
  // a third of the inputs are also written in pieces and compared with the one-piece parse
  cuts: fc.oneof({ weight: 2, arbitrary: fc.constant<number[]>([]) }, { weight: 1, arbitrary: fc.array(pos, { minLength: 1, maxLength: 6 }) }),
});

/** Bytes decoded the way the app decodes a file: StringDecoder('utf8'), 64 KiB at a time (U+FFFD for what is not UTF-8). */
export function decodeAsApp(bytes: Uint8Array): string {
  const d = new StringDecoder('utf8');
  let s = '';
  for (let o = 0; o < bytes.length; o += 64 * 1024) s += d.write(Buffer.from(bytes.buffer, bytes.byteOffset + o, Math.min(64 * 1024, bytes.length - o)));
  return s + d.end();
}

/** Text saved as UTF-16 (PowerShell's `>` writes UTF-16LE with a BOM), then read by the app as UTF-8. */
export function utf16Bytes(text: string, le: boolean, bom: boolean): Buffer {
  const b = Buffer.from((bom ? '\uFEFF' : '') + text, 'utf16le');
  if (!le) b.swap16();
  return b;
}

const NUMBER_RE = /\d+(?:\.\d+)?/g;

function replaceNth(t: string, re: RegExp, at: number, to: (m: string) => string): string {
  const all = [...t.matchAll(re)];
  if (!all.length) return t;
  const m = all[at % all.length]!;
  return t.slice(0, m.index) + to(m[0]) + t.slice(m.index! + m[0].length);
}

function applyMut(t: string, m: Mut, samples: readonly Sample[]): string {
  const lines = (): string[] => t.split('\n');
  switch (m.op) {
    case 'crlf': return t.replace(/\n/g, '\r\n');
    case 'cr': return t.replace(/\n/g, '\r');
    case 'ansi': return t.replace(/(\d+)/g, '\x1b[1;31m$1\x1b[0m');
    case 'comma': return t.replace(/\./g, ',');
    case 'tabs': return t.replace(/ +/g, '\t');
    case 'trail': return t.replace(/\n/g, '   \n');
    case 'upper': return t.toUpperCase();
    case 'negate': return t.replace(/(^|\s)(\d)/g, '$1-$2');
    case 'cut': return t.slice(0, m.at % (t.length + 1));
    case 'from': return t.slice(m.at % (t.length + 1));
    case 'drop': { const l = lines(); l.splice(m.at % l.length, 1); return l.join('\n'); }
    case 'blank': { const l = lines(); l.splice(m.at % (l.length + 1), 0, ''); return l.join('\n'); }
    case 'join': { const l = lines(); const i = m.at % l.length; return [...l.slice(0, i), l[i]! + (l[i + 1] ?? ''), ...l.slice(i + 2)].join('\n'); }
    case 'colcut': { const l = lines(); const i = m.at % l.length; l[i] = l[i]!.slice(0, m.col); return l.join('\n'); }
    case 'dup': { const l = lines(); const i = m.at % l.length; l.splice(i, 0, ...Array<string>(m.times).fill(l[i]!)); return l.join('\n'); }
    case 'swap': { const l = lines(); const i = m.at % l.length; const j = m.b % l.length; [l[i], l[j]] = [l[j]!, l[i]!]; return l.join('\n'); }
    case 'insert': { const l = lines(); l.splice(m.at % (l.length + 1), 0, m.s); return l.join('\n'); }
    case 'chars': { const i = m.at % (t.length + 1); return t.slice(0, i) + m.s + t.slice(i); }
    case 'bytes': {
      const b = Buffer.from(t, 'utf8');
      const i = m.at % (b.length + 1);
      return decodeAsApp(Buffer.concat([b.subarray(0, i), Buffer.from(m.bytes), b.subarray(i)]));
    }
    case 'nul': { const i = m.at % (t.length + 1); return t.slice(0, i) + '\0'.repeat(m.n) + t.slice(i); }
    case 'number': return replaceNth(t, NUMBER_RE, m.at, () => m.to);
    case 'line': {
      const s = samples[m.sample % samples.length]!;
      const l = lines();
      l.splice(m.at % (l.length + 1), 0, s.lines[m.from % s.lines.length]!);
      return l.join('\n');
    }
    case 'stretch': {
      // one line made long by repeating its own words (a wide table, a long stack); up to 8 KiB here, lines of
      // 64 KiB and 10 MB are in bigInputs
      const l = lines();
      const i = m.at % l.length;
      l[i] = (l[i]! + ' ').repeat(Math.min(m.times, Math.ceil(8192 / (l[i]!.length + 1)))).trimEnd();
      return l.join('\n');
    }
    case 'utf16': return decodeAsApp(utf16Bytes(t, m.le, m.bom));
  }
}
/** The parser's own captures (falls back to all when it has none). */
export function samplesOf(all: readonly Sample[], kind: string): Sample[] {
  const own = all.filter((s) => s.kind === kind);
  return own.length ? own : [...all];
}

/** The input a spec describes: the sample it starts from, and the text. */
export function buildInput(spec: InputSpec, own: readonly Sample[], all: readonly Sample[]): { sample: Sample; text: string } {
  const pool = spec.own ? own : all;
  const sample = pool[spec.sample % pool.length]!;
  const start = spec.start % sample.lines.length;
  let text = sample.lines.slice(start, start + spec.lines).join('\n');
  for (const m of spec.muts) text = applyMut(text, m, all);
  return { sample, text };
}

// ---- running -----------------------------------------------------------------------------------

/** Lines as the registry hands them to a sink: split at \r\n, \r or \n, cut at MAX_LINE, cleaned. */
export function registryLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((l) => cleanLine(l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l));
}

/** The slowest line of the last runSink: its number and the ms it took. */
export const slowestLine = { lineNo: 0, ms: 0 };

/** The parser's sink fed directly: a throw is not caught. Times each line (slowestLine). */
export function runSink(p: CaptureParser, lines: readonly string[]): ParseOutput {
  const sink = p.open();
  slowestLine.lineNo = 0;
  slowestLine.ms = 0;
  let t = performance.now();
  for (let i = 0; i < lines.length; i++) {
    sink.line(lines[i]!, i + 1);
    const now = performance.now();
    if (now - t > slowestLine.ms) { slowestLine.ms = now - t; slowestLine.lineNo = i + 1; }
    t = now;
  }
  return sink.end();
}

/** Through CaptureStream as the app does it, the kind forced, written in pieces cut at `cuts`. */
export function runStream(kind: string, text: string, cuts: readonly number[] = []): ParsedCapture {
  const s = new CaptureStream({ kind });
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let prev = 0;
  for (const p of [...points, text.length]) { s.write(text.slice(prev, p)); prev = p; }
  return s.end();
}

export const readNothing = (o: ParseOutput): boolean =>
  o.metrics.length === 0 && o.series.length === 0 && Object.keys(o.facts).length === 0 && Object.keys(o.settings).length === 0
  && Object.keys(o.tables ?? {}).length === 0;

/** Why an output is wrong, or null: numbers shown must be finite, line ranges inside the capture, warnings strings. */
export function outputProblem(o: ParseOutput, lineCount: number): string | null {
  const badRange = (r: readonly [number, number] | undefined): boolean =>
    r !== undefined && !(Number.isInteger(r[0]) && Number.isInteger(r[1]) && r[0] >= 1 && r[0] <= r[1] && r[1] <= lineCount);
  if (!Array.isArray(o.warnings) || o.warnings.some((w) => typeof w !== 'string' || w === '')) return 'warnings are not all non-empty strings';
  for (const m of o.metrics) {
    if (typeof m.name !== 'string' || !m.name) return 'a metric without a name';
    if (typeof m.value !== 'number' || !Number.isFinite(m.value)) return `metric ${m.name} ${JSON.stringify(m.labels ?? {})} is ${m.value}`;
    if (badRange(m.lines)) return `metric ${m.name} cites lines ${JSON.stringify(m.lines)} of ${lineCount}`;
  }
  for (const s of o.series) {
    if (!Array.isArray(s.values) || s.values.some((v) => typeof v !== 'number' || v === Infinity || v === -Infinity)) return `series ${s.name} ${JSON.stringify(s.labels ?? {})} holds a value that is not a finite number or NaN`;
    if (s.times && (s.times.length !== s.values.length || s.times.some((t) => t !== null && !Number.isFinite(t)))) return `series ${s.name}: times do not match the values`;
    if (badRange(s.lines)) return `series ${s.name} cites lines ${JSON.stringify(s.lines)} of ${lineCount}`;
  }
  const badFact = (v: FactValue): boolean => {
    if (typeof v === 'number') return !Number.isFinite(v);
    if (Array.isArray(v)) return v.some(badFact);
    if (v !== null && typeof v === 'object') return Object.values(v).some(badFact);
    return v === undefined;
  };
  for (const [k, v] of Object.entries(o.facts)) if (badFact(v)) return `fact ${k} is ${JSON.stringify(v)} (not JSON-safe)`;
  for (const [k, v] of Object.entries(o.settings)) if (typeof v !== 'string') return `setting ${k} is not a string`;
  for (const [k, t] of Object.entries(o.tables ?? {})) {
    for (const row of t.rows) if (row.some((c) => typeof c === 'number' ? !Number.isFinite(c) : c !== null && typeof c !== 'string')) return `table ${k} holds a cell that is not a string, a finite number or null`;
  }
  if (readNothing(o) && o.warnings.length === 0) return 'read nothing and gave no warning saying why';
  return null;
}

/** The part of a parse that must not depend on where the stream's chunks were cut. */
export const essence = (c: ParsedCapture): string => JSON.stringify({ m: c.metrics, s: c.series.map((x) => [x.name, x.labels, x.values, x.times]), f: c.facts, st: c.settings, t: c.tables });

export class FuzzFailure extends Error {}

/** What the caller needs to replay one input. */
export interface Replay { parser: string; source?: string; spec?: unknown; text: string }

/** Write the failing input where it can be parsed again, and say how. */
export function describeFailure(r: Replay, problem: string): string {
  const file = path.join(os.tmpdir(), `tunebook-fuzz-${r.parser}.txt`);
  try { writeFileSync(file, r.text); } catch { /* the message still holds the spec */ }
  const shown = r.text.length <= 600 ? JSON.stringify(r.text) : `${JSON.stringify(r.text.slice(0, 600))}… (${r.text.length} characters)`;
  return `${r.parser}: ${problem}\n  input: ${shown}\n  written to ${file} — replay: node dist/cli.cjs parse --kind ${r.parser} --json ${file}`
    + (r.source ? `\n  from ${r.source}` : '') + (r.spec !== undefined ? `\n  spec: ${JSON.stringify(r.spec)}` : '');
}

export interface CheckOptions {
  /** compare a chunked stream with a one-piece stream (skipped for inputs over 1 MB: lines over 4 × MAX_LINE are cut where the chunks fall) */
  chunks?: readonly number[];
}

/** Run one input through the parser every way; throws a FuzzFailure naming the problem. Returns the ms taken and the stream's parse. */
export function checkInput(p: CaptureParser, text: string, replay: Omit<Replay, 'parser' | 'text'>, opts: CheckOptions = {}): { ms: number; streamed: ParsedCapture } {
  const fail = (problem: string, cause?: unknown): never => {
    throw new FuzzFailure(describeFailure({ parser: p.id, text, ...replay }, problem), cause === undefined ? undefined : { cause });
  };
  const t0 = performance.now();
  const lines = registryLines(text);
  let direct: ParseOutput;
  try { direct = runSink(p, lines); } catch (e) { return fail(`the sink threw: ${e instanceof Error ? e.stack ?? e.message : String(e)}`, e); }
  const slow = { ...slowestLine };
  let conf: number;
  try { conf = p.detect(lines.slice(0, 400)); } catch (e) { return fail(`detect threw: ${e instanceof Error ? e.stack ?? e.message : String(e)}`, e); }
  if (typeof conf !== 'number' || !(conf >= 0)) fail(`detect returned ${conf}`);
  let streamed: ParsedCapture;
  let whole: ParsedCapture | null = null;
  try {
    streamed = runStream(p.id, text, opts.chunks ?? []);
    if (opts.chunks && opts.chunks.length && text.length <= 1e6) whole = runStream(p.id, text);
  } catch (e) { return fail(`CaptureStream threw: ${e instanceof Error ? e.stack ?? e.message : String(e)}`, e); }
  const ms = performance.now() - t0;
  const thrown = streamed.warnings.find((w) => /^line \d+: parser error: |^parser \S+ failed/.test(w));
  if (thrown) fail(`through CaptureStream: ${thrown}`);
  // the sink's own output: it must say why when it read nothing (its numbers are made finite by the registry)
  if (readNothing(direct) && direct.warnings.length === 0) fail('the sink read nothing and gave no warning saying why');
  const problem = outputProblem(streamed, lines.length + Math.ceil(text.length / (4 * MAX_LINE)) + 1);
  if (problem) fail(problem);
  if (whole && essence(whole) !== essence(streamed)) fail(`written in pieces cut at ${JSON.stringify(opts.chunks)} it reads differently than in one piece`);
  if (ms > budgetMs(text.length) || slow.ms > LINE_MS) {
    // once more before calling it a hang: a loaded machine can stall one run (a GC, another process)
    const t1 = performance.now();
    runSink(p, lines);
    const slowAgain = { ...slowestLine };
    runStream(p.id, text, opts.chunks ?? []);
    const again = performance.now() - t1;
    if (again > budgetMs(text.length)) fail(`took ${ms.toFixed(0)} ms, then ${again.toFixed(0)} ms, for ${(text.length / 1e6).toFixed(3)} MB (hang detector: ${FLOOR_MS} ms + ${MS_PER_MB} ms per MB)`);
    if (slowAgain.ms > LINE_MS) fail(`line ${slowAgain.lineNo} (${lines[slowAgain.lineNo - 1]!.length} characters) took ${slow.ms.toFixed(0)} ms, then ${slowAgain.ms.toFixed(0)} ms (hang detector: ${LINE_MS} ms per line)`);
  }
  return { ms, streamed };
}

export interface FuzzStats { inputs: number; chars: number; ms: number; worstMsPerMb: number }

/**
 * The property for one parser: `runs` mutated real captures (own kind and cross-fed), each checked
 * by checkInput. Returns what was fed; throws fast-check's report (seed, path, shrunk counterexample).
 */
export function fuzzParser(p: CaptureParser, all: readonly Sample[], runs: number, seed = fuzzSeed(), replayPath = fuzzPath()): FuzzStats {
  const own = samplesOf(all, p.id);
  const stats: FuzzStats = { inputs: 0, chars: 0, ms: 0, worstMsPerMb: 0 };
  fc.assert(fc.property(inputArb, (spec) => {
    const { sample, text } = buildInput(spec, own, all);
    const { ms } = checkInput(p, text, { source: sample.file, spec }, { chunks: spec.cuts });
    stats.inputs++;
    stats.chars += text.length;
    stats.ms += ms;
    if (text.length >= 1e5) stats.worstMsPerMb = Math.max(stats.worstMsPerMb, ms / (text.length / 1e6));
  }), { seed, numRuns: runs, ...(replayPath ? { path: replayPath } : {}), includeErrorInReport: true });
  return stats;
}

/** Random bytes, decoded as the app decodes them (UTF-8 → U+FFFD) and as Latin-1. */
export function fuzzRandomBytes(p: CaptureParser, runs: number, seed = fuzzSeed()): number {
  let n = 0;
  fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), fc.boolean(), (bytes, latin1) => {
    const text = latin1 ? Buffer.from(bytes).toString('latin1') : decodeAsApp(bytes);
    checkInput(p, text, { spec: { bytes: Buffer.from(bytes).toString('base64'), latin1 } });
    n++;
  }), { seed, numRuns: runs, includeErrorInReport: true });
  return n;
}

/** Lines of random text and of the tokens parsers key on. */
export function fuzzRandomLines(p: CaptureParser, runs: number, seed = fuzzSeed()): number {
  let n = 0;
  fc.assert(fc.property(fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...INSERTS, ...ODD_NUMBERS.slice(0, 8))), { maxLength: 40 }), (lines) => {
    checkInput(p, lines.join('\n'), { spec: { lines } });
    n++;
  }), { seed, numRuns: runs, includeErrorInReport: true });
  return n;
}

/**
 * The big ones, a few per parser: 10 MB single lines (a real capture with its line breaks made
 * spaces, repeated; digits; random bytes decoded as UTF-8), written in 64 KiB pieces as the app
 * does; the parser's own captures stretched to lines just under MAX_LINE; and every own capture
 * saved as UTF-16LE/BE with and without a BOM, read as UTF-8. Returns how many and their size.
 */
export function bigInputs(p: CaptureParser, all: readonly Sample[]): { name: string; text: string; chunks: number[] }[] {
  const own = samplesOf(all, p.id);
  const at64k = (n: number): number[] => Array.from({ length: Math.floor(n / 65536) }, (_, i) => (i + 1) * 65536);
  const TEN_MB = 10 * 1024 * 1024;
  const flat = own.map((s) => s.text).join(' ').replace(/[\r\n]+/g, ' ');
  const rnd = Buffer.alloc(TEN_MB);
  let x = 0x9e3779b9 ^ fuzzSeed();
  for (let i = 0; i < rnd.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; rnd[i] = x & 0xff; if (rnd[i] === 10 || rnd[i] === 13) rnd[i] = 32; }
  const out = [
    { name: '10 MB line of its own captures', text: flat.repeat(Math.ceil(TEN_MB / Math.max(flat.length, 1))).slice(0, TEN_MB) },
    { name: '10 MB line of digits and spaces', text: '1234567890 '.repeat(Math.ceil(TEN_MB / 11)).slice(0, TEN_MB) },
    { name: '10 MB line of random bytes read as UTF-8', text: decodeAsApp(rnd) },
    {
      name: 'its own captures, every line stretched to ~64 KiB',
      text: own.flatMap((s) => s.lines.slice(0, 40)).map((l) => (l + ' ').repeat(Math.ceil(60_000 / (l.length + 1))).slice(0, 60_000)).join('\n').slice(0, 4 * TEN_MB / 10),
    },
  ].map((b) => ({ ...b, chunks: at64k(b.text.length) }));
  for (const s of own) {
    for (const [le, bom] of [[true, true], [true, false], [false, true], [false, false]] as const) {
      out.push({ name: `${s.file} as UTF-16${le ? 'LE' : 'BE'}${bom ? ' with BOM' : ''}, read as UTF-8`, text: decodeAsApp(utf16Bytes(s.text.replace(/(?<!\r)\n/g, '\r\n'), le, bom)), chunks: [] });
    }
  }
  return out;
}

/** A line made `len` characters long by repeating itself (its words, separated by a space). */
export const stretch = (l: string, len: number): string => (l + ' ').repeat(Math.ceil(len / (l.length + 1))).slice(0, len);

export interface ScalingProblem { source: string; line: string; ms8k: number; ms32k: number }

/**
 * Super-linear time on long lines, measured directly: each distinct line of the parser's own
 * captures (up to `maxShapes`, digits ignored) is stretched to 8 KiB and to 32 KiB and fed after the
 * lines before it (its context: headers, sections); linear work takes 4× as long on the longer one,
 * a backtracking regex 16× or more. A line is a problem when the 32 KiB one takes over 250 ms and
 * over 10× the 8 KiB one — three times in a row (a stalled machine is not a problem). With
 * `digits` (the bench), the same for the first 40 shapes with each of their first four numbers
 * made a long run of digits (2 × 4,000, then 2 × 16,000).
 */
export function lineScaling(p: CaptureParser, all: readonly Sample[], opts: { maxShapes?: number; digits?: boolean } = {}): ScalingProblem[] {
  const maxShapes = opts.maxShapes ?? 150;
  const own = samplesOf(all, p.id).filter((s) => s.kind === p.id);
  const seen = new Set<string>();
  const out: ScalingProblem[] = [];
  const timeAt = (s: Sample, i: number, len: number): number => {
    const sink = p.open();
    const from = Math.max(0, i - 30);
    for (let k = from; k < i; k++) sink.line(cleanLine(s.lines[k]!), k + 1);
    const t0 = performance.now();
    sink.line(stretch(cleanLine(s.lines[i]!), len), i + 1);
    const ms = performance.now() - t0;
    sink.end();
    return ms;
  };
  /** ms for line i with its number `pos` made `n` digits, a point and `n` digits, and a comma; -1 when it has no such number */
  const timeWith = (s: Sample, i: number, pos: number, n: number): number => {
    let c = -1;
    const line = cleanLine(s.lines[i]!).replace(/\d+(?:\.\d+)?/g, (m) => (++c === pos ? `${'9'.repeat(n)}.${'9'.repeat(n)},` : m));
    if (c < pos) return -1;
    const sink = p.open();
    for (let k = Math.max(0, i - 30); k < i; k++) sink.line(cleanLine(s.lines[k]!), k + 1);
    const t0 = performance.now();
    sink.line(line, i + 1);
    const ms = performance.now() - t0;
    sink.end();
    return ms;
  };
  const maxDigitShapes = 40;
  for (const s of own) {
    for (let i = 0; i < s.lines.length && seen.size < maxShapes; i++) {
      const shape = s.lines[i]!.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim();
      if (!shape || seen.has(shape)) continue;
      seen.add(shape);
      let bad = true;
      let m8 = 0, m32 = 0;
      for (let attempt = 0; attempt < 3 && bad; attempt++) {
        m8 = timeAt(s, i, 8192);
        m32 = timeAt(s, i, 32768);
        bad = m32 > 250 && m32 > 10 * m8;
      }
      if (bad) out.push({ source: `${s.file}:${i + 1}`, line: s.lines[i]!.slice(0, 120), ms8k: Math.round(m8), ms32k: Math.round(m32) });
      // and each of its first numbers made a run of 4,000 then 16,000 digits (a backtracking regex
      // that starts at every digit of a run it then fails on takes quadratic time)
      if (!opts.digits || seen.size > maxDigitShapes) continue;
      for (let pos = 0; pos < 4; pos++) {
        let bad2 = true;
        for (let attempt = 0; attempt < 3 && bad2; attempt++) {
          m8 = timeWith(s, i, pos, 4000);
          if (m8 < 0) { bad2 = false; break; }
          m32 = timeWith(s, i, pos, 16000);
          bad2 = m32 > 250 && m32 > 10 * m8;
        }
        if (bad2) out.push({ source: `${s.file}:${i + 1}, number ${pos + 1} made 2 × 16,000 digits`, line: s.lines[i]!.slice(0, 120), ms8k: Math.round(m8), ms32k: Math.round(m32) });
      }
    }
  }
  return out;
}

export { PARSERS };
