/**
 * A study's report as one self-contained HTML file: it opens offline in any browser and can make
 * no request and run no script — there is no script in it, and its Content-Security-Policy
 * (default-src 'none') forbids any load even if a viewer tried. Charts are inline SVG, each point's
 * full text in its tooltip; the raw text of each capture is folded away under its figures and
 * findings. Laid out for screens and for print (the PDF is this file, printed).
 *
 * Opt-in (renderHtml's `interactive`): the same file with interactive charts — plotly.js and a
 * small bootstrap inline, allowed by their hashes and nothing else may run or load; each SVG chart
 * then has a button that draws it with plotly from its figure, carried as JSON (interactive.ts).
 * Without it, the file is exactly the one described above.
 *
 * Every piece of user or capture text goes through escapeHtml (notes through the Markdown module,
 * which escapes and drops anything that could run or load).
 */
import { MANY_STEPS } from '../chartData';
import type { ChartData } from '../chartData';
import { escapeHtml } from '../html';
import { markdownToHtml } from '../markdown';
import { lineChartSvg } from './svgChart';
import { chartFigure, INTERACTIVE_CSS, jsonBlockText, REPORT_BOOTSTRAP } from './interactive';
import type { InteractiveScripts } from './interactive';
import type { ReportCapture, ReportStory, StoryStep } from './story';
import { isSetApart } from '../timeline';

const esc = escapeHtml;

/** The report's own CSS (no data in it). */
const CSS = `
:root { color-scheme: light; --ink: #1d1f23; --muted: #5f6570; --line: #dcded8; --soft: #f4f5f2; --good: #17803d; --bad: #b42318; --accent: #2456c8; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 62rem; padding: 2rem 1.5rem 4rem; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0 0 .4rem; }
h2 { font-size: 1.35rem; margin: 2.4rem 0 .8rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
h4 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p, ul, ol { margin: .5rem 0; }
a { color: var(--accent); }
.muted { color: var(--muted); }
.small { font-size: .85rem; }
.goal { font-size: 1.1rem; margin: .6rem 0; }
.meta { color: var(--muted); font-size: .85rem; }
.summary { background: var(--soft); border-radius: 6px; padding: .8rem 1.2rem; }
.summary li { margin: .25rem 0; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0 1rem; font-size: .9rem; }
th, td { border-bottom: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--soft); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
tr.set-apart td { color: var(--muted); font-style: italic; }
table.verdicts th.num { white-space: normal; min-width: 6rem; }
table.verdicts td:nth-child(2), table.timeline td:nth-child(2) { min-width: 11rem; }
tr.first-met td, tr.first-met th { background: #eaf6ee; }
.pass { color: var(--good); }
.fail { color: var(--bad); }
.status { display: inline-block; border-radius: 999px; padding: 0 .55rem; font-size: .8rem; border: 1px solid var(--line); background: #fff; }
.status-kept { border-color: #9ad0ac; color: var(--good); }
.status-reverted, .status-failed { border-color: #f0b4ae; color: var(--bad); }
figure.chart { margin: 1rem 0 1.4rem; break-inside: avoid; }
figure.chart svg { display: block; height: auto; max-width: 100%; }
.charts-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 0 1.5rem; }
section.step { border-top: 1px solid var(--line); margin-top: 2rem; }
h2 + section.step { border-top: none; margin-top: 0; }
section.step > h3 { margin-top: 1rem; }
.remarks { color: var(--muted); font-style: italic; }
.notes { border-left: 3px solid var(--line); padding: .1rem 1rem; margin: .6rem 0; }
.notes pre, pre.raw { background: var(--soft); padding: .6rem .8rem; border-radius: 4px; overflow-x: auto; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 0 .25rem; border-radius: 3px; }
.change-key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.capture { border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1rem; margin: .8rem 0; break-inside: avoid-page; }
.capture h4 { margin: 0 0 .3rem; }
.finding-critical { color: var(--bad); font-weight: 600; }
.finding-warning { color: #9a5b00; }
details > summary { cursor: pointer; color: var(--accent); margin: .4rem 0; }
dl.profile { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .4rem 0 1rem; }
dl.profile dt { color: var(--muted); }
dl.profile dd { margin: 0; white-space: pre-wrap; }
footer { margin-top: 3rem; color: var(--muted); font-size: .8rem; border-top: 1px solid var(--line); padding-top: .8rem; }
@media print {
  @page { size: A4; margin: 16mm 14mm 18mm; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  h2 { break-after: avoid; }
  h3, h4 { break-after: avoid; }
  tr, .summary, dl.profile { break-inside: avoid; }
  table { font-size: 8.5pt; }
  th.num { white-space: normal; }
  .small { font-size: 7.5pt; }
  details { display: none; }
  a { color: inherit; text-decoration: none; }
  .table-wrap { overflow: visible; }
}
`;

