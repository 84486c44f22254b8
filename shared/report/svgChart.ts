/**
 * A study's comparison charts as static SVG for exported reports (HTML, Markdown, PDF). Reports must
 * make no network request and run no script, and they are built without a browser, so this cannot use
 * plotly or measure text: it lays the chart out itself, estimating text widths from a table of
 * typical sans-serif glyph widths, and draws in a plain white theme that reads the same on screen and
 * on paper. The look follows the app's plotly charts (renderer/src/components/Chart) so a report
 * matches what the user saw.
 *
 * Safety: every piece of text comes from users or captures, so it is written only as element
 * content, through escapeHtml, after dropping the characters XML cannot hold at all. Nothing user
 * supplied goes into an attribute, and the output has no script, event attribute, link, image,
 * foreignObject, id or url(): an SVG inlined into a report cannot reach outside itself or collide
 * with another chart on the same page.
 *
 * Output is deterministic (no locale, clock or randomness; coordinates rounded to 0.1 px) so two
 * exports of the same study compare byte for byte.
 */
import { escapeHtml } from '../html';
import { formatNumber } from '../units';

export interface SvgSeries {
  name: string;
  /** category labels (experiments), the same categories across series */
  x: string[];
  /** null: no point */
  y: (number | null)[];
  /** the spread of repeated runs: an error bar per point */
  low?: (number | null)[];
  high?: (number | null)[];
  /** label drawn above each point; "\n" starts a second, smaller muted line */
  text?: string[];
  /** full text per point, as an SVG <title> (native tooltip) */
  hover?: string[];
  /** 'line': kept steps joined (nulls skipped, the line joins over gaps); 'points': set-apart markers (an ×), not joined */
  mode: 'line' | 'points';
  tone: 'accent' | 'muted';
}

/** a dashed horizontal requirement line with its label */
export interface SvgGoal { value: number; label: string }

export interface SvgBar { label: string; value: number; text: string; tone?: 'accent' | 'muted' }

// Colours are literal (no CSS variables): the SVG stands alone in a file, on paper, in dark-mode
// Markdown viewers (hence the white background rect). They are the app's light theme.
const INK = '#1d1f23';
const MUTED_INK = '#5f6570';
const GRID = '#e6e7e3';
const AXIS = '#b4b7af';
const ZERO = '#9ea29a';
const GOAL = '#17803d';
const MUTED_SERIES = '#8b919b';
// The brief's tones say which series matters; a second or third accented series still needs its own
// hue or the legend could not tell them apart.
const ACCENTS = ['#2456c8', '#c2410c', '#0f766e', '#7c3aed', '#be185d'];
const FONT = 'system-ui, -apple-system, &quot;Segoe UI&quot;, sans-serif';

/** The same colours for the report's interactive charts (interactive.ts), so switching from the SVG changes nothing but what it does. */
export const SVG_COLORS = { ink: INK, mutedInk: MUTED_INK, grid: GRID, axis: AXIS, zero: ZERO, goal: GOAL, mutedSeries: MUTED_SERIES, accents: ACCENTS } as const;

/** Past this many categories, points lose their labels and default tooltips: they would only pile up. */
const DENSE = 60;
const PAD = 12;

// ---------------------------------------------------------------------------------------------
// Numbers

const SI = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

/**
 * One tick style for every axis: plain below 1,000 (0, 250, 0.25), SI from 1,000 up (1.5k, 43k,
 * 2.5M), trailing zeros dropped, a real minus sign. Mixing "1000 1500" with "10k" on one axis is
 * what d3's default did to our readers; this never does.
 */
export function formatTick(v: number): string {
  if (!Number.isFinite(v)) return '';
  if (v === 0) return '0';
  const sign = v < 0 ? '\u2212' : '';
  const a = Math.abs(v);
  // 4 significant digits: an axis that includes 0 never needs more, and it hides float noise (0.30000000000000004)
  const plain = Number(a.toPrecision(4));
  if (plain < 1000) return sign + String(plain).replace('e-', 'e\u2212');
  let k = Math.min(SI.length - 1, Math.max(1, Math.floor(Math.log10(a) / 3)));
  let n = Number((a / 1000 ** k).toPrecision(4));
  // 999,999 rounds to "1000k": say 1M
  if (n >= 1000 && k < SI.length - 1) n = Number((a / 1000 ** ++k).toPrecision(4));
  return sign + String(n).replace('e+', 'e') + SI[k]!;
}

