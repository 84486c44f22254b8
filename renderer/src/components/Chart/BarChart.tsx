/**
 * A few values as bars (two experiments' IOPS side by side: 2,197 vs 43.0k), each labelled the way
 * people write it. Exports as PNG and SVG like the other charts.
 */
import { useRef } from 'react';
import type { Data, Layout } from 'plotly.js';
import { ChartFrame } from './ChartFrame';
import { chartTheme, plotlyText, themeLayout, usePlotly, valueTicks } from './plotly';

export interface Bar { label: string; value: number | null; text: string; tone: 'a' | 'b' }

export function BarChart({ bars, title, yTitle, ariaLabel, exportName, height = 220 }: {
  bars: Bar[]; title?: string; yTitle: string; ariaLabel: string; exportName?: string; height?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const state = usePlotly(ref, async (Plotly, el) => {
    const theme = chartTheme(el);
    const base = themeLayout(theme);
    const colors = { a: theme.accent, b: theme.warn };
    const max = Math.max(0, ...bars.map((b) => Math.abs(b.value ?? 0)));
    const data: Data[] = [{
      type: 'bar', x: bars.map((b) => plotlyText(b.label)), y: bars.map((b) => b.value),
      text: bars.map((b) => plotlyText(b.text)), textposition: 'outside', cliponaxis: false,
      marker: { color: bars.map((b) => colors[b.tone]) }, hoverinfo: 'x+text',
    }];
    const layout: Partial<Layout> = {
      ...base,
      height,
      margin: { l: 60, r: 12, t: title ? 44 : 24, b: 40 },
      ...(title ? { title: { text: plotlyText(title), x: 0, xanchor: 'left', font: { size: 13 } } } : {}),
      xaxis: { ...base.xaxis, type: 'category', automargin: true },
      yaxis: { ...base.yaxis, title: { text: plotlyText(yTitle), standoff: 8 }, rangemode: 'tozero', automargin: true, ...valueTicks(max) },
      showlegend: false,
    };
    await Plotly.react(el, data, layout, { displaylogo: false, responsive: true, displayModeBar: false });
  }, [bars, title, yTitle, height]);

  return <ChartFrame plotRef={ref} state={state} ariaLabel={ariaLabel} exportName={exportName} height={height} testId="bar-chart" />;
}