/** The policy the file carries: nothing may load, nothing may run; only the report's own styles apply. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * The policy of a report with interactive charts: the same, and two scripts may run — those whose
 * SHA-256 it names (plotly.js and the bootstrap). No 'unsafe-inline', no 'unsafe-eval': any other
 * script, inline or injected, and any load (plotly's toImage, a font, a tile) is refused.
 */
export function interactiveCsp(s: Pick<InteractiveScripts, 'plotlyHash' | 'bootstrapHash'>): string {
  const hash = (h: string) => {
    // a hash is base64; anything else here would be a bug that could widen the policy
    if (!/^sha256-[A-Za-z0-9+/]{43}=$/.test(h)) throw new Error(`not a SHA-256 source expression: ${h}`);
    return `'${h}'`;
  };
  return `default-src 'none'; script-src ${hash(s.plotlyHash)} ${hash(s.bootstrapHash)}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
}

function chartSvg(c: ChartData, width: number, height: number): string {
  return lineChartSvg({
    series: c.series.map((s) => ({
      name: s.name, x: s.x.map(String), y: s.y, mode: s.mode ?? 'line', tone: s.tone ?? 'accent',
      ...(s.low ? { low: s.low } : {}), ...(s.high ? { high: s.high } : {}), ...(s.text ? { text: s.text } : {}),
      // a tooltip per point of a long study would weigh ten times the chart; its table has every number
      ...(s.hover && s.x.length <= MANY_STEPS ? { hover: s.hover } : {}),
    })),
    goals: c.goals, title: c.title, yTitle: c.yTitle, width, height,
  });
}

/** The chain's chart wide, the other metrics in a grid: shared with the Markdown writer's image files. */
export function reportChartSvgs(story: ReportStory): { chart: ChartData; svg: string; main: boolean; width: number; height: number }[] {
  return story.charts.map((c, i) => {
    const [width, height] = i === 0 ? [860, 340] : [520, 260];
    return { chart: c, svg: chartSvg(c, width, height), main: i === 0, width, height };
  });
}

type ReportChart = ReturnType<typeof reportChartSvgs>[number];

/** A chart's figure: its SVG, and in an interactive report its plotly figure as a JSON data block. */
function chartFigureHtml(c: ReportChart, interactive: boolean): string {
  const data = interactive
    ? `<script type="application/json" class="chart-data">${jsonBlockText(chartFigure(c.chart, { width: c.width, height: c.height }))}</script>`
    : '';
  return `<figure class="chart">${c.svg}${data}</figure>`;
}

function statusBadge(status: string): string {
  return `<span class="status status-${esc(status)}">${esc(status)}</span>`;
}

function summaryHtml(story: ReportStory): string {
  if (!story.summary.length) return '';
  return `<section class="summary" aria-label="Summary"><ul>${story.summary.map((s) => `<li>${esc(s)}</li>`).join('')}</ul></section>`;
}

function verdictsHtml(story: ReportStory): string {
  const v = story.verdicts;
  if (!v) return '';
  const head = `<tr><th scope="col">#</th><th scope="col">Experiment</th>${v.requirements.map((q) => `<th scope="col" class="num">${esc(q)}</th>`).join('')}<th scope="col">All</th></tr>`;
  const rows = v.rows.map((r) => `<tr${r.firstMeetingAll ? ' class="first-met"' : ''}><td>${esc(r.step)}</td><td>${esc(r.title)}${r.firstMeetingAll ? ' <span class="small pass">(first to meet all)</span>' : ''}</td>`
    + `${r.cells.map((c) => `<td class="num${c.met === true ? ' pass' : c.met === false ? ' fail' : ''}">${esc(c.text)}</td>`).join('')}<td>${esc(r.all)}</td></tr>`).join('');
  return `<h2 id="requirements">Requirements</h2><ul>${v.requirements.map((q) => `<li>${esc(q)}</li>`).join('')}</ul>`
    + `<div class="table-wrap"><table class="verdicts"><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

function profilesHtml(story: ReportStory): string {
  if (!story.profiles.length) return '';
  return `<h2 id="hardware">Hardware</h2>${story.profiles.map((p) => `<h3>${esc(p.name)}</h3><dl class="profile">${p.fields.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`).join('')}`;
}

function timelineHtml(story: ReportStory, charts: ReportChart[], interactive: boolean): string {
  if (!story.timeline.length) return '';
  const main = charts.find((c) => c.main);
  const others = charts.filter((c) => !c.main);
  const rows = story.timeline.map((r) => `<tr${isSetApart(r) ? ' class="set-apart"' : ''}><td>${esc(r.step)}</td><td><a href="#${esc(r.anchor)}">${esc(r.title)}</a></td><td>${statusBadge(r.status)}</td>`
    + `<td class="num">${esc(r.value)}</td><td class="num">${esc(r.stepChange)}</td><td class="num">${esc(r.cumulative)}</td><td class="num">${esc(r.share)}</td><td>${esc(r.goal)}</td></tr>`).join('');
  return `<h2 id="results">Results, step by step</h2>`
    + (main ? chartFigureHtml(main, interactive) : '')
    + `<div class="table-wrap"><table class="timeline"><thead><tr><th>#</th><th>Experiment</th><th>Status</th><th class="num">Value${story.mainMetric ? ` <span class="muted small">${esc(story.mainMetric)}</span>` : ''}</th><th class="num">Step</th><th class="num">Cumulative</th><th class="num">Share of gain</th><th>Goal</th></tr></thead><tbody>${rows}</tbody></table></div>`
    + (others.length ? `<h3>Other metrics</h3><div class="charts-grid">${others.map((c) => chartFigureHtml(c, interactive)).join('')}</div>` : '');
}