/** 0.1 px is finer than any screen or printer shows, and keeps the output short and stable. */
function px(v: number): string {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) || !Number.isFinite(r) ? '0' : String(r);
}

/** The step of "nice" ticks (1, 2, 2.5 or 5 × 10^n) giving about `count` intervals over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const e = raw / mag;
  // thresholds at the geometric means between the candidates, so the step is the nearest in ratio
  return (e >= Math.sqrt(50) ? 10 : e >= Math.sqrt(12.5) ? 5 : e >= Math.sqrt(5) ? 2.5 : e >= Math.sqrt(2) ? 2 : 1) * mag;
}

/** something that must fit inside the plot: a value, and how many px above (or below) it it needs */
interface Room { v: number; up: number; down: number }

interface YScale { lo: number; hi: number; ticks: number[]; y: (v: number) => number }

/**
 * The y axis: from 0 (or below, for negative data) to a round tick high enough that every point's
 * label, error bar and goal label still fits under the top. Room is asked in pixels, so the
 * headroom is solved against the plot height rather than guessed as a percentage.
 */
function yScale(rooms: Room[], top: number, bottom: number): YScale {
  const h = Math.max(1, bottom - top);
  const count = Math.max(2, Math.min(8, Math.round(h / 45)));
  let lo0 = 0;
  let hi0 = 0;
  for (const r of rooms) { lo0 = Math.min(lo0, r.v); hi0 = Math.max(hi0, r.v); }
  if (hi0 === lo0) hi0 = lo0 + 1;
  let lo = lo0;
  let hi = hi0;
  let ticks: number[] = [];
  for (let pass = 0; pass < 4; pass++) {
    // a value v needing p px above it: (hi − v) / (hi − lo) · h ≥ p  ⇔  hi ≥ (v − f·lo) / (1 − f), f = p / h
    let needHi = hi0;
    let needLo = lo0;
    for (const r of rooms) {
      if (r.up > 0) { const f = Math.min(0.45, r.up / h); needHi = Math.max(needHi, (r.v - f * lo) / (1 - f)); }
      if (r.down > 0 && r.v < 0) { const f = Math.min(0.45, r.down / h); needLo = Math.min(needLo, (r.v - f * hi) / (1 - f)); }
    }
    if (!Number.isFinite(needHi) || !Number.isFinite(needLo) || needHi <= needLo) break;
    const step = niceStep(needHi - needLo, count);
    const kLo = Math.floor(needLo / step + 1e-9);
    const kHi = Math.ceil(needHi / step - 1e-9);
    if (!Number.isFinite(kLo) || !Number.isFinite(kHi) || kHi - kLo > 40) break;
    const next: number[] = [];
    for (let k = kLo; k <= kHi; k++) next.push(Number((k * step).toPrecision(12)) || 0);
    const done = next[0] === lo && next[next.length - 1] === hi;
    ticks = next;
    lo = next[0]!;
    hi = next[next.length - 1]!;
    // widening one end changes the room at the other; stop once the range no longer moves
    if (done) break;
  }
  if (ticks.length < 2 || hi <= lo) { lo = lo0; hi = hi0; ticks = [lo0, hi0]; }
  const span = hi - lo;
  return { lo, hi, ticks, y: (v) => bottom - ((v - lo) / span) * h };
}

// ---------------------------------------------------------------------------------------------
// Text

/** XML 1.0 cannot carry these even as character references; a capture may hold any of them. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** user text as element content: valid XML, escaped */
function esc(text: string): string {
  return escapeHtml(String(text).replace(NOT_XML, ''));
}

/** one line of user text (labels, names): line breaks and runs of spaces as one space */
function oneLine(text: string): string {
  return String(text).replace(NOT_XML, '').replace(/\s+/g, ' ').trim();
}

/**
 * Advance widths in em of printable ASCII in DejaVu Sans, the system-ui of most Linux desktops and
 * the widest of the usual system sans-serifs (Segoe UI and San Francisco are narrower): a label cut a
 * little early elsewhere is better than one running into its neighbour here.
 */
