/**
 * A metric across a study's experiments: one or more traces over the experiments (categories on x),
 * with goal lines, point labels, a spread per point (repeated runs) and hover text. plotly is loaded
 * on first use (plotly.ts); until then, or if it fails, the chart area says so and the numbers stay
 * readable in the table beside it. The chart exports as PNG and SVG.
 */
import { useEffect, useRef, useState } from 'react';
import type { Annotations, Data, Layout, PlotlyHTMLElement, PlotRelayoutEvent, Shape } from 'plotly.js';
import { ChartFrame } from './ChartFrame';
import { chartTheme, plotlyText, themeLayout, usePlotly, valueTicks } from './plotly';
import { plotlyLines, pointLabel } from '../../../../shared/plotlyText';
import { MANY_POINTS, thinSeries, type ChartSeries, type GoalLine } from '../../../../shared/chartData';


/** A point's label as lines of text (the second one smaller). */
function labelLines(text: string): string[] {
  const [first, ...rest] = text.split('\n');
  return rest.length ? [first!, rest.join(' ')] : [first!];
}

// ---- where the labels go --------------------------------------------------------------------
// plotly draws a point's text where its textposition says and never moves it out of the way of a
// line, another label or the edge. So each label is given the place (above, below, beside its
// marker) that crosses the fewest lines and labels and stays inside the figure, from the geometry
// plotly will draw: the margins and ranges are set here, and text is measured in the chart's font.

interface Box { x0: number; x1: number; y0: number; y1: number }
type Segment = readonly [number, number, number, number];

const overlap = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
const areaOf = (a: Box): number => (a.x1 - a.x0) * (a.y1 - a.y0);
const grow = (a: Box, by: number): Box => ({ x0: a.x0 - by, x1: a.x1 + by, y0: a.y0 - by, y1: a.y1 + by });

/** How much of a line segment runs through a box (Liang–Barsky clipping), in px. */
function crossing(b: Box, [x0, y0, x1, y1]: Segment): number {
  const dx = x1 - x0, dy = y1 - y0;
  let t0 = 0, t1 = 1;
  for (const [p, q] of [[-dx, x0 - b.x0], [dx, b.x1 - x0], [-dy, y0 - b.y0], [dy, b.y1 - y0]] as const) {
    if (p === 0) { if (q < 0) return 0; continue; }
    const r = q / p;
    if (p < 0) { if (r > t1) return 0; if (r > t0) t0 = r; } else { if (r < t0) return 0; if (r < t1) t1 = r; }
  }
  return (t1 - t0) * Math.hypot(dx, dy);
}

let measure: CanvasRenderingContext2D | null | undefined;
/** The width of text as the chart draws it, in px. */
function textWidth(text: string, size: number, font: string): number {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure) return text.length * size * 0.6;
  measure.font = `${size}px ${font}`;
  return measure.measureText(text).width;
}

const LABEL_SIZE = 11;
const GOAL_SIZE = 11;
/** plotly's text positions around a marker, each with how much less it is liked than the one above it */
const POSITIONS: readonly (readonly [string, number])[] = [
  ['top center', 0], ['bottom center', 6], ['top right', 10], ['top left', 10],
  ['middle right', 12], ['middle left', 12], ['bottom right', 14], ['bottom left', 14],
];
/** a label moved a line or two further from its marker (empty lines between them): over a line that runs just above or below the point */
const LIFT = 1.3 * LABEL_SIZE;

interface Candidate { box: Box; pref: number; pos: string; lift: number; x: number; xanchor: 'left' | 'center' | 'right'; yanchor: 'top' | 'bottom' }
interface Item { cands: Candidate[]; at: number; hidden: boolean; goal: number | null; series: number; index: number; area: number }

interface Plan {
  /** per series, per point: plotly's textposition */
  positions: string[][];
  /** per series, per point: the label left out (too many labels for the room) */
  hidden: boolean[][];
  /** per series, per point: how many empty lines between the marker and its label */
  lifted: number[][];
  goals: { x: number; xanchor: 'left' | 'center' | 'right'; yanchor: 'top' | 'bottom' }[];
}

