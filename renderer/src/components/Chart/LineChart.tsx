/**
 * A metric across a study's experiments: one or more traces over the experiments (categories on x),
 * with goal lines, point labels, a spread per point (repeated runs) and hover text. plotly is loaded
 * on first use (plotly.ts); until then, or if it fails, the chart area says so and the numbers stay
 * readable in the table beside it. The chart exports as PNG and SVG.
 */
import { useEffect, useRef, useState } from 'react';
import type { Data, Layout, PlotlyHTMLElement, PlotRelayoutEvent, Shape } from 'plotly.js';
import { ChartFrame } from './ChartFrame';
import { chartTheme, plotlyText, themeLayout, usePlotly } from './plotly';
import { MANY_POINTS, thinSeries, type ChartSeries, type GoalLine } from '../../../../shared/chartData';

/** A point's label: escaped user text, its second line smaller and muted (plotly's <br> and <span>). */
function pointLabel(text: string): string {
  const [first, ...rest] = text.split('\n');
  return rest.length ? `${plotlyText(first!)}<br><span style="font-size:10px;opacity:0.7">${plotlyText(rest.join(' '))}</span>` : plotlyText(first!);
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
  const state = usePlotly(ref, async (Plotly, el) => {
    const series = shownSeries.map((s) => thinSeries(s, range, el.clientWidth || 800));
    const theme = chartTheme(el);
    const base = themeLayout(theme);
    const { fg, muted, accent, good: goalColor } = theme;
    const max = Math.max(0, ...series.flatMap((s) => s.y.map((v) => Math.abs(v ?? 0))), ...series.flatMap((s) => (s.high ?? []).map((v) => Math.abs(v ?? 0))), ...goals.map((g) => Math.abs(g.value)));
    const positive = series.every((s) => s.y.every((v) => v === null || v >= 0));
    // Category labels: the points keep their whole label (two labels cut to the same text must not
    // merge into one category); the ticks show every k-th label, cut to the room each has, so plotly
    // never turns them on their side (at 1024 px too). The whole label is in the hover.
    const categorical = series.some((s) => typeof s.x[0] === 'string');
    const categories = categorical ? [...new Set(series.flatMap((s) => s.x.map(String)))] : [];
    const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor((el.clientWidth - 90) / 48))));
    const room = Math.max(3, Math.floor((el.clientWidth - 90) / Math.max(1, Math.ceil(categories.length / every)) / 7));
    const ticks = categories.filter((_, i) => i % every === 0);
    const fit = (v: string) => plotlyText(v.length > room ? `${v.slice(0, room - 1)}…` : v);
    const data: Data[] = series.map((s, k) => {
      const color = s.tone === 'muted' ? muted : accent;
      // thousands of points: WebGL, a plain line, no labels (SVG markers and text would stall the window)
      const many = shownSeries[k]!.x.length > MANY_POINTS;
      const spread = s.low && s.high && s.y.some((v, i) => v !== null && s.low![i] !== null && s.low![i] !== s.high![i]);
      return {
        // SVG: WebGL costs more to start (a context per chart) than a thinned line costs to draw
        type: 'scatter',
        mode: many ? (s.mode === 'points' ? 'markers' : 'lines') : s.mode === 'points' ? 'text+markers' : 'text+lines+markers', name: plotlyText(s.name),
        x: s.x.map((v) => (typeof v === 'string' ? plotlyText(v) : v)), y: s.y,
        text: s.text?.map(pointLabel), textposition: 'top center', textfont: { color: fg, size: 11 },
        hovertext: s.hover?.map(plotlyText), hoverinfo: s.hover ? 'text' : 'x+y',
        // thousands of steps: small, see-through marks, so the set-apart ones never hide the line beneath
        line: { color, width: 2 },
        marker: many
          ? { size: 5, color, opacity: 0.5, symbol: s.mode === 'points' ? 'x-thin-open' : 'circle', line: { width: 1, color } }
          : { size: s.mode === 'points' ? 9 : 7, color, symbol: s.mode === 'points' ? 'x-thin-open' : 'circle', line: { width: 2, color } },
        connectgaps: true, cliponaxis: false,
        ...(spread && !many ? {
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
    const layout: Partial<Layout> = {
      ...base,
      height,
      margin: { l: 60, r: 16, t: title || series.length > 1 ? 44 : 24, b: 36 },
      ...(title ? { title: { text: plotlyText(title), x: 0, xanchor: 'left', font: { size: 13 } } } : {}),
      xaxis: {
        ...base.xaxis,
        type: categorical ? 'category' : 'linear', automargin: true, tickfont: { color: muted }, tickangle: 0,
        ...(range ? { range, autorange: false } : {}),
        ...(categorical ? { tickmode: 'array', tickvals: ticks.map(plotlyText), ticktext: ticks.map(fit) } : {}),
      },
      // one tick style: 10k, 20k … from a thousand up (never "1000 1500" beside "10k")
      yaxis: {
        ...base.yaxis,
        title: { text: plotlyText(yTitle), standoff: 8 }, rangemode: 'tozero', automargin: true,
        ...(max >= 1000 ? { tickformat: '~s' } : {}),
        // room above the highest point for its label
        ...(positive && max > 0 ? { range: [0, max * 1.25] } : {}),
      },
      showlegend: series.length > 1,
      legend: { ...base.legend, orientation: 'h', y: 1, yanchor: 'bottom', x: 1, xanchor: 'right' },
      shapes,
      annotations: goals.map((g) => ({
        xref: 'paper', x: 0, xanchor: 'left', y: g.value, yanchor: 'bottom', text: plotlyText(g.label),
        showarrow: false, font: { color: goalColor, size: 11 },
      })),
    };
    await Plotly.react(el, data, layout, { displaylogo: false, responsive: true, displayModeBar: false, staticPlot: false });
    // a zoom on a thinned line draws the points of the range zoomed to
    const plot = el as unknown as PlotlyHTMLElement & { removeAllListeners?: (event: string) => void };
    plot.removeAllListeners?.('plotly_relayout');
    if (series.some((s, i) => s.x.length !== shownSeries[i]!.x.length || range)) {
      plot.on('plotly_relayout', (e: PlotRelayoutEvent) => {
        if (e['xaxis.autorange']) setRange(null);
        else if (typeof e['xaxis.range[0]'] === 'number' && typeof e['xaxis.range[1]'] === 'number') setRange([e['xaxis.range[0]'], e['xaxis.range[1]']]);
      });
    }
  }, [shownSeries, goals, title, yTitle, height, range]);

  return <ChartFrame plotRef={ref} state={state} ariaLabel={ariaLabel} exportName={exportName} height={height} testId="chart" />;
}