const ASCII_EM = [
  .32, .40, .46, .84, .64, .96, .78, .28, .40, .40, .50, .84, .32, .36, .32, .34, //  !"#$%&'()*+,-./
  .64, .64, .64, .64, .64, .64, .64, .64, .64, .64, .34, .34, .84, .84, .84, .54, // 0123456789:;<=>?
  1.0, .68, .70, .70, .78, .64, .58, .78, .76, .30, .30, .66, .56, .86, .76, .80, // @ABCDEFGHIJKLMNO
  .60, .80, .70, .64, .62, .74, .68, 1.0, .70, .62, .70, .40, .34, .40, .84, .50, // PQRSTUVWXYZ[\]^_
  .50, .62, .64, .56, .64, .62, .36, .64, .64, .28, .28, .58, .28, .98, .64, .62, // `abcdefghijklmno
  .64, .64, .42, .52, .40, .64, .60, .82, .60, .60, .54, .64, .34, .64, .84, //      pqrstuvwxyz{|}~
];

function charWidth(c: string): number {
  const cp = c.codePointAt(0) ?? 0;
  if (cp >= 32 && cp < 127) return ASCII_EM[cp - 32]!;
  // math signs (−, ≥, ×) are as wide as "+"; CJK, Hangul and emoji take a full em; other letters
  // (é, Δ, я) about an average capital
  if (cp === 0xb1 || cp === 0xd7 || cp === 0xf7 || (cp >= 0x2190 && cp < 0x2300)) return 0.84;
  if (cp === 0x2026 || cp >= 0x1100) return 1;
  return 0.7;
}

/** Bold (the title) runs about a tenth wider than the table. */
const BOLD = 1.1;

function textWidth(text: string, size: number): number {
  let w = 0;
  for (const c of text) w += charWidth(c);
  return w * size;
}

/** the text cut with "…" to fit `room` px ("" when not even "…" fits) */
function fit(text: string, room: number, size: number): string {
  if (textWidth(text, size) <= room) return text;
  const chars = Array.from(text);
  let w = textWidth('\u2026', size);
  if (w > room) return '';
  let n = 0;
  for (; n < chars.length; n++) {
    const cw = charWidth(chars[n]!) * size;
    if (w + cw > room) break;
    w += cw;
  }
  return `${chars.slice(0, n).join('').trimEnd()}\u2026`;
}

/** a <text> with its content fitted to `room`; the whole text as a tooltip when it was cut */
function fittedText(attrs: string, text: string, room: number, size: number): string {
  const shown = fit(text, room, size);
  if (shown === text) return `<text ${attrs}>${esc(text)}</text>`;
  return `<text ${attrs}><title>${esc(text)}</title>${esc(shown)}</text>`;
}

// A white halo behind labels drawn over lines and grid, so they stay readable where they cross.
const HALO = 'stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"';

// ---------------------------------------------------------------------------------------------
// Shared frame: document, header (title and legend), y axis, x category labels

interface LegendItem { name: string; color: string; mode: 'line' | 'points' }

interface Frame {
  width: number; height: number;
  left: number; right: number; top: number; bottom: number;
  header: string[];
}

function documentOpen(width: number, height: number, title: string, desc: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" font-family="${FONT}" font-size="12">`
    + `\n<title>${esc(title)}</title>\n<desc>${esc(desc)}</desc>`
    + `\n<rect width="${width}" height="${height}" fill="#fff"/>`;
}

function legendSwatch(item: LegendItem, x: number, y: number): string {
  if (item.mode === 'points') {
    return `<path d="M${px(x + 7)} ${px(y - 4)}l8 8m0 -8l-8 8" stroke="${item.color}" stroke-width="2" fill="none"/>`;
  }
  return `<path d="M${px(x)} ${px(y)}h22" stroke="${item.color}" stroke-width="2" fill="none"/>`
    + `<circle cx="${px(x + 11)}" cy="${px(y)}" r="3.5" fill="${item.color}"/>`;
}

/**
 * The title on the left and the legend right-aligned (as plotly's horizontal legend); the legend
 * goes on its own rows when the two do not fit side by side. Returns the drawn header and its height.
 */
