/**
 * The one place plotly.js is loaded: a dynamic import the first time a chart is shown (so the first
 * paint never waits for it), colours that follow the page's theme, and escaping of user text,
 * which plotly would otherwise read as markup.
 */
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type * as PlotlyTypes from 'plotly.js';
import type { Layout } from 'plotly.js';

export type PlotlyModule = typeof PlotlyTypes;
let plotlyPromise: Promise<PlotlyModule> | null = null;
export function loadPlotly(): Promise<PlotlyModule> {
  plotlyPromise ??= import('plotly.js-basic-dist-min').then((m) => {
    const mod = m as unknown as { default?: PlotlyModule } & PlotlyModule;
    return mod.default ?? mod;
  });
  return plotlyPromise;
}

/** 'dark' | 'light', following prefers-color-scheme, so the chart redraws in the new colours. */
export function useColorScheme(): 'dark' | 'light' {
  const query = '(prefers-color-scheme: dark)';
  const [scheme, setScheme] = useState<'dark' | 'light'>(() => (window.matchMedia(query).matches ? 'dark' : 'light'));
  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = () => setScheme(mql.matches ? 'dark' : 'light');
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);
  return scheme;
}

export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/** The colours every chart draws with, read from the page's CSS variables (base.css) when it draws. */
export interface ChartTheme {
  fg: string;
  muted: string;
  grid: string;
  accent: string;
  good: string;
  warn: string;
  font: string;
  /** what the chart stands on (the nearest ancestor with a background), so an exported PNG/SVG is readable too */
  paper: string;
}

const TRANSPARENT = new Set(['transparent', 'rgba(0, 0, 0, 0)']);

export function chartTheme(el: Element): ChartTheme {
  let paper = '';
  for (let at: Element | null = el; at && !paper; at = at.parentElement) {
    const bg = getComputedStyle(at).backgroundColor;
    if (bg && !TRANSPARENT.has(bg)) paper = bg;
  }
  return {
    fg: cssVar('--fg', '#1d1f23'),
    muted: cssVar('--fg-muted', '#5f6570'),
    grid: cssVar('--border', '#d9dad4'),
    accent: cssVar('--accent', '#2456c8'),
    good: cssVar('--good', '#17803d'),
    warn: cssVar('--warn', '#9a5b00'),
    font: cssVar('--sans', 'system-ui, sans-serif'),
    paper: paper || cssVar('--bg', '#fbfbf9'),
  };
}

/** The part of a plotly layout that is the theme: background, font, axis and grid colours. */
export function themeLayout(t: ChartTheme): Partial<Layout> {
  const axis = { gridcolor: t.grid, zerolinecolor: t.grid, linecolor: t.grid, tickcolor: t.grid };
  return {
    paper_bgcolor: t.paper, plot_bgcolor: t.paper,
    font: { family: t.font, size: 12, color: t.fg },
    xaxis: axis, yaxis: axis,
    legend: { font: { color: t.fg } },
    hoverlabel: { bgcolor: t.paper, bordercolor: t.grid, font: { color: t.fg } },
  };
}

/**
 * plotly reads a subset of HTML in text (<a href>, <b>, <br>, <span style>) in tick labels, point
 * text, annotations and titles. Experiment titles and requirement labels are user text: escaped by
 * the one plotlyText the HTML report's interactive charts use too.
 */
export { plotlyText } from '../../../../shared/plotlyText';

/**
 * One style of value ticks on every chart: from 1,000 up in SI steps (10k, 20k …, never "1000 1500"
 * beside "10k" on the chart next to it); plotly's own numbers below that.
 */
export function valueTicks(max: number): { tickformat?: string } {
  return max >= 1000 ? { tickformat: '~s' } : {};
}

export type ChartState = 'loading' | 'ready' | 'failed';

/**
 * Draw a chart into `ref` with plotly once it is loaded, again whenever `deps` change or the
 * colour scheme does, and free plotly's resources when the element goes away. Returns whether the
 * chart is drawn (the figure shows a note until then, or if plotly cannot be loaded).
 */
export function usePlotly(ref: RefObject<HTMLDivElement | null>, draw: (Plotly: PlotlyModule, el: HTMLDivElement) => Promise<void>, deps: readonly unknown[]): ChartState {
  const [state, setState] = useState<ChartState>('loading');
  const scheme = useColorScheme();
  const drawRef = useRef(draw);
  drawRef.current = draw;
  useEffect(() => {
    let live = true;
    const el = ref.current;
    if (!el) return;
    loadPlotly().then(
      async (Plotly) => {
        if (!live) return;
        await drawRef.current(Plotly, el);
        if (live) setState('ready');
      },
      () => { if (live) setState('failed'); },
    );
    return () => { live = false; };
  }, [ref, scheme, ...deps]);
  useEffect(() => () => {
    const el = ref.current;
    if (el && plotlyPromise) void plotlyPromise.then((P) => P.purge(el));
  }, [ref]);
  return state;
}

/** Save a drawn chart as a PNG or SVG file (the browser's download; Electron asks where). */
export async function exportChart(ref: RefObject<HTMLDivElement | null>, format: 'png' | 'svg', name: string): Promise<void> {
  const el = ref.current;
  if (!el) return;
  const Plotly = await loadPlotly();
  const safe = name.replace(/[^\p{L}\p{N}._ -]+/gu, '-').trim().slice(0, 100) || 'chart';
  await Plotly.downloadImage(el, { format, filename: safe, width: el.clientWidth || 900, height: el.clientHeight || 400 });
}