function captureHtml(c: ReportCapture): string {
  const facts = [c.kindTitle, `${c.lines.toLocaleString('en-US')} lines`, c.toolVersion ?? ''].filter(Boolean);
  const figures = c.figures.length
    ? `<table class="figures"><tbody>${c.figures.map((f) => `<tr><th scope="row">${esc(f.label)}</th><td class="num">${esc(f.value)}</td></tr>`).join('')}</tbody></table>`
      + (c.moreFigures ? `<p class="muted small">and ${c.moreFigures.toLocaleString('en-US')} more figures in the capture</p>` : '')
    : '';
  const findings = c.findings.length
    ? `<ul class="findings">${c.findings.map((f) => `<li class="finding-${esc(f.severity)}">${esc(f.message)}${f.evidence ? ` <span class="muted small">(${esc(f.evidence)})</span>` : ''}</li>`).join('')}</ul>`
    : '';
  const raw = c.raw
    ? `<details><summary>Raw text${c.raw.shownLines < c.lines ? ` (the first ${c.raw.shownLines.toLocaleString('en-US')} of ${c.lines.toLocaleString('en-US')} lines)` : ` (${c.lines.toLocaleString('en-US')} lines)`}</summary><pre class="raw">${esc(c.raw.text)}</pre></details>`
    : '';
  return `<div class="capture"><h4>${esc(c.name)}</h4><p class="muted small">${facts.map(esc).join(' · ')}</p>`
    + (c.command ? `<p class="small"><code>${esc(c.command)}</code></p>` : '')
    + (c.note ? `<p>${esc(c.note)}</p>` : '') + figures + findings + raw + '</div>';
}