function header(width: number, title: string | undefined, legend: LegendItem[]): { svg: string[]; height: number } {
  const svg: string[] = [];
  const avail = width - 2 * PAD;
  const titleText = title ? oneLine(title) : '';
  const items = legend.map((it): { it: LegendItem | null; name: string; full: string; w: number } => {
    const name = fit(oneLine(it.name), Math.max(40, Math.min(220, avail * 0.45)), 12);
    return { it, name, full: oneLine(it.name), w: 27 + textWidth(name, 12) };
  });
  // flow the legend into rows no wider than the chart
  const rows: (typeof items)[] = [];
  let row: typeof items = [];
  let rowW = 0;
  for (const item of items) {
    if (row.length && rowW + 16 + item.w > avail) { rows.push(row); row = []; rowW = 0; }
    rowW += (row.length ? 16 : 0) + item.w;
    row.push(item);
  }
  if (row.length) rows.push(row);
  // a legend of dozens of series would leave no room for the plot: three rows, then "+N more"
  if (rows.length > 3) {
    const hidden = rows.slice(3).reduce((n, r) => n + r.length, 0) + 1;
    rows.length = 3;
    const more = `+${hidden} more`;
    rows[2]![rows[2]!.length - 1] = { it: null, name: more, full: more, w: textWidth(more, 12) };
  }
  const rowWidth = (r: typeof items) => r.reduce((s, i) => s + i.w, 0) + 16 * Math.max(0, r.length - 1);
  const titleW = titleText ? textWidth(titleText, 14) * BOLD : 0;
  const firstRowBeside = titleText !== '' && rows.length === 1 && titleW + 24 + rowWidth(rows[0]!) <= avail;
  let y = PAD;
  if (titleText) {
    const room = firstRowBeside ? avail - 24 - rowWidth(rows[0]!) : avail;
    svg.push(fittedText(`x="${PAD}" y="${px(y + 14)}" font-size="14" font-weight="600" fill="${INK}"`, titleText, room / BOLD, 14));
    if (!firstRowBeside) y += 24;
  }
  if (rows.length) svg.push('<g class="legend">');
  for (const r of rows) {
    let x = width - PAD - rowWidth(r);
    const cy = y + (firstRowBeside ? 9 : 8);
    for (const item of r) {
      if (!item.it) { svg.push(`<text x="${px(x)}" y="${px(cy + 4)}" fill="${MUTED_INK}">${esc(item.name)}</text>`); continue; }
      svg.push(legendSwatch(item.it, x, cy));
      const label = `x="${px(x + 27)}" y="${px(cy + 4)}" fill="${INK}"`;
      svg.push(item.name === item.full ? `<text ${label}>${esc(item.full)}</text>` : `<text ${label}><title>${esc(item.full)}</title>${esc(item.name)}</text>`);
      x += item.w + 16;
    }
    y += 20;
  }
  if (rows.length) svg.push('</g>');
  const used = y - PAD + (firstRowBeside ? 4 : 0);
  return { svg, height: titleText || rows.length ? PAD + used : 0 };
}

/** Horizontal grid, tick labels and the rotated axis title; the title is cut, never clipped. */
function yAxis(f: Frame, scale: YScale, yTitle: string, hasData: boolean): string[] {
  const out: string[] = [];
  const zeroInside = scale.lo < 0 && scale.hi > 0;
  if (hasData) {
    const lines = scale.ticks.map((t) => `M${px(f.left)} ${px(Math.round(scale.y(t)) + 0.5)}H${px(f.right)}`).join('');
    out.push(`<path d="${lines}" stroke="${GRID}" stroke-width="1" fill="none" shape-rendering="crispEdges"/>`);
    if (zeroInside) out.push(`<path d="M${px(f.left)} ${px(Math.round(scale.y(0)) + 0.5)}H${px(f.right)}" stroke="${ZERO}" stroke-width="1" fill="none" shape-rendering="crispEdges"/>`);
    out.push(`<g class="yticks" font-size="11" fill="${MUTED_INK}" text-anchor="end">`);
    for (const t of scale.ticks) out.push(`<text x="${px(f.left - 6)}" y="${px(scale.y(t) + 4)}">${esc(formatTick(t))}</text>`);
    out.push('</g>');
  }
  out.push(`<path d="M${px(f.left)} ${px(Math.round(f.bottom) + 0.5)}H${px(f.right)}" stroke="${AXIS}" stroke-width="1" fill="none" shape-rendering="crispEdges"/>`);
  const title = oneLine(yTitle);
  if (title) {
    const cy = (f.top + f.bottom) / 2;
    out.push(fittedText(`class="ytitle" transform="translate(${PAD + 11} ${px(cy)}) rotate(-90)" text-anchor="middle" fill="${INK}"`, title, Math.max(0, f.bottom - f.top + 8), 12));
  }
  return out;
}

