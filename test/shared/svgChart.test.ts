/**
 * Static SVG charts for exported reports: well-formed standalone XML, hostile text only ever as
 * escaped content, round ticks in one style, points where their categories are, and the same bytes
 * for the same study. The case studies are the ones the reports are built for: A (req/s against a
 * goal), B (QPS against a requirement, a reverted step set apart), C (fio IOPS as bars).
 */
import { describe, expect, it } from 'vitest';
import { barChartSvg, formatTick, lineChartSvg } from '../../shared/report/svgChart';
import type { SvgSeries } from '../../shared/report/svgChart';

// ---------------------------------------------------------------------------------------------
// A small strict XML reader: enough to prove the output is well-formed and to query it. Stricter
// than XML where that helps: no comments, CDATA, processing instructions or doctype (the charts have
// none, and a CDATA section is how "]]>" would break out), and no raw ">" in text.

interface El { name: string; attrs: Record<string, string>; children: (El | string)[]; parent: El | null }

const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y;

function checkText(text: string, where: string): void {
  if (/[<>]/.test(text)) throw new Error(`raw < or > in ${where}: ${text.slice(0, 60)}`);
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    ENTITY.lastIndex = i;
    if (!ENTITY.test(text)) throw new Error(`bare & in ${where}: ${text.slice(i, i + 20)}`);
  }
  // XML 1.0 Char: no C0 controls but tab, newline, carriage return; no lone surrogates
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(text)) throw new Error(`control character in ${where}`);
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) throw new Error(`lone surrogate in ${where}`);
}

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e] !== undefined) return named[e];
    return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

function parseXml(xml: string): El {
  const root: El = { name: '#document', attrs: {}, children: [], parent: null };
  let cur = root;
  let i = 0;
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_:][\w.:-]*\s*=\s*"[^"]*")*)\s*(\/?)>/y;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (text) {
      checkText(text, `<${cur.name}>`);
      if (cur === root && text.trim()) throw new Error('text outside the root element');
      cur.children.push(decode(text));
    }
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`not a plain tag at ${lt}: ${xml.slice(lt, lt + 40)}`);
    const [, close, name, attrText, selfClose] = m as unknown as [string, string, string, string, string];
    if (close) {
      if (attrText || selfClose) throw new Error(`malformed end tag </${name}>`);
      if (cur.name !== name) throw new Error(`</${name}> closes <${cur.name}>`);
      cur = cur.parent!;
    } else {
      if (cur === root && root.children.some((c) => typeof c !== 'string')) throw new Error('a second root element');
      const attrs: Record<string, string> = {};
      for (const a of attrText.matchAll(/([A-Za-z_:][\w.:-]*)\s*=\s*"([^"]*)"/g)) {
        const [, key, value] = a as unknown as [string, string, string];
        if (key in attrs) throw new Error(`duplicate attribute ${key} on <${name}>`);
        checkText(value, `${name}@${key}`);
        attrs[key] = decode(value);
      }
      const el: El = { name, attrs, children: [], parent: cur };
      cur.children.push(el);
      if (!selfClose) cur = el;
    }
    i = tag.lastIndex;
  }
  if (cur !== root) throw new Error(`<${cur.name}> is never closed`);
  const top = root.children.filter((c): c is El => typeof c !== 'string');
  if (top.length !== 1) throw new Error('not exactly one root element');
  return top[0]!;
}

function all(el: El, pred: (e: El) => boolean = () => true, out: El[] = []): El[] {
  if (pred(el)) out.push(el);
  for (const c of el.children) if (typeof c !== 'string') all(c, pred, out);
  return out;
}
const byClass = (root: El, cls: string) => all(root, (e) => e.attrs.class === cls);
/** an element's own text, without its <title> tooltip */
const ownText = (el: El): string => el.children.map((c) => (typeof c === 'string' ? c : c.name === 'title' ? '' : ownText(c))).join('');
const titleOf = (el: El) => { const t = el.children.find((c): c is El => typeof c !== 'string' && c.name === 'title'); return t ? ownText(t) : undefined; };
const num = (el: El, attr: string) => { const v = el.attrs[attr]; if (v === undefined) throw new Error(`no ${attr} on <${el.name}>`); return Number(v); };

