/**
 * The one place plotly.js is loaded: a dynamic import the first time a chart is shown (so the first
 * paint never waits for it), colours that follow the page's theme, and escaping of user text,
 * which plotly would otherwise read as markup.
 */
import { useEffect, useState } from 'react';
import type { RefObject } from 'react';
import type * as PlotlyTypes from 'plotly.js';

export type PlotlyModule = typeof PlotlyTypes;
let plotlyPromise: Promise<PlotlyModule> | null = null;
export function loadPlotly(): Promise<PlotlyModule> {
  plotlyPromise ??= import('plotly.js-dist-min').then((m) => {
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

/**
 * plotly reads a subset of HTML in text (<a href>, <b>, <br>, <span style>) in tick labels, point
 * text, annotations and titles. Experiment titles and requirement labels are user text: escape
 * them so they show as typed and never become markup.
 */
export function plotlyText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Free plotly's resources when the chart's element goes away. */
export function usePurgeOnUnmount(ref: RefObject<HTMLDivElement | null>): void {
  useEffect(() => () => {
    const el = ref.current;
    if (el && plotlyPromise) void plotlyPromise.then((P) => P.purge(el));
  }, [ref]);
}