/** the left edge of the plot: the rotated y title, the widest tick label, and gaps between them */
function plotLeft(ticks: number[], yTitle: string): number {
  const tickW = Math.max(0, ...ticks.map((t) => textWidth(formatTick(t), 11)));
  return PAD + (oneLine(yTitle) ? 20 : 0) + tickW + 8;
}

/**
 * Every k-th category is labelled (k = 1, 2, 5, 10, 20, 25, 50 …), so that a typical label keeps
 * most of its text: "pool…" under each of eight steps tells less than every other label in full.
 */
function labelEvery(labels: string[], plotW: number): number {
  const widths = labels.map((l) => textWidth(oneLine(l), 11)).sort((a, b) => a - b);
  const typical = widths[Math.floor(widths.length / 2)] ?? 0;
  const slot = Math.max(44, Math.min(80, typical * 0.6 + 8));
  const raw = Math.ceil(labels.length / Math.max(1, Math.floor(plotW / slot)));
  if (raw <= 1) return 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw && Number.isInteger(m * mag)) return m * mag;
  return 10 * mag;
}

/** the room a centred label has: its share of the axis, but not past the edges of the picture */
function centredRoom(x: number, share: number, width: number): number {
  return Math.max(0, Math.min(share, 2 * (x - 4), 2 * (width - 4 - x)));
}

/** Category labels under the axis: thinned when many, each cut with "…" to the room it has. */
function xLabels(f: Frame, cats: string[], cx: (i: number) => number): string[] {
  const bw = (f.right - f.left) / Math.max(1, cats.length);
  const every = labelEvery(cats, f.right - f.left);
  const out = [`<g class="xticks" font-size="11" fill="${MUTED_INK}" text-anchor="middle">`];
  for (let i = 0; i < cats.length; i += every) {
    const x = cx(i);
    out.push(fittedText(`x="${px(x)}" y="${px(f.bottom + 17)}"`, oneLine(cats[i]!), centredRoom(x, bw * every - 8, f.width), 11));
  }
  out.push('</g>');
  return out;
}

function noData(f: Frame): string {
  return `<text x="${px((f.left + f.right) / 2)}" y="${px((f.top + f.bottom) / 2)}" text-anchor="middle" fill="${MUTED_INK}">No data</text>`;
}

/**
 * Labels above points or bars go on every k-th one when the widest would overlap its neighbour;
 * past 100 px a label is cut instead, so one long label cannot thin out all the others.
 * 0: no labels (past DENSE categories).
 */
function labelStride(widths: number[], bw: number, n: number): number {
  if (n > DENSE) return 0;
  const widest = Math.max(0, ...widths.map((w) => Math.min(w, Math.max(bw - 6, 100))));
  return widest === 0 ? 1 : Math.max(1, Math.ceil((widest + 6) / Math.max(1, bw)));
}