const ALLOWED_ELEMENTS = new Set(['svg', 'title', 'desc', 'g', 'rect', 'path', 'circle', 'line', 'text', 'tspan']);
const ALLOWED_ATTRS = new Set([
  'xmlns', 'viewBox', 'width', 'height', 'role', 'font-family', 'font-size', 'font-weight', 'class', 'x', 'y', 'cx', 'cy', 'r', 'd',
  'fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linejoin', 'stroke-linecap', 'paint-order', 'shape-rendering',
  'text-anchor', 'transform',
]);

/** parse, and check what any chart must be: standalone, accessible, inert */
function parseChart(svg: string): El {
  const root = parseXml(svg);
  expect(root.name).toBe('svg');
  expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
  expect(root.attrs.role).toBe('img');
  expect(root.attrs.viewBox).toBe(`0 0 ${root.attrs.width} ${root.attrs.height}`);
  const kids = root.children.filter((c): c is El => typeof c !== 'string');
  expect(kids[0]?.name).toBe('title');
  expect(kids[1]?.name).toBe('desc');
  for (const el of all(root)) {
    expect(ALLOWED_ELEMENTS.has(el.name), `element <${el.name}>`).toBe(true);
    for (const [key, value] of Object.entries(el.attrs)) {
      expect(ALLOWED_ATTRS.has(key), `attribute ${key} on <${el.name}>`).toBe(true);
      expect(value).not.toMatch(/url\(|javascript:|var\(/i);
    }
  }
  expect(svg).not.toMatch(/href|<image|<foreignObject|<script|<style|@import|@font-face|<!\[CDATA|<!--|<\?/i);
  // 0.1 px is the finest coordinate written
  for (const el of all(root)) {
    for (const key of ['x', 'y', 'cx', 'cy', 'r', 'width', 'height', 'd', 'transform']) {
      expect(el.attrs[key] ?? '', `${key} on <${el.name}>`).not.toMatch(/\d\.\d\d/);
      expect(el.attrs[key] ?? '', `${key} on <${el.name}>`).not.toMatch(/NaN|Infinity/);
    }
  }
  return root;
}

/** y tick labels, top to bottom reversed into axis order, and the pixel y of each tick */
function yTicks(root: El): { labels: string[]; ys: number[] } {
  const texts = byClass(root, 'yticks')[0]?.children.filter((c): c is El => typeof c !== 'string') ?? [];
  // a tick label's baseline sits 4 px under its grid line
  return { labels: texts.map(ownText), ys: texts.map((t) => num(t, 'y') - 4) };
}

/** the pixel y of a value, read back from the axis (its first and last ticks) */
function pixelOf(root: El, value: number, parse: (label: string) => number): number {
  const { labels, ys } = yTicks(root);
  const v0 = parse(labels[0]!);
  const v1 = parse(labels[labels.length - 1]!);
  return ys[0]! + ((value - v0) / (v1 - v0)) * (ys[ys.length - 1]! - ys[0]!);
}
const fromSi = (label: string) => {
  const m = /^(\u2212?)([\d.]+(?:e\u2212\d+)?)([kMGTPE]?)$/.exec(label);
  if (!m) throw new Error(`not a tick: ${label}`);
  return (m[1] ? -1 : 1) * Number(m[2]!.replace('\u2212', '-')) * ({ '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 } as Record<string, number>)[m[3]!]!;
};

/** the vertices of a path made of M/L/H/V commands, absolute */
function vertices(d: string): [number, number][] {
  const out: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (const m of d.matchAll(/([MLHV])([^MLHVmlhvz]*)/g)) {
    const nums = m[2]!.trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (m[1] === 'H') { x = nums[0]!; out.push([x, y]); continue; }
    if (m[1] === 'V') { y = nums[0]!; out.push([x, y]); continue; }
    for (let k = 0; k + 1 < nums.length; k += 2) { x = nums[k]!; y = nums[k + 1]!; out.push([x, y]); }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The case studies

const caseA = (width = 720) => lineChartSvg({
  title: 'Throughput', yTitle: 'req/s', width,
  series: [{
    name: 'Throughput series', mode: 'line', tone: 'accent', x: ['baseline', 'workers=4', 'keep-alive'], y: [140, 205, 286],
    low: [131, 198, 270], high: [149, 214, 297],
    text: ['140 req/s', '205 req/s\n+46%', '286 req/s\n+40%'], hover: ['baseline: 140 req/s', 'workers=4: 205 req/s', 'keep-alive: 286 req/s'],
  }],
  goals: [{ value: 250, label: '≥ 250 req/s' }],
});

const B_STEPS = ['baseline', 'pool size 64', 'index on orders.user_id', 'prepared statements', 'query cache', 'read replica', 'shared_buffers 4GB', 'batch inserts'];
const caseBSeries = (): SvgSeries[] => [
  { name: 'kept steps', mode: 'line', tone: 'accent', x: B_STEPS, y: [6000, 9200, 18500, 24100, null, 33800, 41200, 50000],
    text: ['6,000', '9,200', '18.5k', '24.1k', '', '33.8k', '41.2k', '50.0k'] },
  { name: 'reverted', mode: 'points', tone: 'muted', x: ['query cache'], y: [14800], text: ['14.8k\nreverted'], hover: ['query cache: 14.8k QPS, reverted'] },
];
const caseB = (width = 720) => lineChartSvg({
  title: 'QPS by step', yTitle: 'QPS', width, series: caseBSeries(), goals: [{ value: 30000, label: 'requirement ≥ 30,000 QPS' }],
});

const caseC = (width = 720) => barChartSvg({
  title: 'fio randread 4k', yTitle: 'IOPS', width,
  bars: [{ label: 'ext4 defaults', value: 2197, text: '2,197 IOPS', tone: 'muted' }, { label: 'xfs, noatime', value: 43000, text: '43.0k IOPS' }],
});

const HOSTILE = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', ']]><x>', '" onload="x', "it's & <b>bold</b>"];

// ---------------------------------------------------------------------------------------------

describe('formatTick', () => {
  it.each([
    [0, '0'], [-0, '0'], [250, '250'], [500, '500'], [999, '999'], [0.25, '0.25'], [2.5, '2.5'], [0.1 + 0.2, '0.3'],
    [1000, '1k'], [1500, '1.5k'], [10_000, '10k'], [43_000, '43k'], [12_500, '12.5k'], [250_000, '250k'],
    [2.5e6, '2.5M'], [1.5e6, '1.5M'], [2e9, '2G'], [999_999, '1M'], [999.99, '1k'],
    [-1000, '\u22121k'], [-250, '\u2212250'], [-0.5, '\u22120.5'],
  ])('%d → %s', (v, text) => {
    expect(formatTick(v)).toBe(text);
  });

  it('never writes a bare thousand beside an SI tick, nor a hyphen for minus, nor trailing zeros', () => {
    for (let v = 1000; v <= 100_000; v += 250) {
      const t = formatTick(v);
      expect(t, String(v)).toMatch(/^\d+(\.\d*[1-9])?k$/);
    }
    for (const v of [-1, -10, -1e3, -2.5e6]) expect(formatTick(v)).not.toContain('-');
  });

  it('says nothing for what is not a number', () => {
    expect(formatTick(Number.NaN)).toBe('');
    expect(formatTick(Infinity)).toBe('');
  });
});

describe('lineChartSvg: case study A (req/s, goal ≥ 250)', () => {
  it('is a well-formed standalone SVG with a title and description', () => {
    const svg = caseA();
    const root = parseChart(svg);
    expect(root.attrs.width).toBe('720');
    expect(ownText(root.children.find((c): c is El => typeof c !== 'string' && c.name === 'title')!)).toBe('Throughput');
    const desc = ownText(all(root, (e) => e.name === 'desc')[0]!);
    expect(desc).toContain('req/s');
    expect(desc).toContain('286');
  });

  it('has round ticks from 0 in steps of 25, 50 or 100, with headroom above the highest point', () => {
    const root = parseChart(caseA());
    const values = yTicks(root).labels.map(Number);
    expect(values[0]).toBe(0);
    const step = values[1]! - values[0]!;
    expect([25, 50, 100]).toContain(step);
    values.forEach((v, i) => expect(v).toBe(i * step));
    // the spread of the last point reaches 297, and its two-line label sits above that
    expect(values[values.length - 1]).toBeGreaterThanOrEqual(300);
    expect(values.length).toBeLessThanOrEqual(9);
  });

  it('draws each category at its own x, left to right, with its value at the right height', () => {
    const root = parseChart(caseA());
    const points = byClass(root, 'point');
    expect(points.map((p) => p.name)).toEqual(['circle', 'circle', 'circle']);
    const xs = points.map((p) => num(p, 'cx'));
    expect(new Set(xs).size).toBe(3);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    points.forEach((p, i) => expect(num(p, 'cy')).toBeCloseTo(pixelOf(root, [140, 205, 286][i]!, Number), 0));
    expect(points.map(titleOf)).toEqual(['baseline: 140 req/s', 'workers=4: 205 req/s', 'keep-alive: 286 req/s']);
    // the category labels sit under their points
    const ticks = byClass(root, 'xticks')[0]!.children.filter((c): c is El => typeof c !== 'string');
    expect(ticks.map(ownText)).toEqual(['baseline', 'workers=4', 'keep-alive']);
    expect(ticks.map((t) => num(t, 'x'))).toEqual(xs);
  });

  it('puts the goal line dashed and green at 250, between the 205 and 286 points, with its label', () => {
    const root = parseChart(caseA());
    const [goal] = byClass(root, 'goal');
    expect(goal?.attrs['stroke-dasharray']).toBeTruthy();
    expect(goal?.attrs.stroke).toBe('#17803d');
    const [[x0, y], [x1, y1]] = vertices(goal!.attrs.d!) as [[number, number], [number, number]];
    expect(y1).toBe(y);
    expect(x1).toBeGreaterThan(x0);
    expect(y).toBeCloseTo(pixelOf(root, 250, Number), 0);
    const cys = byClass(root, 'point').map((p) => num(p, 'cy'));
    expect(cys[2]!).toBeLessThan(y);
    expect(cys[1]!).toBeGreaterThan(y);
    const label = byClass(root, 'goal-label')[0]!;
    expect(ownText(label)).toBe('≥ 250 req/s');
    expect(num(label, 'y')).toBeLessThan(y);
  });

  it('draws an error bar for each spread and the point labels above them, the second line smaller', () => {
    const root = parseChart(caseA());
    const spread = byClass(root, 'spread')[0]!;
    // each bar: the vertical, then a cap at each end
    const verticals = [...spread.attrs.d!.matchAll(/M([\d.]+) ([\d.]+)V([\d.]+)/g)].map((m) => m.slice(1).map(Number));
    expect(verticals).toHaveLength(3);
    const points = byClass(root, 'point');
    verticals.forEach(([x, top, bottom], i) => {
      expect(x).toBe(num(points[i]!, 'cx'));
      expect(top).toBeCloseTo(pixelOf(root, [149, 214, 297][i]!, Number), 0);
      expect(bottom).toBeCloseTo(pixelOf(root, [131, 198, 270][i]!, Number), 0);
    });
    const labels = byClass(root, 'labels')[0]!.children.filter((c): c is El => typeof c !== 'string');
    const first = labels.find((l) => ownText(l) === '286 req/s')!;
    const second = labels.find((l) => ownText(l) === '+40%')!;
    expect(num(first, 'x')).toBe(num(points[2]!, 'cx'));
    expect(num(first, 'y')).toBeLessThan(num(second, 'y'));
    expect(num(second, 'y')).toBeLessThan(verticals[2]![1]!);
    expect(Number(second.attrs['font-size'])).toBeLessThan(Number(first.attrs['font-size']));
  });

  it('makes room under the top of the axis for the highest point, its spread and labels, and the goal label', () => {
    for (const chart of [caseA(), caseA(480), caseB(), caseB(480), caseC()]) {
      const root = parseChart(chart);
      const top = yTicks(root).ys.at(-1)!;
      const labels = [...byClass(root, 'labels'), ...byClass(root, 'goal-label')].flatMap((g) => all(g, (e) => e.name === 'text'));
      expect(labels.length).toBeGreaterThan(0);
      // a label's top is about its font size above its baseline
      for (const l of labels) expect(num(l, 'y') - Number(l.attrs['font-size'] ?? 12), ownText(l)).toBeGreaterThanOrEqual(top - 1);
    }
  });

  it('has no legend for a single series, and a rotated y title', () => {
    const root = parseChart(caseA());
    expect(byClass(root, 'legend')).toHaveLength(0);
    expect(all(root, (e) => e.name === 'text').map(ownText)).not.toContain('Throughput series');
    const yTitle = byClass(root, 'ytitle')[0]!;
    expect(ownText(yTitle)).toBe('req/s');
    expect(yTitle.attrs.transform).toMatch(/rotate\(-90\)/);
  });

  it('lays out at 480 px too, everything inside the picture', () => {
    const root = parseChart(caseA(480));
    expect(root.attrs.viewBox).toBe('0 0 480 320');
    for (const t of all(root, (e) => e.name === 'text' && e.attrs.x !== undefined)) {
      expect(num(t, 'x')).toBeGreaterThanOrEqual(0);
      expect(num(t, 'x')).toBeLessThanOrEqual(480);
      expect(num(t, 'y')).toBeGreaterThan(0);
      expect(num(t, 'y')).toBeLessThanOrEqual(320);
    }
  });
});

describe('lineChartSvg: case study B (QPS, requirement ≥ 30,000, a reverted step set apart)', () => {
  it('reads its ticks as 0, 10k, 20k, 30k, 40k, 50k', () => {
    const root = parseChart(caseB());
    const { labels } = yTicks(root);
    expect(labels.slice(0, 6)).toEqual(['0', '10k', '20k', '30k', '40k', '50k']);
    // at most one step of headroom past 50k, in the same style
    expect(labels.length).toBeLessThanOrEqual(7);
    expect(labels.every((l) => /^(0|\d+k)$/.test(l))).toBe(true);
  });

  it('joins the kept steps over the gap and leaves the reverted step apart, unjoined', () => {
    const root = parseChart(caseB());
    const [kept, reverted] = byClass(root, 'series');
    const line = kept!.children.find((c): c is El => typeof c !== 'string' && c.attrs.class === 'line')!;
    const vs = vertices(line.attrs.d!);
    expect(vs).toHaveLength(7);
    const keptPoints = byClass(kept!, 'point');
    expect(keptPoints).toHaveLength(7);
    expect(vs.map(([x]) => x)).toEqual(keptPoints.map((p) => num(p, 'cx')));
    // the set-apart point: an ×, no line of its own, at its own category, which the line passes by
    expect(byClass(reverted!, 'line')).toHaveLength(0);
    const [cross] = byClass(reverted!, 'point');
    expect(cross?.name).toBe('path');
    expect(titleOf(cross!)).toBe('query cache: 14.8k QPS, reverted');
    const crossXs = vertices(cross!.attrs.d!.replace(/l.*/, '')).map(([x]) => x);
    const xs = byClass(root, 'xticks')[0]!.children.filter((c): c is El => typeof c !== 'string').map((t) => num(t, 'x'));
    const between = (xs[3]! + xs[5]!) / 2;
    expect(crossXs[0]! + 4.5).toBeCloseTo(between, 0);
    expect(vs.some(([x]) => Math.abs(x - between) < 1)).toBe(false);
    expect(reverted!.attrs.stroke).not.toBe(kept!.attrs.stroke);
  });

  it('draws the requirement at 30k and names both series in a legend', () => {
    const root = parseChart(caseB());
    const [goal] = byClass(root, 'goal');
    const y = vertices(goal!.attrs.d!)[0]![1];
    const { labels, ys } = yTicks(root);
    expect(y).toBeCloseTo(ys[labels.indexOf('30k')]!, 0);
    expect(ownText(byClass(root, 'goal-label')[0]!)).toBe('requirement ≥ 30,000 QPS');
    const legend = byClass(root, 'legend')[0]!;
    expect(all(legend, (e) => e.name === 'text').map(ownText)).toEqual(['kept steps', 'reverted']);
  });

  it('cuts long category labels with "…" to their room and keeps the whole label as a tooltip', () => {
    for (const width of [720, 480]) {
      const root = parseChart(caseB(width));
      const ticks = byClass(root, 'xticks')[0]!.children.filter((c): c is El => typeof c !== 'string');
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      for (const t of ticks) {
        const full = titleOf(t);
        if (full === undefined) { expect(B_STEPS).toContain(ownText(t)); continue; }
        expect(B_STEPS).toContain(full);
        expect(ownText(t)).toMatch(/…$/);
        expect(full.startsWith(ownText(t).slice(0, -1))).toBe(true);
      }
      // never on their side
      for (const t of ticks) expect(t.attrs.transform).toBeUndefined();
      if (width === 720) expect(ticks).toHaveLength(8);
    }
  });
});

describe('barChartSvg: case study C (fio IOPS 2,197 vs 43.0k)', () => {
  it('draws two bars from 0 in proportion, labelled, on 10k ticks', () => {
    const root = parseChart(caseC());
    const bars = byClass(root, 'bar');
    expect(bars).toHaveLength(2);
    const [small, big] = bars.map((b) => num(b, 'height')) as [number, number];
    expect(small / big).toBeCloseTo(2197 / 43000, 1);
    expect(num(bars[0]!, 'y') + small).toBeCloseTo(num(bars[1]!, 'y') + big, 0);
    expect(bars[0]!.attrs.fill).not.toBe(bars[1]!.attrs.fill);
    expect(bars.map(titleOf)).toEqual(['ext4 defaults: 2,197 IOPS', 'xfs, noatime: 43.0k IOPS']);
    const labels = byClass(root, 'labels')[0]!.children.filter((c): c is El => typeof c !== 'string');
    expect(labels.map(ownText)).toEqual(['2,197 IOPS', '43.0k IOPS']);
    expect(num(labels[1]!, 'y')).toBeLessThan(num(bars[1]!, 'y'));
    expect(yTicks(root).labels).toEqual(['0', '10k', '20k', '30k', '40k', '50k']);
  });

  it('handles no bars, a NaN value and negative values', () => {
    parseChart(barChartSvg({ bars: [], yTitle: 'IOPS' }));
    const root = parseChart(barChartSvg({ bars: [{ label: 'a', value: Number.NaN, text: '' }, { label: 'b', value: -40, text: '−40' }, { label: 'c', value: 25, text: '25' }], yTitle: 'Δ' }));
    expect(byClass(root, 'bar')).toHaveLength(2);
    const { labels } = yTicks(root);
    expect(labels[0]).toMatch(/^\u2212/);
    expect(labels).toContain('0');
  });
});

describe('hostile text', () => {
  const chart = (t: string) => lineChartSvg({
    title: t, yTitle: t, goals: [{ value: 2, label: t }],
    series: [
      { name: t, mode: 'line', tone: 'accent', x: [t, 'b', 'c'], y: [1, 2, 3], text: [t, `${t}\n${t}`, 'ok'], hover: [t, t, t] },
      { name: t, mode: 'points', tone: 'muted', x: [`${t} 2`], y: [2] },
    ],
  });

  it.each(HOSTILE)('%s appears only escaped, as text', (t) => {
    const svg = chart(t);
    const root = parseChart(svg);
    expect(svg).not.toMatch(/<script|<img|<x>|<b>|]]>|onload="/);
    // it is there to read: a tooltip or a text holds it whole
    const texts = all(root, (e) => e.name === 'title' || e.name === 'desc' || e.name === 'text').map(ownText);
    expect(texts).toContain(t);
    // and no attribute anywhere carries it
    for (const el of all(root)) for (const v of Object.values(el.attrs)) expect(v).not.toContain(t);
  });

  it('and in bars too', () => {
    for (const t of HOSTILE) {
      const svg = barChartSvg({ title: t, yTitle: t, bars: [{ label: t, value: 1, text: t }] });
      parseChart(svg);
      expect(svg).not.toMatch(/<script|<img|<x>|<b>|]]>|onload="/);
    }
  });

  it('drops characters XML cannot carry (control characters, lone surrogates)', () => {
    const t = 'a\u0001b\u001Fc\uD800d\uDFFFe\uFFFEf 😀';
    const root = parseChart(chart(t));
    const texts = all(root, (e) => e.name === 'title').map(ownText);
    expect(texts).toContain('abcdef 😀');
  });
});

describe('edge cases', () => {
  const line = (series: SvgSeries[], extra: Partial<Parameters<typeof lineChartSvg>[0]> = {}) => lineChartSvg({ series, yTitle: 'req/s', ...extra });
  const s = (x: string[], y: (number | null)[], more: Partial<SvgSeries> = {}): SvgSeries => ({ name: 's', mode: 'line', tone: 'accent', x, y, ...more });

  it('says "No data" with no series, no points or only nulls', () => {
    for (const svg of [line([]), line([s([], [])]), line([s(['a', 'b'], [null, null])]), barChartSvg({ bars: [], yTitle: 'x' })]) {
      const root = parseChart(svg);
      expect(all(root, (e) => e.name === 'text').map(ownText)).toContain('No data');
    }
  });

  it('skips nulls: no point, the line joins its neighbours, the category keeps its label', () => {
    const root = parseChart(line([s(['a', 'b', 'c'], [1, null, 3])]));
    const points = byClass(root, 'point');
    expect(points).toHaveLength(2);
    const vs = vertices(byClass(root, 'line')[0]!.attrs.d!);
    expect(vs.map(([x]) => x)).toEqual(points.map((p) => num(p, 'cx')));
    expect(byClass(root, 'xticks')[0]!.children.filter((c): c is El => typeof c !== 'string').map(ownText)).toEqual(['a', 'b', 'c']);
  });

  it('ignores NaN and Infinity', () => {
    const svg = line([s(['a', 'b', 'c', 'd'], [1, Number.NaN, Infinity, 4], { low: [Number.NaN, 0, 0, -Infinity], high: [2, 0, 0, 5] })], { goals: [{ value: Number.NaN, label: 'g' }] });
    const root = parseChart(svg);
    expect(byClass(root, 'point')).toHaveLength(2);
    expect(byClass(root, 'goal')).toHaveLength(0);
    expect(byClass(root, 'spread')).toHaveLength(0);
    expect(yTicks(root).labels.at(-1)).not.toMatch(/[MGTPE]/);
  });

  it('draws a single point in the middle', () => {
    const root = parseChart(line([s(['only'], [42], { text: ['42'] })], { width: 600 }));
    const [p] = byClass(root, 'point');
    const bottom = vertices(all(root, (e) => e.name === 'path' && e.attrs.stroke === '#b4b7af')[0]!.attrs.d!);
    expect(num(p!, 'cx')).toBeCloseTo((bottom[0]![0] + bottom[1]![0]) / 2, 0);
    expect(yTicks(root).labels[0]).toBe('0');
  });

  it('spans negative values, with a real minus sign', () => {
    const root = parseChart(line([s(['a', 'b', 'c'], [-12.5, 3, -20])]));
    const values = yTicks(root).labels.map(fromSi);
    expect(values[0]!).toBeLessThanOrEqual(-20);
    expect(values.at(-1)!).toBeGreaterThanOrEqual(3);
    expect(values).toContain(0);
    expect(yTicks(root).labels.join(' ')).not.toContain('-');
  });

  it('gives all-equal values an axis from 0 above them', () => {
    for (const v of [5, 0, -5, 1e-9, 1e15]) {
      const root = parseChart(line([s(['a', 'b', 'c'], [v, v, v])]));
      const values = yTicks(root).labels.map(fromSi);
      expect(values.length, String(v)).toBeGreaterThanOrEqual(2);
      expect(Math.min(...values), String(v)).toBeLessThanOrEqual(Math.min(0, v));
    }
  });

  it('shortens very long labels, titles and names, keeping them whole as tooltips', () => {
    const long = 'x'.repeat(30) + ' a very long label '.repeat(20);
    const root = parseChart(line([s([long, 'b'], [1, 2], { name: long, text: [long, long] }), s([long, 'b'], [2, 1], { name: 'short' })], { title: long, yTitle: long, width: 480 }));
    for (const t of all(root, (e) => e.name === 'text')) {
      const shown = ownText(t);
      expect(shown.length, shown).toBeLessThan(120);
      if (shown.endsWith('…')) expect(titleOf(t)).toBe(long.trim().replace(/\s+/g, ' '));
    }
    expect(ownText(byClass(root, 'ytitle')[0]!)).toMatch(/…$/);
  });

  it('copes with a tiny picture and odd sizes without throwing', () => {
    for (const [width, height] of [[50, 40], [0, 0], [Number.NaN, Infinity], [10_000, 2000]]) {
      parseChart(lineChartSvg({ series: caseBSeries(), yTitle: 'QPS', title: 't', width, height }));
      parseChart(barChartSvg({ bars: [{ label: 'a', value: 1, text: '1' }], yTitle: 'x', width, height }));
    }
  });

  it('keeps a legend of many series to three rows, the rest counted', () => {
    const series = Array.from({ length: 30 }, (_, k) => s(['a', 'b'], [k, k + 1], { name: `variant ${k + 1}` }));
    const root = parseChart(line(series, { width: 480, title: 'Many' }));
    const legend = byClass(root, 'legend')[0]!;
    const texts = all(legend, (e) => e.name === 'text');
    expect(new Set(texts.map((t) => num(t, 'y'))).size).toBe(3);
    const more = ownText(texts.at(-1)!);
    expect(more).toMatch(/^\+\d+ more$/);
    expect(texts.length - 1 + Number(more.replace(/\D/g, ''))).toBe(30);
    // the plot keeps most of the height
    const { ys } = yTicks(root);
    expect(ys[0]! - ys.at(-1)!).toBeGreaterThan(150);
  });

  it('gives several accented series their own colours', () => {
    const root = parseChart(line([s(['a'], [1], { name: 'p99' }), s(['a'], [2], { name: 'p50' }), s(['a'], [3], { name: 'old', tone: 'muted' })]));
    const strokes = byClass(root, 'series').map((g) => g.attrs.stroke);
    expect(new Set(strokes).size).toBe(3);
  });
});

describe('determinism', () => {
  it('gives byte-identical output for the same input', () => {
    expect(caseA()).toBe(caseA());
    expect(caseB(480)).toBe(caseB(480));
    expect(caseC()).toBe(caseC());
    const series = caseBSeries();
    const copy = JSON.parse(JSON.stringify(series)) as SvgSeries[];
    expect(lineChartSvg({ series, yTitle: 'QPS' })).toBe(lineChartSvg({ series: copy, yTitle: 'QPS' }));
  });
});

describe('1,000 categories', () => {
  const n = 1000;
  const x = Array.from({ length: n }, (_, i) => `step ${i + 1}`);
  const y = x.map((_, i) => 20_000 + ((i * 7919) % 1000) * 30);
  const chart = (width = 720, hover = false) => lineChartSvg({
    series: [{ name: 'ops', mode: 'line', tone: 'accent', x, y, text: y.map(String), ...(hover ? { hover: x.map((l, i) => `${l}: ${y[i]}`) } : {}) }],
    goals: [{ value: 30_000, label: 'goal' }], yTitle: 'ops/s', width,
  });

  it('thins the category labels to every k-th and drops the per-point labels, but draws every point', () => {
    for (const width of [720, 480]) {
      const svg = chart(width);
      const root = parseChart(svg);
      const ticks = byClass(root, 'xticks')[0]!.children.filter((c): c is El => typeof c !== 'string');
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(width / 40);
      const shown = ticks.map((t) => Number(ownText(t).replace('step ', '')) - 1);
      const k = shown[1]! - shown[0]!;
      expect(k).toBeGreaterThan(1);
      shown.forEach((i, j) => expect(i).toBe(j * k));
      expect(byClass(root, 'labels')).toHaveLength(0);
      expect(vertices(byClass(root, 'line')[0]!.attrs.d!)).toHaveLength(n);
      expect(svg.length).toBeLessThan(40_000);
    }
  });

  it('keeps each point its tooltip when hover text is given', () => {
    const root = parseChart(chart(720, true));
    const points = byClass(root, 'point');
    expect(points).toHaveLength(n);
    expect(titleOf(points[999]!)).toBe(`step 1000: ${y[999]}`);
  });
});
