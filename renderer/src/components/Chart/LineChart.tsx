/**
 * The only module that touches plotly.js. plotly is loaded with a dynamic import the first time a
 * chart is shown, so the first paint never waits for it; until then (or if it fails) the chart area
 * says so, and the numbers stay readable in the table next to it.
 */
import { useRef } from 'react';
import type { Data, Layout, Shape } from 'plotly.js';
import { cssVar, plotlyText, usePlotly } from './plotly';
import './Chart.css';

export interface ChartSeries { name: string; x: string[]; y: (number | null)[]; text?: string[] }
export interface GoalLine { value: number; label: string }

export function LineChart({ series, goals = [], yTitle, ariaLabel }: {
  series: ChartSeries[];
  goals?: GoalLine[];
  yTitle: string;
  ariaLabel: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const state = usePlotly(ref, async (Plotly, el) => {
    const fg = cssVar('--fg', '#222');
    const muted = cssVar('--fg-muted', '#666');
    const grid = cssVar('--border', '#ddd');
    const accent = cssVar('--accent', '#2563eb');
    const goalColor = cssVar('--good', '#15803d');
    const data: Data[] = series.map((s, i) => ({
      type: 'scatter', mode: 'text+lines+markers', name: plotlyText(s.name), x: s.x.map(plotlyText), y: s.y,
      text: s.text?.map(plotlyText), textposition: 'top center', textfont: { color: fg, size: 11 },
      line: { color: i === 0 ? accent : undefined, width: 2 }, marker: { size: 7 }, connectgaps: true, cliponaxis: false,
      hovertemplate: '%{x}: %{y}<extra></extra>',
    }));
    const shapes: Partial<Shape>[] = goals.map((g) => ({
      type: 'line', xref: 'paper', x0: 0, x1: 1, yref: 'y', y0: g.value, y1: g.value,
      line: { color: goalColor, width: 1.5, dash: 'dash' },
    }));
    const layout: Partial<Layout> = {
      margin: { l: 56, r: 16, t: 22, b: 36 },
      paper_bgcolor: 'rgba(0,0,0,0)', plot_bgcolor: 'rgba(0,0,0,0)',
      font: { family: cssVar('--sans', 'system-ui, sans-serif'), size: 12, color: fg },
      xaxis: { type: 'category', gridcolor: grid, automargin: true, tickfont: { color: muted } },
      yaxis: { title: { text: plotlyText(yTitle) }, gridcolor: grid, zerolinecolor: grid, rangemode: 'tozero', automargin: true },
      showlegend: false,
      shapes,
      annotations: goals.map((g) => ({
        xref: 'paper', x: 0, xanchor: 'left', y: g.value, yanchor: 'bottom', text: plotlyText(g.label),
        showarrow: false, font: { color: goalColor, size: 11 },
      })),
    };
    await Plotly.react(el, data, layout, { displaylogo: false, responsive: true, displayModeBar: false, staticPlot: false });
  }, [series, goals, yTitle]);

  return (
    <figure className="chart" aria-label={ariaLabel}>
      <div ref={ref} className="chart-plot" data-testid="chart" data-state={state} />
      {state === 'loading' && <p className="chart-note">Loading chart…</p>}
      {state === 'failed' && <p className="chart-note">The chart library could not be loaded.</p>}
    </figure>
  );
}
