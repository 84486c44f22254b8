/**
 * The HTML report's opt-in interactive charts. The static SVG charts stay as they are (read with
 * scripts off, printed in the PDF); with this option each one also carries its chart as a plotly
 * figure, and a button "Interactive chart" draws it in place (zoom, hover, double-click to reset).
 *
 * What the file then holds, and why it still runs nothing else:
 *  - plotly.js (plotly.js-basic-dist-min, read by the back end: electron/services/report/interactiveScripts.ts)
 *    and REPORT_BOOTSTRAP below, both inline, each allowed by its SHA-256 in the policy
 *    (script-src 'sha256-…' 'sha256-…'; still default-src 'none', no 'unsafe-inline', no
 *    'unsafe-eval': plotly's SVG charts need no eval, and no chart here is a WebGL one);
 *  - each chart's figure as JSON in a <script type="application/json"> block (data, never run),
 *    with every "<" written \u003c so no text in it can close the block or open a comment;
 *  - every piece of text from the study given to plotly (titles, category names, point labels,
 *    hover text, requirement labels) through plotlyText, so plotly shows it and never reads it
 *    as its pseudo-HTML (no link, no style, no markup).
 * The figure is built here, at export time, from the same ChartData the SVG is drawn from: the
 * bootstrap only parses it and hands it to plotly, so it never changes (and neither does its hash).
 */
import type { Annotations, Config, Data, Layout, Shape } from 'plotly.js';
import { MANY_POINTS } from '../chartData';
import type { ChartData } from '../chartData';
import { plotlyLines, plotlyText, pointLabel } from '../plotlyText';
import { SVG_COLORS } from './svgChart';

/** What the back end gives renderHtml for the interactive charts: plotly's source and the two scripts' hashes. */
export interface InteractiveScripts {
  /** plotly.min.js as read, to be written inline */
  plotly: string;
  /** CSP source expressions, "sha256-<base64>" of plotly and of REPORT_BOOTSTRAP */
  plotlyHash: string;
  bootstrapHash: string;
}

/**
 * About what the option adds to a report: plotly.js-basic-dist-min's plotly-basic.min.js
 * (1,119,926 bytes in 3.7.0) and the charts' figures (a few kB). The Export dialog says it; a test
 * keeps it honest.
 */
export const INTERACTIVE_EXTRA_BYTES = 1_130_000;

/**
 * Runs once the page is parsed (it is the last thing in the body, after plotly): gives each chart
 * that carries a figure a button that swaps the static SVG for the plotly chart and back. Nothing
 * from the study is in it: the figures are read as JSON from their data blocks.
 */
export const REPORT_BOOTSTRAP = `(function () {
  'use strict';
  var Plotly = window.Plotly;
  if (!Plotly || typeof Plotly.newPlot !== 'function') return;
  var figures = document.querySelectorAll('figure.chart');
  Array.prototype.forEach.call(figures, function (figure) {
    var source = figure.querySelector('script.chart-data[type="application/json"]');
    if (!source) return;
    var box = document.createElement('div');
    box.className = 'chart-plotly';
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'chart-switch';
    button.textContent = 'Interactive chart';
    figure.appendChild(box);
    figure.appendChild(button);
    var drawn = false;
    button.addEventListener('click', function () {
      var on = !figure.classList.contains('interactive');
      figure.classList.toggle('interactive', on);
      button.textContent = on ? 'Static chart' : 'Interactive chart';
      if (!on) return;
      if (drawn) { Plotly.Plots.resize(box); return; }
      drawn = true;
      var f = JSON.parse(source.textContent);
      Plotly.newPlot(box, f.data, f.layout, f.config);
    });
  });
})();
`;

/** The switch and the plotly chart: on screen the one chosen, on paper always the SVG. Only in an interactive report. */
export const INTERACTIVE_CSS = `
.chart-switch { display: block; margin: .3rem 0 0 auto; font: inherit; font-size: .8rem; padding: .15rem .6rem; border: 1px solid var(--line); border-radius: 4px; background: #fff; color: var(--accent); cursor: pointer; }
.chart-switch:hover { background: var(--soft); }
.chart-plotly { display: none; width: 100%; }
@media screen { figure.chart.interactive > svg { display: none; } figure.chart.interactive > .chart-plotly { display: block; } }
@media print { .chart-switch, .chart-plotly { display: none !important; } }
`;

/**
 * A value as a JSON data block's content: "<" as \u003c, so nothing in it can end the block
 * (</script>) or open a comment (<!--) whatever the study's text says. JSON.parse reads it back.
 */
export function jsonBlockText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export interface ChartFigure { data: Data[]; layout: Partial<Layout>; config: Partial<Config> }

const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
const LABEL_SIZE = 11;

/**
 * A chart as the plotly figure the report draws: the app's LineChart (renderer/src/components/
 * Chart/LineChart.tsx) in the static SVG's colours — the kept chain as a line with its labels,
 * attempts set apart as ✕, the spread of repeated runs as error bars, requirements as dashed lines
 * with their label, a hover per point with its whole text. `width` is the SVG's, for fitting the
 * category labels; the chart then follows the page's width.
 */
