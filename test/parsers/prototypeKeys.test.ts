/**
 * Words that name Object.prototype's members — `constructor`, `toString`, `__proto__`,
 * `hasOwnProperty` — inside real captures, for every parser: a parser looks text up in tables
 * (column heads, keys, units, headings); a plain object literal would answer those words with its
 * prototype's members (sysbench read `toString: 12` under "File operations:" as a metric with no
 * name, hey took a bare `constructor` line for a section heading). The kit's lookupTable has no
 * prototype, so such a word must be read as any other unknown word.
 *
 * Each fixture of a parser's kind is mutated in two ways: words of it (column heads, keys,
 * headings, units: every distinct word, in batches) replaced by one of those names, and lines of
 * them inserted ("constructor", "toString: 12", "  __proto__ = 1" …). Every mutated capture is
 * parsed with its kind forced and checked: no crash (no parser error warning, detect does not
 * throw), every metric and series has a name, no label value is undefined — and it reads exactly
 * as the same capture with a harmless word of the same shape in place of each name
 * ("constructox", "toStrinx"): same metrics, series, settings, facts, tables and warnings.
 */
import { describe, expect, it } from 'vitest';
import { PARSERS, parseText } from '../../shared/capture/registry';
import { cleanLine } from '../../shared/capture/text';
import type { ParsedCapture } from '../../shared/capture/types';
import { loadSamples, type Sample } from './fuzzCore';

/** The prototype's names, and a harmless word of the same shape for each (one letter made an x). */
const NAMES: readonly { name: string; word: string }[] = [
  { name: 'constructor', word: 'constructox' },
  { name: 'toString', word: 'toStrinx' },
  { name: '__proto__', word: '__protx__' },
  { name: 'hasOwnProperty', word: 'hasOwnPropertx' },
];
/** A word of a capture: a letter, `_` or `%`, then word characters and . / % + - */
const WORD = /[A-Za-z_%][\w%./+-]*/g;
/** The distinct words of a capture that are replaced (the first ones: heads, keys and headings come first). */
const MAX_WORDS = 64;
/** Where lines are inserted: this many places spread over the capture. */
const INSERTS = 4;

const samples = loadSamples();

/** The distinct words of a text, in order of appearance. */
function wordsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(WORD)) if (!seen.has(m[0])) seen.add(m[0]);
  return [...seen].slice(0, MAX_WORDS);
}

/** A mutation of a capture: the text with the prototype's names, and the same with the harmless words. */
interface Variant { what: string; text: string; control: string }

function variants(s: Sample): Variant[] {
  const out: Variant[] = [];
  const words = wordsOf(s.text);
  for (let i = 0; i < words.length; i += NAMES.length) {
    const batch = words.slice(i, i + NAMES.length);
    const to = new Map(batch.map((w, k) => [w, NAMES[k]!.name]));
    const ctl = new Map(batch.map((w, k) => [w, NAMES[k]!.word]));
    out.push({
      what: `words ${batch.map((w, k) => `${w} → ${NAMES[k]!.name}`).join(', ')}`,
      text: s.text.replace(WORD, (w) => to.get(w) ?? w),
      control: s.text.replace(WORD, (w) => ctl.get(w) ?? w),
    });
  }
  const lines = s.text.split('\n');
  const block = (n: (x: (typeof NAMES)[number]) => string) => NAMES.flatMap((x) => [n(x), `${n(x)}: 12`, `  ${n(x)}: 12`, `${n(x)} = 1`, `${n(x)},12`]);
  for (let k = 0; k < INSERTS; k++) {
    const at = Math.min(lines.length, Math.round((k * lines.length) / (INSERTS - 1)));
    const with_ = (b: string[]) => [...lines.slice(0, at), ...b, ...lines.slice(at)].join('\n');
    out.push({ what: `lines inserted at line ${at + 1}`, text: with_(block((x) => x.name)), control: with_(block((x) => x.word)) });
  }
  return out;
}

