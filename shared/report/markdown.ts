/**
 * A study's report as Markdown, written the way tuning write-ups are (the environment, the problem,
 * each step with what changed and what it gave, the tool output that showed it), with the charts
 * as SVG files beside it. Text from users and captures is escaped so it reads literally; notes keep
 * their Markdown, rebuilt from the parsed tree so raw HTML, scripts and link tricks never survive
 * into a wiki or blog that renders this file.
 */
import { escapeMarkdown, markdownCodeBlock, safeMarkdown } from '../markdown';
import { reportChartSvgs } from './html';
import type { ReportCapture, ReportStory, StoryStep } from './story';
import { isSetApart } from '../timeline';

/** Lines of a capture's raw text the Markdown shows (the whole capture travels in the bundle). */
export const MARKDOWN_RAW_LINES = 60;

export interface MarkdownReport {
  markdown: string;
  /** chart images, to be written at `path` relative to the Markdown file */
  images: { path: string; svg: string }[];
}

const md = escapeMarkdown;
/** Text in a table cell: escaped, on one line. */
const cell = (text: string): string => md(text.replace(/\s*\n\s*/g, ' ')) || ' ';

function table(head: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[] = []): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head.map(cell)), line(head.map((_, i) => (numeric[i] ? '---:' : '---'))), ...rows.map((r) => line(r.map(cell)))].join('\n');
}

function fileSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'chart';
}

function captureMd(c: ReportCapture): string {
  const out = [`#### ${md(c.name)}`, '', `*${md([c.kindTitle, `${c.lines.toLocaleString('en-US')} lines`, c.toolVersion ?? ''].filter(Boolean).join(' · '))}*`];
  if (c.command) out.push('', markdownCodeBlock(c.command, 'sh'));
  if (c.note) out.push('', md(c.note));
  if (c.figures.length) {
    out.push('', ...c.figures.map((f) => `- ${md(f.label)}: **${md(f.value)}**`));
    if (c.moreFigures) out.push(`- *and ${c.moreFigures.toLocaleString('en-US')} more figures in the capture*`);
  }
  if (c.findings.length) {
    out.push('', ...c.findings.map((f) => `- ${f.severity === 'critical' ? '**Critical:** ' : f.severity === 'warning' ? '**Warning:** ' : ''}${md(f.message)}${f.evidence ? ` (${md(f.evidence)})` : ''}`));
  }
  if (c.raw) {
    const lines = c.raw.text.split('\n');
    const shown = lines.slice(0, MARKDOWN_RAW_LINES);
    out.push('', `${shown.length < c.lines ? `The first ${shown.length} of ${c.lines.toLocaleString('en-US')} lines:` : 'The output:'}`, '', markdownCodeBlock(shown.join('\n')));
  }
  return out.join('\n');
}

function stepMd(s: StoryStep): string {
  const out = [`### ${md(s.step)}. ${md(s.title)}`, '', `*${md([s.status, s.date, s.profile ?? ''].filter(Boolean).join(' · '))}*`];
  if (s.remarks.length) out.push('', `*${md(s.remarks.join('; '))}*`);
  if (s.notes.trim()) out.push('', safeMarkdown(s.notes, { headingOffset: 3 }));
  if (s.changes.length) {
    out.push('', '**What changed**', '', table(['Where', 'Setting', 'Before', 'After', 'Why'], s.changes.map((c) => [c.scope, c.key, c.before || '∅', c.after || '∅', c.why])));
  }
  if (s.results.length) {
    out.push('', '**Result**', '', ...s.results.map((r) => `- ${md(r.label)}${r.primary ? ' (primary)' : ''}: **${md(r.value)}**${r.source ? ` — from ${md(r.source)}` : ''}`));
    if (s.change) out.push('', `${md(s.change)}.`);
  }
  if (s.verdict) out.push('', `Requirements: ${md(s.verdict)}.`);
  if (s.captures.length) out.push('', '**Evidence**', '', s.captures.map(captureMd).join('\n\n'));
  return out.join('\n');
}

/** The report; `chartDir` is the folder of the chart images, relative to the Markdown file. */
export function renderMarkdown(story: ReportStory, chartDir: string): MarkdownReport {
  const charts = reportChartSvgs(story).map((c, i) => ({ ...c, path: `${chartDir}/${String(i + 1).padStart(2, '0')}-${fileSlug(c.chart.metric)}.svg` }));
  const image = (c: (typeof charts)[number]) => `![${md(c.chart.title)}](${encodeURI(c.path)})`;
  const out: string[] = [`# ${md(story.title)}`, ''];
  if (story.goal) out.push(`> ${md(story.goal)}`, '');
  out.push(`*A Tunebook report${story.scope ? ` of ${md(story.scope)}` : ''} · ${md(story.generatedAt.slice(0, 10))}*`, '');
  if (story.summary.length) out.push('## Summary', '', ...story.summary.map((s) => `- ${md(s)}`), '');
  if (story.profiles.length) {
    out.push('## Environment', '');
    for (const p of story.profiles) out.push(`### ${md(p.name)}`, '', table(['', ''], p.fields), '');
  }
  const v = story.verdicts;
  if (v) {
    out.push('## Requirements', '', ...v.requirements.map((q) => `- ${md(q)}`), '',
      table(['#', 'Experiment', ...v.requirements, 'All'], v.rows.map((r) => [r.step, `${r.title}${r.firstMeetingAll ? ' (first to meet all)' : ''}`, ...r.cells.map((c) => c.text), r.all]),
        [false, false, ...v.requirements.map(() => true), false]), '');
  }
  if (story.timeline.length) {
    out.push('## Results, step by step', '');
    const main = charts.find((c) => c.main);
    if (main) out.push(image(main), '');
    out.push(table(['#', 'Experiment', 'Status', `Value${story.mainMetric ? ` (${story.mainMetric})` : ''}`, 'Step', 'Cumulative', 'Share of gain', 'Goal'],
      story.timeline.map((r) => [r.step, isSetApart(r) ? `${r.title} (set apart)` : r.title, r.status, r.value, r.stepChange, r.cumulative, r.share, r.goal]),
      [false, false, false, true, true, true, true, false]), '');
    const others = charts.filter((c) => !c.main);
    if (others.length) out.push('### Other metrics', '', ...others.flatMap((c) => [image(c), '']));
  }
  if (story.steps.length) out.push('## The steps', '', story.steps.map(stepMd).join('\n\n'), '');
  out.push('---', '', `*Made with Tunebook ${md(story.appVersion)} on ${md(story.generatedAt)}.*`, '');
  return { markdown: out.join('\n'), images: charts.map((c) => ({ path: c.path, svg: c.svg })) };
}