export function chartFigure(c: ChartData, size: { width: number; height: number }): ChartFigure {
  const { ink, mutedInk, grid, axis, goal: goalColor, mutedSeries, accents } = SVG_COLORS;
  const series = c.series;
  const values = [
    ...series.flatMap((s) => [...s.y, ...(s.low ?? []), ...(s.high ?? [])]).filter((v): v is number => v !== null && Number.isFinite(v)),
    ...c.goals.map((g) => g.value).filter(Number.isFinite),
  ];
  const max = Math.max(0, ...values.map(Math.abs));
  const positive = values.every((v) => v >= 0);
  // from zero, with room above the highest point for its label (and under the lowest, below zero)
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  const yRange: [number, number] = positive ? [0, max > 0 ? max * 1.25 : 1] : [lo - (hi - lo) * 0.2, hi + (hi - lo) * 0.25];

  // every k-th category labelled, each cut to the room it has at the SVG's width (the hover of each
  // point names its experiment in full)
  const categorical = series.some((s) => typeof s.x[0] === 'string');
  const categories = categorical ? [...new Set(series.flatMap((s) => s.x.map(String)))] : [];
  const W = size.width;
  const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor((W - 90) / 48))));
  const room = Math.max(3, Math.floor((W - 90) / Math.max(1, Math.ceil(categories.length / every)) / 7));
  const ticks = categories.filter((_, i) => i % every === 0);
  const fit = (v: string) => plotlyText(v.length > room ? `${v.slice(0, room - 1)}…` : v);

  let accent = 0;
  const data: Data[] = series.map((s) => {
    const points = s.mode === 'points';
    const color = s.tone === 'muted' ? mutedSeries : accents[accent++ % accents.length]!;
    // thousands of steps: a plain line (or bare marks), no labels
    const lots = s.x.length > MANY_POINTS;
    const spread = !lots && s.low && s.high && s.y.some((v, i) => v !== null && s.low![i] != null && s.high![i] != null && s.low![i] !== s.high![i]);
    return {
      type: 'scatter',
      mode: lots ? (points ? 'markers' : 'lines') : points ? 'text+markers' : 'text+lines+markers',
      name: plotlyText(s.name),
      x: s.x.map((v) => (typeof v === 'string' ? plotlyText(v) : v)),
      y: s.y,
      ...(s.text && !lots ? { text: s.text.map(pointLabel), textposition: 'top center', textfont: { color: ink, size: LABEL_SIZE } } : {}),
      ...(s.hover ? { hovertext: s.hover.map(plotlyLines), hoverinfo: 'text' } : { hoverinfo: 'x+y' }),
      line: { color, width: 2 },
      marker: lots
        ? { size: 5, color, opacity: 0.5, symbol: points ? 'x-thin-open' : 'circle', line: { width: 1, color } }
        : { size: points ? 9 : 7, color, symbol: points ? 'x-thin-open' : 'circle', line: { width: 2, color } },
      connectgaps: true, cliponaxis: false,
      ...(spread ? {
        error_y: {
          type: 'data', symmetric: false, color, thickness: 1.5, width: 5,
          array: s.y.map((v, i) => (v === null || s.high![i] == null ? 0 : s.high![i]! - v)),
          arrayminus: s.y.map((v, i) => (v === null || s.low![i] == null ? 0 : v - s.low![i]!)),
        },
      } : {}),
    } as Data;
  });
  const goals = c.goals.filter((g) => Number.isFinite(g.value));
  const shapes: Partial<Shape>[] = goals.map((g) => ({
    type: 'line', xref: 'paper', x0: 0, x1: 1, yref: 'y', y0: g.value, y1: g.value, line: { color: goalColor, width: 1.5, dash: 'dash' },
  }));
  const annotations: Partial<Annotations>[] = goals.map((g) => ({
    xref: 'paper', x: 0, xanchor: 'left', y: g.value, yanchor: 'bottom', yshift: 1,
    text: plotlyText(g.label), showarrow: false, font: { color: goalColor, size: 11 },
  }));
  const legend = series.length > 1;
  const axisStyle = { gridcolor: grid, zerolinecolor: axis, linecolor: axis, tickcolor: axis, tickfont: { color: mutedInk }, automargin: true };
  const layout: Partial<Layout> = {
    height: size.height,
    autosize: true,
    // the title on the first line, the legend (right) on the second: never over each other, whatever the width
    margin: { l: 60, r: 16, t: legend ? 66 : 44, b: 36 },
    paper_bgcolor: '#fff', plot_bgcolor: '#fff',
    font: { family: FONT, size: 12, color: ink },
    title: { text: plotlyText(c.title), x: 0, xanchor: 'left', xref: 'container', y: 1, yref: 'container', yanchor: 'top', pad: { t: 10, l: 12 }, font: { size: 14, weight: 600 } },
    xaxis: {
      ...axisStyle,
      type: categorical ? 'category' : 'linear',
      ...(categorical ? { range: [-0.5, categories.length - 0.5], autorange: false, tickmode: 'array', tickvals: ticks.map(plotlyText), ticktext: ticks.map(fit) } : {}),
    },
    yaxis: {
      ...axisStyle,
      title: { text: plotlyText(c.yTitle), standoff: 8 }, rangemode: 'tozero', range: yRange, autorange: false,
      // one tick style: 10k, 20k … from a thousand up, as the SVG's axis
      ...(max >= 1000 ? { tickformat: '~s' } : {}),
    },
    showlegend: legend,
    legend: { orientation: 'h', y: 1, yanchor: 'bottom', x: 1, xanchor: 'right', font: { color: ink } },
    hovermode: 'closest',
    hoverlabel: { bgcolor: '#fff', bordercolor: grid, font: { color: ink } },
    dragmode: 'zoom',
    shapes, annotations,
  };
  const config: Partial<Config> = {
    displaylogo: false, responsive: true,
    // no MathJax here to typeset with; said anyway, so "$…$" in a title is text whatever the page holds
    typesetMath: false,
    // toImage would draw the chart into a blob: image, which the policy forbids (the static SVG is the picture to keep)
    modeBarButtonsToRemove: ['toImage', 'select2d', 'lasso2d'],
  };
  return { data, layout, config };
}