function placeLabels(o: {
  width: number; height: number; margin: { l: number; r: number; t: number; b: number };
  categories: number; yRange: readonly [number, number]; font: string;
  series: { at: number[]; y: (number | null)[]; text: string[] | undefined; marker: number; line: boolean; low?: (number | null)[] | undefined; high?: (number | null)[] | undefined }[];
  goals: GoalLine[];
  /** the title and the legend above the plot, the tick labels under it */
  taken: Box[];
}): Plan {
  const { width: W, height: H, margin: m } = o;
  const plotW = Math.max(1, W - m.l - m.r), plotH = Math.max(1, H - m.t - m.b);
  const [lo, hi] = o.yRange;
  const X = (i: number) => m.l + ((i + 0.5) * plotW) / Math.max(1, o.categories);
  const Y = (v: number) => m.t + plotH * (1 - (v - lo) / (hi - lo || 1));
  const plot: Box = { x0: m.l, x1: m.l + plotW, y0: m.t, y1: m.t + plotH };
  const figure: Box = { x0: 0, x1: W, y0: 0, y1: H };

  const segments: Segment[] = [];
  const markers: Box[] = [];
  o.series.forEach((s) => {
    let prev: [number, number] | null = null;
    s.y.forEach((v, j) => {
      if (v === null) return;
      const p: [number, number] = [X(s.at[j]!), Y(v)];
      const r = s.marker / 2 + 1;
      markers.push({ x0: p[0] - r, x1: p[0] + r, y0: p[1] - r, y1: p[1] + r });
      if (s.line && prev) segments.push([prev[0], prev[1], p[0], p[1]]);
      if (s.line) prev = p;
      const l = s.low?.[j], h = s.high?.[j];
      if (l !== null && l !== undefined && h !== null && h !== undefined && l !== h) segments.push([p[0], Y(l), p[0], Y(h)]);
    });
  });
  const goalSegments = o.goals.map((g): Segment => [plot.x0, Y(g.value), plot.x1, Y(g.value)]);

  const items: Item[] = [];
  o.series.forEach((s, k) => s.y.forEach((v, j) => {
    const text = s.text?.[j];
    if (v === null || !text) return;
    const lines = labelLines(text);
    const w = Math.max(textWidth(lines[0]!, LABEL_SIZE, o.font), lines[1] ? textWidth(lines[1], 10, o.font) : 0) + 2;
    const h = ((lines.length - 1) * 1.3 + 1) * LABEL_SIZE;
    // plotly's offset from the marker's centre (drawing.textPointPosition)
    const off = s.marker / 2 / 0.8 + 1;
    const cx = X(s.at[j]!), cy = Y(v);
    const cands = [0, 1, 2].flatMap((lift) => POSITIONS.filter(([pos]) => !lift || !pos.startsWith('middle')).map(([pos, pref]): Candidate => {
      const [vert, horiz] = pos.split(' ') as [string, string];
      const y0 = vert === 'top' ? cy - off - h - lift * LIFT : vert === 'bottom' ? cy + off + lift * LIFT : cy - h / 2;
      const x0 = horiz === 'left' ? cx - off - w : horiz === 'right' ? cx + off : cx - w / 2;
      // an attempt set apart (a lone ✕) reads best with its value beside it
      const liked = !s.line && vert === 'middle' ? pref - 10 : pref;
      return { box: { x0, x1: x0 + w, y0, y1: y0 + h }, pref: liked + [0, 9, 30][lift]!, pos, lift, x: 0, xanchor: 'center', yanchor: 'top' };
    }));
    items.push({ cands, at: 0, hidden: false, goal: null, series: k, index: j, area: w * h });
  }));
  const points = items.length;
  o.goals.forEach((g, k) => {
    const w = textWidth(g.label, GOAL_SIZE, o.font) + 4, h = GOAL_SIZE * 1.3 + 2, y = Y(g.value);
    const cands: Candidate[] = [];
    // at either end of the line, or between two experiments; above the line, or under it
    const spots: [number, 'left' | 'center' | 'right', number][] = [[0, 'left', 0], [1, 'right', 2]];
    for (let i = 1; i < o.categories; i++) spots.push([i / o.categories, 'center', 8]);
    for (const [yanchor, pref] of [['bottom', 0], ['top', 4]] as const) {
      for (const [x, xanchor, p] of spots) {
        const px = plot.x0 + x * plotW;
        const x0 = xanchor === 'left' ? px : xanchor === 'right' ? px - w : px - w / 2;
        const y0 = yanchor === 'bottom' ? y - 1 - h : y + 1;
        cands.push({ box: { x0, x1: x0 + w, y0, y1: y0 + h }, pref: pref + p, pos: '', lift: 0, x, xanchor, yanchor });
      }
    }
    items.push({ cands, at: 0, hidden: false, goal: k, series: -1, index: k, area: w * h });
  });

  const cost = (item: Item, c: Candidate): number => {
    const b = c.box;
    const a = areaOf(b);
    let n = c.pref;
    n += 12 * (a - overlap(b, figure)); // cut off at the figure's edge
    // outside the plot: over the value axis' numbers, or above or under it (the title, legend and
    // tick labels are in `taken`)
    n += 3 * overlap(b, { x0: -1e6, x1: plot.x0, y0: -1e6, y1: 1e6 });
    n += 0.5 * overlap(b, { x0: -1e6, x1: 1e6, y0: plot.y1, y1: 1e6 });
    n += 1 * overlap(b, { x0: -1e6, x1: 1e6, y0: -1e6, y1: plot.y0 });
    const padded = grow(b, 1);
    for (const s of segments) n += 20 * crossing(padded, s);
    goalSegments.forEach((s, k) => { if (k !== item.goal) n += 20 * crossing(padded, s); });
    for (const mk of markers) n += 3 * overlap(b, mk);
    for (const t of o.taken) n += 3 * overlap(b, t);
    for (const other of items) if (other !== item && !other.hidden) n += 3 * overlap(padded, other.cands[other.at]!.box);
    return n;
  };
  const settle = () => {
    for (let round = 0; round < 6; round++) {
      let moved = false;
      for (const item of items) {
        if (item.hidden) continue;
        let best = item.at, bestCost = cost(item, item.cands[item.at]!);
        item.cands.forEach((c, i) => { const n = cost(item, c); if (n < bestCost - 0.5) { best = i; bestCost = n; } });
        if (best !== item.at) { item.at = best; moved = true; }
      }
      if (!moved) break;
    }
  };
  // too many labels for the room (a long study on a narrow window): the labels of every k-th
  // experiment, k as far apart as a label is wide, and of the last; then any that would still
  // cover one kept is left out too. The hover still has every value.
  const labels = items.slice(0, points);
  const categoryOf = (item: Item) => o.series[item.series]!.at[item.index]!;
  const widths = labels.map((item) => item.cands[0]!.box.x1 - item.cands[0]!.box.x0).sort((a, b) => a - b);
  const stride = Math.max(1, Math.ceil(((widths[Math.floor(widths.length / 2)] ?? 0) + 8) / (plotW / Math.max(1, o.categories))));
  const last = Math.max(-1, ...labels.map(categoryOf));
  if (stride > 1) {
    for (const item of labels) {
      const c = categoryOf(item);
      if (c !== last && (c % stride !== 0 || last - c < stride)) item.hidden = true;
    }
  }
  settle();
  const order = labels.filter((item) => !item.hidden).sort((a, b) => categoryOf(a) - categoryOf(b));
  if (order.length > 2) order.splice(1, 0, order.pop()!);
  const kept: Box[] = [];
  for (const item of order) {
    const b = grow(item.cands[item.at]!.box, 2);
    if (kept.some((k) => overlap(b, k) > 0)) item.hidden = true;
    else kept.push(b);
  }
  if (order.some((item) => item.hidden)) settle();

  const positions = o.series.map((s) => s.y.map(() => 'top center'));
  const hidden = o.series.map((s) => s.y.map(() => false));
  const lifted = o.series.map((s) => s.y.map(() => 0));
  for (const item of items.slice(0, points)) {
    positions[item.series]![item.index] = item.cands[item.at]!.pos;
    hidden[item.series]![item.index] = item.hidden;
    lifted[item.series]![item.index] = item.cands[item.at]!.lift;
  }
  const goals = items.slice(points).map((item) => {
    const c = item.cands[item.at]!;
    return { x: c.x, xanchor: c.xanchor, yanchor: c.yanchor };
  });
  return { positions, hidden, lifted, goals };
}