function stepHtml(s: StoryStep): string {
  const head = `<h3>${esc(s.step)}. ${esc(s.title)}</h3><p class="meta">${statusBadge(s.status)} ${esc(s.date)}${s.profile ? ` · ${esc(s.profile)}` : ''}</p>`;
  const remarks = s.remarks.length ? `<p class="remarks">${s.remarks.map(esc).join('; ')}</p>` : '';
  const notes = s.notes.trim() ? `<div class="notes">${markdownToHtml(s.notes, { headingOffset: 3 })}</div>` : '';
  const changes = s.changes.length
    ? `<h4>Config changes</h4><div class="table-wrap"><table class="changes"><thead><tr><th>Where</th><th>Setting</th><th>Before</th><th>After</th><th>Why</th></tr></thead><tbody>${s.changes.map((c) => `<tr><td>${esc(c.scope)}</td><td class="change-key">${esc(c.key)}</td><td>${esc(c.before || '∅')}</td><td>${esc(c.after || '∅')}</td><td>${esc(c.why)}</td></tr>`).join('')}</tbody></table></div>`
    : '';
  const results = s.results.length
    ? `<h4>Results</h4><div class="table-wrap"><table class="results"><tbody>${s.results.map((r) => `<tr><th scope="row">${esc(r.label)}${r.primary ? ' <span class="small muted">(primary)</span>' : ''} <span class="small muted">${esc(r.name)}</span></th><td class="num">${esc(r.value)}</td><td class="small muted">${r.source ? `from ${esc(r.source)}` : ''}</td></tr>`).join('')}</tbody></table></div>`
      + (s.change ? `<p>${esc(s.change)}.</p>` : '')
    : '';
  const verdict = s.verdict ? `<p class="${s.verdict.startsWith('meets') ? 'pass' : s.verdict.startsWith('misses') ? 'fail' : 'muted'}">Requirements: ${esc(s.verdict)}.</p>` : '';
  const captures = s.captures.length ? `<h4>Evidence</h4>${s.captures.map(captureHtml).join('')}` : '';
  return `<section class="step" id="${esc(s.anchor)}">${head}${remarks}${notes}${changes}${results}${verdict}${captures}</section>`;
}

export interface RenderHtmlOptions {
  /** interactive charts: plotly's source and the scripts' hashes (electron/services/report/interactiveScripts.ts) */
  interactive?: InteractiveScripts | null;
}

export function renderHtml(story: ReportStory, opts: RenderHtmlOptions = {}): string {
  const charts = reportChartSvgs(story);
  const interactive = opts.interactive ?? null;
  // nothing to draw interactively: the plain report (no script for nothing)
  const scripts = interactive && charts.length ? interactive : null;
  // written inline, plotly's source must hold nothing the HTML parser reads as the end of its script
  if (scripts && /<\/?script|<!--/i.test(scripts.plotly)) throw new Error('plotly.js cannot be written inline: it holds "<script", "</script" or "<!--"');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${scripts ? interactiveCsp(scripts) : REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Tunebook ${esc(story.appVersion)}">
<title>${esc(story.title)}</title>
<style>${CSS}${scripts ? INTERACTIVE_CSS : ''}</style>
</head>
<body>
<header>
<h1>${esc(story.title)}</h1>
${story.goal ? `<p class="goal">${esc(story.goal)}</p>` : ''}
<p class="meta">A Tunebook report${story.scope ? ` of ${esc(story.scope)}` : ''} · ${esc(story.generatedAt.slice(0, 10))}</p>
</header>
<main>
${summaryHtml(story)}
${verdictsHtml(story)}
${profilesHtml(story)}
${timelineHtml(story, charts, scripts !== null)}
${story.steps.length ? `<h2 id="steps">The steps</h2>${story.steps.map(stepHtml).join('\n')}` : ''}
</main>
<footer>Made with Tunebook ${esc(story.appVersion)} on ${esc(story.generatedAt)}. ${scripts
    ? 'This file is self-contained: it loads nothing, and its only scripts are plotly.js and the few lines that draw its interactive charts.'
    : 'This file is self-contained: it loads nothing and runs no script.'}</footer>
${scripts ? `<script>${scripts.plotly}</script>\n<script>${REPORT_BOOTSTRAP}</script>\n` : ''}</body>
</html>
`;
}