/**
 * Where a parse differs from its control (undefined: nowhere). The two match when they have the same
 * shape and every string (object keys included) of the control reads as that of the parse, but
 * for an x (any case) where the parse has a letter of a name: a harmless word differs from its name
 * in one such letter, and a parser may cut it, change its case or join it to other words
 * ("toStrinx" → "to_strinx", a heading cut between two columns).
 */
function difference(a: unknown, b: unknown, at = ''): string | undefined {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a.length === b.length && [...a].every((c, i) => c === b[i] || b[i] === 'x' || b[i] === 'X')) return undefined;
    return `${at}: ${JSON.stringify(a.slice(0, 120))} where the control has ${JSON.stringify(b.slice(0, 120))}`;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${at}: ${shown(a)} where the control has ${shown(b)}`;
    for (let i = 0; i < a.length; i++) { const d = difference(a[i], b[i], `${at}[${i}]`); if (d) return d; }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return `${at}: keys ${JSON.stringify(ka).slice(0, 300)} where the control has ${JSON.stringify(kb).slice(0, 300)}`;
    for (let i = 0; i < ka.length; i++) {
      const d = difference(ka[i], kb[i], `${at} key`) ?? difference((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!], `${at}.${ka[i]}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${at}: ${shown(a)} where the control has ${shown(b)}`;
}

const shown = (v: unknown): string => (typeof v === 'function' ? `a function (${v.name})` : JSON.stringify(v)?.slice(0, 120) ?? String(v));

/** What is wrong with a parse: a crash turned into a warning, a nameless metric or series, an undefined label. */
function problems(p: ParsedCapture): string[] {
  const bad: string[] = [];
  for (const w of p.warnings) if (/parser error|failed to start|failed:|could not finish|malformed result|could not read the command line/.test(w)) bad.push(`warning: ${w}`);
  const check = (what: string, name: unknown, labels: unknown) => {
    if (typeof name !== 'string' || name === '') bad.push(`${what} without a name: ${String(name)}`);
    if (labels !== undefined) {
      for (const [k, v] of Object.entries(labels as object)) if (typeof v !== 'string') bad.push(`${what} ${String(name)}: label ${k} is ${typeof v}`);
    }
  };
  for (const m of p.metrics) check('metric', m.name, m.labels);
  for (const s of p.series) check('series', s.name, s.labels);
  for (const f of p.findings) if (typeof f.id !== 'string' || typeof f.message !== 'string') bad.push(`finding without id or message: ${JSON.stringify(f)}`);
  return bad;
}

describe('words that name Object.prototype\'s members', () => {
  it('every parser has real captures to try them in', () => {
    const kinds = new Set(samples.map((s) => s.kind));
    expect(PARSERS.map((p) => p.id).filter((id) => !kinds.has(id))).toEqual([]);
  });

  it.each(PARSERS.map((p) => [p.id]))('%s: read as any other word, in every capture of its kind', (kind) => {
    const parser = PARSERS.find((p) => p.id === kind)!;
    const failures: string[] = [];
    let tried = 0;
    for (const s of samples.filter((x) => x.kind === kind)) {
      for (const v of variants(s)) {
        tried++;
        const where = `${s.file}, ${v.what}`;
        try {
          const head = v.text.split(/\r\n|\n|\r/, 2000).map(cleanLine);
          const c = parser.detect(head);
          if (!(c >= 0)) failures.push(`${where}: detect gave ${c}`);
        } catch (e) {
          failures.push(`${where}: detect threw ${String(e)}`);
        }
        let p: ParsedCapture;
        try {
          p = parseText(v.text, { kind, file: s.file });
        } catch (e) {
          failures.push(`${where}: threw ${String(e)}`);
          continue;
        }
        for (const b of problems(p)) failures.push(`${where}: ${b}`);
        const control = parseText(v.control, { kind, file: s.file });
        const d = difference(p, control);
        if (d) failures.push(`${where}: reads differently from the same capture with harmless words, at ${d}`);
        if (failures.length >= 20) break;
      }
      if (failures.length >= 20) break;
    }
    expect(tried).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});