/**
 * Category ticks are cut to the room they have: each tick names its whole experiment on hover (an
 * SVG title). plotly lays a drag handle over the axis to pan it; on a category axis the handle
 * gives way to the titles (zooming in the plot and double-click to reset stay).
 */
function titleTicks(el: HTMLElement, titleAt: (i: number) => string | undefined): void {
  el.querySelectorAll<SVGGElement>('.xaxislayer-above g.xtick').forEach((g, k) => {
    const d = (g as unknown as { __data__?: { x?: unknown } }).__data__;
    const text = titleAt(typeof d?.x === 'number' ? d.x : k);
    let t = g.querySelector<SVGTitleElement>('title');
    if (!text) { t?.remove(); return; }
    if (!t) { t = document.createElementNS('http://www.w3.org/2000/svg', 'title'); g.appendChild(t); }
    t.textContent = text;
    g.style.pointerEvents = 'all';
    g.style.cursor = 'default';
  });
  el.querySelectorAll<SVGElement>('.draglayer .ewdrag, .draglayer .wdrag, .draglayer .edrag').forEach((r) => { r.style.pointerEvents = 'none'; });
}

export function LineChart({ series: shownSeries, goals = [], title, yTitle, ariaLabel, height = 240, exportName }: {
  series: ChartSeries[];
  goals?: GoalLine[];
  /** drawn above the plot (small multiples name their metric there) */
  title?: string;
  yTitle: string;
  ariaLabel: string;
  height?: number;
  /** file name (without extension) of the PNG/SVG export; no export buttons without it */
  exportName?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // the x range zoomed to (null: all of it); new data shows all of it again
  const [range, setRange] = useState<[number, number] | null>(null);
  useEffect(() => { setRange(null); }, [shownSeries]);
  // the labels are placed for a width: drawn again when the window makes the chart wider or narrower
  const [width, setWidth] = useState(0);
  const drawnWidth = useRef<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => {
      if (drawnWidth.current !== null && Math.abs(el.clientWidth - drawnWidth.current) > 4) setWidth(el.clientWidth);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  const state = usePlotly(ref, async (Plotly, el) => {
    const W = el.clientWidth || 800;
    drawnWidth.current = W;
    const series = shownSeries.map((s) => thinSeries(s, range, W));
    const theme = chartTheme(el);
    const base = themeLayout(theme);
    const { fg, muted, accent, good: goalColor } = theme;
    const values = [
      ...series.flatMap((s) => [...s.y, ...(s.low ?? []), ...(s.high ?? [])]).filter((v): v is number => v !== null && Number.isFinite(v)),
      ...goals.map((g) => g.value),
    ];
    const max = Math.max(0, ...values.map(Math.abs));
    const positive = series.every((s) => s.y.every((v) => v === null || v >= 0));
    // the value axis, set here so the labels can be placed: from zero, with room above the highest
    // point for its label (and under the lowest, below zero)
    const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
    const yRange: [number, number] = positive ? [0, max > 0 ? max * 1.25 : 1] : [lo - (hi - lo) * 0.2, hi + (hi - lo) * 0.25];
    // Category labels: the points keep their whole label (two labels cut to the same text must not
    // merge into one category); the ticks show every k-th label, cut to the room each has, so plotly
    // never turns them on their side (at 1024 px too). The whole title is in the hover of the point
    // and of the tick.
    const categorical = series.some((s) => typeof s.x[0] === 'string');
    const categories = categorical ? [...new Set(series.flatMap((s) => s.x.map(String)))] : [];
    const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor((W - 90) / 48))));
    const room = Math.max(3, Math.floor((W - 90) / Math.max(1, Math.ceil(categories.length / every)) / 7));
    const ticks = categories.filter((_, i) => i % every === 0);
    const fit = (v: string) => plotlyText(v.length > room ? `${v.slice(0, room - 1)}…` : v);
    // each category's whole name: the first line of its point's hover ("4. TIME_WAIT: … (kept)")
    const fullTitle = new Map<string, string>();
    for (const s of series) s.x.forEach((x, j) => { const h = s.hover?.[j]?.split('\n')[0]; if (h && !fullTitle.has(String(x))) fullTitle.set(String(x), h); });

    const legend = series.length > 1;
    // the legend right of the title, or under it when the chart is too narrow for both on one line
    const titleWidth = title ? textWidth(title, 13, theme.font) + 8 : 0;
    const legendWidth = legend ? series.reduce((w, s) => w + textWidth(s.name, 12, theme.font) + 46, 0) : 0;
    const stacked = titleWidth > 0 && legendWidth > 0 && titleWidth + legendWidth + 24 > W;
    const margin = { l: 60, r: 16, t: stacked ? 62 : title || legend ? 44 : 24, b: 36 };
    const many = (k: number) => shownSeries[k]!.x.length > MANY_POINTS;
    const labelled = categorical && series.some((s, k) => !many(k) && s.text?.some(Boolean));
    const plan = labelled ? placeLabels({
      width: W, height, margin, categories: categories.length, yRange, font: theme.font, goals,
      series: series.map((s, k) => ({
        at: s.x.map((x) => categories.indexOf(String(x))), y: s.y, text: many(k) ? undefined : s.text,
        marker: s.mode === 'points' ? 9 : 7, line: s.mode !== 'points', low: s.low, high: s.high,
      })),
      taken: [
        ...(title ? [{ x0: 0, x1: titleWidth, y0: 0, y1: stacked ? 26 : margin.t - 14 }] : []),
        ...ticks.map((c) => {
          const x = margin.l + ((categories.indexOf(c) + 0.5) * (W - margin.l - margin.r)) / categories.length;
          const w = textWidth(c.length > room ? `${c.slice(0, room - 1)}…` : c, 12, theme.font) + 4;
          return { x0: x - w / 2, x1: x + w / 2, y0: height - margin.b + 2, y1: height - margin.b + 20 };
        }),
        ...(legend ? [{ x0: W - margin.r - legendWidth, x1: W - margin.r, y0: margin.t - 24, y1: margin.t }] : []),
      ],
    }) : null;

    const data: Data[] = series.map((s, k) => {
      const color = s.tone === 'muted' ? muted : accent;
      // thousands of points: WebGL, a plain line, no labels (SVG markers and text would stall the window)
      const lots = many(k);
      const spread = s.low && s.high && s.y.some((v, i) => v !== null && s.low![i] !== null && s.low![i] !== s.high![i]);
      return {
        // SVG: WebGL costs more to start (a context per chart) than a thinned line costs to draw
        type: 'scatter',
        mode: lots ? (s.mode === 'points' ? 'markers' : 'lines') : s.mode === 'points' ? 'text+markers' : 'text+lines+markers', name: plotlyText(s.name),
        x: s.x.map((v) => (typeof v === 'string' ? plotlyText(v) : v)), y: s.y,
        text: s.text?.map((t, j) => {
          if (!plan) return pointLabel(t);
          // (a label left out is a blank, not empty: plotly.react drops the text of a point whose
          // text was empty the draw before, so it could never come back on a wider window)
          if (!t) return '';
          if (plan.hidden[k]![j]) return '\u00a0';
          // an empty line between the marker and a label moved a line further from it
          const n = plan.lifted[k]![j]!;
          return plan.positions[k]![j]!.startsWith('top') ? `${pointLabel(t)}${'<br>\u00a0'.repeat(n)}` : `${'\u00a0<br>'.repeat(n)}${pointLabel(t)}`;
        }),
        // each label above, below or beside its own marker, wherever it crosses no line or other label
        textposition: plan ? plan.positions[k]! : 'top center', textfont: { color: fg, size: LABEL_SIZE },
        // the hover's lines as plotly's <br> (it draws "\n" as a space)
        hovertext: s.hover?.map(plotlyLines), hoverinfo: s.hover ? 'text' : 'x+y',
        // thousands of steps: small, see-through marks, so the set-apart ones never hide the line beneath
        line: { color, width: 2 },
        marker: lots
          ? { size: 5, color, opacity: 0.5, symbol: s.mode === 'points' ? 'x-thin-open' : 'circle', line: { width: 1, color } }
          : { size: s.mode === 'points' ? 9 : 7, color, symbol: s.mode === 'points' ? 'x-thin-open' : 'circle', line: { width: 2, color } },
        connectgaps: true, cliponaxis: false,
        ...(spread && !lots ? {
          error_y: {
            type: 'data', symmetric: false, color, thickness: 1.5, width: 5,
            array: s.y.map((v, i) => (v === null || s.high![i] === null ? 0 : s.high![i]! - v)),
            arrayminus: s.y.map((v, i) => (v === null || s.low![i] === null ? 0 : v - s.low![i]!)),
          },
        } : {}),
      } as Data;
    });
    const shapes: Partial<Shape>[] = goals.map((g) => ({
      type: 'line', xref: 'paper', x0: 0, x1: 1, yref: 'y', y0: g.value, y1: g.value,
      line: { color: goalColor, width: 1.5, dash: 'dash' },
    }));
    // a requirement's name on its line where no point or label is (left, right, or between two experiments)
    const annotations: Partial<Annotations>[] = goals.map((g, k) => {
      const at = plan?.goals[k] ?? { x: 0, xanchor: 'left' as const, yanchor: 'bottom' as const };
      return {
        xref: 'paper', x: at.x, xanchor: at.xanchor, y: g.value, yanchor: at.yanchor, yshift: at.yanchor === 'bottom' ? 1 : -1,
        text: plotlyText(g.label), showarrow: false, font: { color: goalColor, size: GOAL_SIZE },
      };
    });
    const layout: Partial<Layout> = {
      ...base,
      height,
      margin,
      ...(title ? { title: { text: plotlyText(title), x: 0, xanchor: 'left', font: { size: 13 }, ...(stacked ? { y: 1, yref: 'container', yanchor: 'top', pad: { t: 8 } } : {}) } } : {}),
      xaxis: {
        ...base.xaxis,
        type: categorical ? 'category' : 'linear', automargin: true, tickfont: { color: muted }, tickangle: 0,
        // each experiment in the middle of its share of the width (as the labels were placed)
        ...(range ? { range, autorange: false } : categorical ? { range: [-0.5, categories.length - 0.5], autorange: false } : {}),
        ...(categorical ? { tickmode: 'array', tickvals: ticks.map(plotlyText), ticktext: ticks.map(fit) } : {}),
      },
      // one tick style: 10k, 20k … from a thousand up (never "1000 1500" beside "10k")
      yaxis: {
        ...base.yaxis,
        title: { text: plotlyText(yTitle), standoff: 8 }, rangemode: 'tozero', automargin: true,
        ...valueTicks(max),
        range: yRange, autorange: false,
      },
      showlegend: legend,
      legend: { ...base.legend, orientation: 'h', y: 1, yanchor: 'bottom', x: 1, xanchor: 'right' },
      shapes,
      annotations,
    };
    await Plotly.react(el, data, layout, { displaylogo: false, responsive: true, displayModeBar: false, staticPlot: false });
    const plot = el as unknown as PlotlyHTMLElement & { removeAllListeners?: (event: string) => void };
    // the cut ticks name their whole experiment on hover, after every redraw plotly makes
    plot.removeAllListeners?.('plotly_afterplot');
    if (categorical) {
      const titleAt = (i: number) => { const c = categories[i]; return c === undefined ? undefined : fullTitle.get(c) ?? c; };
      titleTicks(el, titleAt);
      plot.on('plotly_afterplot', () => titleTicks(el, titleAt));
    }
    // a zoom on a thinned line draws the points of the range zoomed to
    plot.removeAllListeners?.('plotly_relayout');
    if (series.some((s, i) => s.x.length !== shownSeries[i]!.x.length || range)) {
      plot.on('plotly_relayout', (e: PlotRelayoutEvent) => {
        if (e['xaxis.autorange']) setRange(null);
        else if (typeof e['xaxis.range[0]'] === 'number' && typeof e['xaxis.range[1]'] === 'number') setRange([e['xaxis.range[0]'], e['xaxis.range[1]']]);
      });
    }
  }, [shownSeries, goals, title, yTitle, height, range, width]);

  return <ChartFrame plotRef={ref} state={state} ariaLabel={ariaLabel} exportName={exportName} height={height} testId="chart" />;
}
