/**
 * Time series of a capture (iostat, vmstat, pidstat, mpstat, sar, top, locust history) on one
 * chart: lines over time (or sample number), zoomable. The points arrive downsampled for the
 * screen; a zoom reports its x range (onRange) so the caller fetches that stretch in full detail,
 * and a double click (autorange) reports null to go back to the whole series.
 */
import { useRef } from 'react';
import type { Data, Layout, PlotRelayoutEvent } from 'plotly.js';
import { ChartFrame } from './ChartFrame';
import { chartTheme, plotlyText, themeLayout, usePlotly, valueTicks } from './plotly';

export interface SeriesTrace { name: string; x: number[]; y: (number | null)[] }

type PlotElement = HTMLDivElement & { on?: (event: string, fn: (e: PlotRelayoutEvent) => void) => void; removeAllListeners?: (event: string) => void };

/** plotly's x range from a relayout event: numbers, or date strings on a time axis */
function rangeOf(e: PlotRelayoutEvent, xIsTime: boolean): { from: number; to: number } | null | undefined {
  if (e['xaxis.autorange']) return null;
  const a = e['xaxis.range[0]'];
  const b = e['xaxis.range[1]'];
  if (a === undefined || b === undefined) return undefined;
  const num = (v: unknown) => (xIsTime ? Date.parse(String(v).replace(' ', 'T')) : Number(v));
  const from = num(a), to = num(b);
  return Number.isFinite(from) && Number.isFinite(to) ? { from, to } : undefined;
}

export function SeriesChart({ traces, xIsTime, xTitle, yTitle, ariaLabel, onRange, exportName, band }: {
  traces: SeriesTrace[];
  /** a stretch of the time axis to shade (the benchmark a monitor was recorded around), epoch ms */
  band?: { from: number; to: number; label: string };
  xIsTime: boolean;
  xTitle: string;
  yTitle: string;
  ariaLabel: string;
  onRange?: (range: { from: number; to: number } | null) => void;
  /** file name of the PNG/SVG export */
  exportName?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onRangeRef = useRef(onRange);
  onRangeRef.current = onRange;

  const state = usePlotly(ref, async (Plotly, el) => {
    const base = themeLayout(chartTheme(el));
    const data: Data[] = traces.map((t) => ({
      type: 'scatter', mode: 'lines', name: plotlyText(t.name),
      x: xIsTime ? t.x.map((v) => new Date(v)) : t.x, y: t.y,
      line: { width: 1.5 }, connectgaps: false, hovertemplate: `%{x}: %{y}<extra>${plotlyText(t.name)}</extra>`,
    }));
    const layout: Partial<Layout> = {
      ...base,
      margin: { l: 60, r: 16, t: 10, b: 40 },
      xaxis: { ...base.xaxis, type: xIsTime ? 'date' : 'linear', title: { text: plotlyText(xTitle) }, automargin: true },
      yaxis: {
        ...base.yaxis, title: { text: plotlyText(yTitle) }, rangemode: 'tozero', automargin: true,
        ...valueTicks(traces.reduce((m, t) => t.y.reduce<number>((n, v) => Math.max(n, Math.abs(v ?? 0)), m), 0)),
      },
      showlegend: traces.length > 1,
      legend: { ...base.legend, orientation: 'h', y: -0.25 },
      uirevision: 'keep-zoom',
      ...(band && xIsTime ? {
        shapes: [{
          type: 'rect', xref: 'x', yref: 'paper', x0: new Date(band.from), x1: new Date(band.to), y0: 0, y1: 1,
          fillcolor: 'rgba(120, 150, 220, 0.15)', line: { width: 0 }, layer: 'below',
        }],
        annotations: [{
          // a Date, as the traces' x (plotly reads Dates in local time; a number or an ISO string would not line up)
          x: new Date(band.from) as unknown as number, xref: 'x', xanchor: 'left', y: 1, yref: 'paper', yanchor: 'top', showarrow: false,
          text: plotlyText(band.label), font: { size: 11 },
        }],
      } : {}),
    };
    await Plotly.react(el, data, layout, { displaylogo: false, responsive: true, displayModeBar: true, modeBarButtonsToRemove: ['lasso2d', 'select2d'] });
    const plot = el as PlotElement;
    plot.removeAllListeners?.('plotly_relayout');
    plot.on?.('plotly_relayout', (e) => {
      const r = rangeOf(e, xIsTime);
      if (r !== undefined) onRangeRef.current?.(r);
    });
  }, [traces, xIsTime, xTitle, yTitle, band?.from, band?.to, band?.label]);

  return (
    <ChartFrame plotRef={ref} state={state} ariaLabel={ariaLabel} exportName={exportName} testId="series-chart" className="series-chart" exportAt="bottom"
      extra={{ 'data-points': traces.reduce((n, t) => n + t.y.length, 0) }} />
  );
}