function finite(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function pointLabelLines(text: string | undefined): [string, string] {
  if (text === undefined) return ['', ''];
  const [first = '', ...rest] = String(text).split('\n');
  return [oneLine(first), oneLine(rest.join(' '))];
}

// ---------------------------------------------------------------------------------------------
// Line chart

interface Pt { i: number; x: number; v: number; low?: number; high?: number; label: [string, string]; hover?: string }

export function lineChartSvg(opts: { series: SvgSeries[]; goals?: SvgGoal[]; title?: string; yTitle: string; width?: number; height?: number }): string {
  const width = Math.max(120, Math.round(finite(opts.width) ? opts.width : 720));
  const height = Math.max(100, Math.round(finite(opts.height) ? opts.height : 320));
  const series = opts.series ?? [];
  const goals = (opts.goals ?? []).filter((g) => finite(g.value));

  // categories in order of first appearance; a label repeated is one category (one experiment)
  const cats: string[] = [];
  const catIndex = new Map<string, number>();
  for (const s of series) {
    for (let i = 0; i < Math.min(s.x.length, s.y.length); i++) {
      const c = String(s.x[i]);
      if (!catIndex.has(c)) { catIndex.set(c, cats.length); cats.push(c); }
    }
  }
  const dense = cats.length > DENSE;

  let accents = 0;
  const colors = series.map((s) => (s.tone === 'muted' ? MUTED_SERIES : ACCENTS[accents++ % ACCENTS.length]!));

  const pts: Pt[][] = series.map((s) => {
    const out: Pt[] = [];
    for (let j = 0; j < Math.min(s.x.length, s.y.length); j++) {
      const v = s.y[j];
      if (!finite(v)) continue;
      const low = s.low?.[j];
      const high = s.high?.[j];
      const p: Pt = { i: catIndex.get(String(s.x[j]))!, x: 0, v, label: dense ? ['', ''] : pointLabelLines(s.text?.[j]) };
      if (finite(low) && finite(high) && low !== high) { p.low = Math.min(low, high); p.high = Math.max(low, high); }
      const hover = s.hover?.[j];
      if (hover !== undefined) p.hover = String(hover);
      out.push(p);
    }
    return out;
  });
  const hasData = pts.some((p) => p.length > 0);

  const head = header(width, opts.title, series.length > 1 ? series.map((s, k) => ({ name: s.name, color: colors[k]!, mode: s.mode })) : []);
  const top = Math.max(head.height + 10, PAD + 6);
  const bottom = height - PAD - 22;

  // what must fit: each point (and its error bar) with its label above, each goal with its label
  const rooms: Room[] = [];
  for (const p of pts.flat()) {
    const lines = (p.label[0] ? 1 : 0) + (p.label[1] ? 1 : 0);
    const up = 6 + (lines ? 4 + 13 * lines : 0);
    rooms.push({ v: p.high !== undefined ? Math.max(p.v, p.high) : p.v, up, down: 0 });
    rooms.push({ v: p.low !== undefined ? Math.min(p.v, p.low) : p.v, up: 0, down: 6 });
  }
  for (const g of goals) rooms.push({ v: g.value, up: 17, down: 0 });

  // The left margin depends on the tick labels, which depend on the height only: no cycle.
  const scale = yScale(rooms, top, bottom);
  const left = plotLeft(hasData ? scale.ticks : [], opts.yTitle);
  const right = width - PAD - 4;
  const f: Frame = { width, height, left, right: Math.max(left + 10, right), top, bottom, header: head.svg };
  const bw = (f.right - f.left) / Math.max(1, cats.length);
  const cx = (i: number) => f.left + (i + 0.5) * bw;

  const out: string[] = [documentOpen(width, height, opts.title ? oneLine(opts.title) : oneLine(opts.yTitle), lineDesc(series, pts, goals, cats.length, opts.yTitle))];
  out.push(...f.header);
  out.push(...yAxis(f, scale, opts.yTitle, hasData));
  out.push(...xLabels(f, cats, cx));
  if (!hasData) { out.push(noData(f), '</svg>'); return out.join('\n'); }

  // goal lines under the data, their labels on top of it (drawn last)
  const goalLabels: string[] = [];
  for (const g of goals) {
    const y = scale.y(g.value);
    out.push(`<path class="goal" d="M${px(f.left)} ${px(y)}H${px(f.right)}" stroke="${GOAL}" stroke-width="1.5" stroke-dasharray="6 4" fill="none"/>`);
    goalLabels.push(fittedText(`class="goal-label" x="${px(f.left + 4)}" y="${px(y - 5)}" font-size="11" fill="${GOAL}" ${HALO}`, oneLine(g.label), f.right - f.left - 8, 11));
  }

  const markerR = dense ? Math.max(1, Math.min(3.5, bw * 0.4)) : 3.5;
  const cap = Math.max(1, Math.min(4, bw * 0.3));
  const labels: string[] = [];
  series.forEach((s, k) => {
    const color = colors[k]!;
    const list = pts[k]!;
    for (const p of list) p.x = cx(p.i);
    // points in axis order, so a line drawn from them runs left to right even if the series did not
    const sorted = [...list].sort((a, b) => a.i - b.i);
    out.push(`<g class="series" stroke="${color}" fill="${color}">`);
    const bars = sorted.filter((p) => p.low !== undefined && p.high !== undefined)
      .map((p) => { const y1 = scale.y(p.high!); const y2 = scale.y(p.low!); return `M${px(p.x)} ${px(y1)}V${px(y2)}M${px(p.x - cap)} ${px(y1)}h${px(2 * cap)}M${px(p.x - cap)} ${px(y2)}h${px(2 * cap)}`; });
    if (bars.length) out.push(`<path class="spread" d="${bars.join('')}" stroke-width="1.5" fill="none"/>`);
    if (s.mode === 'line' && sorted.length > 1) {
      out.push(`<path class="line" d="M${sorted.map((p) => `${px(p.x)} ${px(scale.y(p.v))}`).join('L')}" stroke-width="${dense ? 1.5 : 2}" stroke-linejoin="round" fill="none"/>`);
    }
    // Points carry a tooltip each (the caller's hover, else "label: value"). Past DENSE categories
    // without hover, a line is just the line through every point (as the app's plotly chart draws a
    // long study) and set-apart points are one path: a 1,000-point chart stays a few dozen kB.
    const perPoint = !dense || s.hover !== undefined;
    const half = Math.max(2, Math.min(4.5, bw * 0.4));
    const cross = (p: Pt) => `M${px(p.x - half)} ${px(scale.y(p.v) - half)}l${px(2 * half)} ${px(2 * half)}m0 ${px(-2 * half)}l${px(-2 * half)} ${px(2 * half)}`;
    if (perPoint) {
      for (const p of sorted) {
        const tip = `<title>${esc(p.hover ?? `${oneLine(cats[p.i]!)}: ${formatNumber(p.v)}`)}</title>`;
        out.push(s.mode === 'points'
          ? `<path class="point" d="${cross(p)}" stroke-width="2" fill="none">${tip}</path>`
          : `<circle class="point" cx="${px(p.x)}" cy="${px(scale.y(p.v))}" r="${px(markerR)}" stroke="none">${tip}</circle>`);
      }
    } else if (s.mode === 'points') {
      out.push(`<path class="points" d="${sorted.map(cross).join('')}" stroke-width="${half < 3 ? 1 : 2}" fill="none"/>`);
    } else if (sorted.length < 2) {
      // no line to show a lone point: a zero-length segment with round caps is a dot
      out.push(`<path class="points" d="${sorted.map((p) => `M${px(p.x)} ${px(scale.y(p.v))}h0`).join('')}" stroke-width="${px(2 * markerR)}" stroke-linecap="round" fill="none"/>`);
    }
    out.push('</g>');

    const widths = sorted.map((p) => Math.max(textWidth(p.label[0], 11), textWidth(p.label[1], 10)));
    const stride = labelStride(widths, bw, cats.length);
    if (stride === 0) return;
    sorted.forEach((p) => {
      if (!p.label[0] && !p.label[1]) return;
      if (p.i % stride !== 0) return;
      const top = scale.y(p.high !== undefined ? Math.max(p.v, p.high) : p.v) - (p.high !== undefined ? 5 : markerR + 5);
      const room = centredRoom(p.x, bw * stride - 6, width);
      const [first, second] = p.label;
      if (second) {
        labels.push(fittedText(`x="${px(p.x)}" y="${px(top)}" font-size="10" fill="${MUTED_INK}" text-anchor="middle" ${HALO}`, second, room, 10));
      }
      if (first) {
        labels.push(fittedText(`x="${px(p.x)}" y="${px(second ? top - 13 : top)}" font-size="11" fill="${INK}" text-anchor="middle" ${HALO}`, first, room, 11));
      }
    });
  });
  if (labels.length) out.push('<g class="labels">', ...labels, '</g>');
  out.push(...goalLabels, '</svg>');
  return out.join('\n');
}

/** A text alternative that stays short on a long study: each series' extent rather than every value. */
function lineDesc(series: SvgSeries[], pts: Pt[][], goals: SvgGoal[], nCats: number, yTitle: string): string {
  const parts = [`Line chart of ${oneLine(yTitle)} over ${nCats} ${nCats === 1 ? 'experiment' : 'experiments'}.`];
  series.forEach((s, k) => {
    const vs = pts[k]!.map((p) => p.v);
    const name = oneLine(s.name);
    if (!vs.length) { parts.push(`${name}: no values.`); return; }
    const first = pts[k]![0]!;
    const last = pts[k]![pts[k]!.length - 1]!;
    parts.push(`${name}: ${vs.length} ${vs.length === 1 ? 'value' : 'values'}, from ${formatNumber(first.v)} to ${formatNumber(last.v)} (lowest ${formatNumber(Math.min(...vs))}, highest ${formatNumber(Math.max(...vs))}).`);
  });
  for (const g of goals) parts.push(`Goal ${oneLine(g.label)} at ${formatNumber(g.value)}.`);
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Bar chart

export function barChartSvg(opts: { bars: SvgBar[]; title?: string; yTitle: string; width?: number; height?: number }): string {
  const width = Math.max(120, Math.round(finite(opts.width) ? opts.width : 720));
  const height = Math.max(100, Math.round(finite(opts.height) ? opts.height : 280));
  const bars = opts.bars ?? [];
  const n = bars.length;
  const hasData = bars.some((b) => finite(b.value));

  const head = header(width, opts.title, []);
  const top = Math.max(head.height + 10, PAD + 6);
  const bottom = height - PAD - 22;
  const rooms: Room[] = bars.filter((b) => finite(b.value)).map((b) => (b.value >= 0 ? { v: b.value, up: oneLine(b.text) && n <= DENSE ? 22 : 2, down: 0 } : { v: b.value, up: 0, down: oneLine(b.text) && n <= DENSE ? 22 : 2 }));
  const scale = yScale(rooms, top, bottom);
  const left = plotLeft(hasData ? scale.ticks : [], opts.yTitle);
  const f: Frame = { width, height, left, right: Math.max(left + 10, width - PAD - 4), top, bottom, header: head.svg };
  const bw = (f.right - f.left) / Math.max(1, n);
  const cx = (i: number) => f.left + (i + 0.5) * bw;

  const desc = `Bar chart of ${oneLine(opts.yTitle)}: ${bars.slice(0, 40).map((b) => `${oneLine(b.label)} ${oneLine(b.text) || formatNumber(b.value)}`).join('; ')}${n > 40 ? `; and ${n - 40} more` : ''}.`;
  const out: string[] = [documentOpen(width, height, opts.title ? oneLine(opts.title) : oneLine(opts.yTitle), desc)];
  out.push(...f.header);
  out.push(...yAxis(f, scale, opts.yTitle, hasData));
  // every bar keeps its own slot: two experiments may share a name
  out.push(...xLabels(f, bars.map((b) => b.label), cx));
  if (!hasData) { out.push(noData(f), '</svg>'); return out.join('\n'); }

  // bars stay bars, not walls: at most 96 px wide however few there are
  const barW = Math.max(1, Math.min(96, bw * 0.7));
  const base = scale.y(Math.min(Math.max(0, scale.lo), scale.hi));
  const stride = labelStride(bars.map((b) => textWidth(oneLine(b.text), 12)), bw, n);
  const labels: string[] = [];
  bars.forEach((b, i) => {
    if (!finite(b.value)) return;
    const y = scale.y(b.value);
    const color = b.tone === 'muted' ? MUTED_SERIES : ACCENTS[0]!;
    const tip = `<title>${esc(`${oneLine(b.label)}: ${oneLine(b.text) || formatNumber(b.value)}`)}</title>`;
    out.push(`<rect class="bar" x="${px(cx(i) - barW / 2)}" y="${px(Math.min(y, base))}" width="${px(barW)}" height="${px(Math.max(0.5, Math.abs(base - y)))}" fill="${color}">${tip}</rect>`);
    const text = oneLine(b.text);
    if (stride && text && i % stride === 0) {
      const ty = b.value >= 0 ? y - 6 : y + 16;
      labels.push(fittedText(`x="${px(cx(i))}" y="${px(ty)}" font-size="12" fill="${INK}" text-anchor="middle"`, text, centredRoom(cx(i), bw * stride - 6, width), 12));
    }
  });
  if (labels.length) out.push('<g class="labels">', ...labels, '</g>');
  out.push('</svg>');
  return out.join('\n');
}
