/**
 * What a study's report says, in order, as data: the goal and requirements with their verdicts, the
 * hardware, the chain of results and its charts, then each step with its config changes, results
 * and evidence. The HTML and Markdown writers (html.ts, markdown.ts) only lay this out, so the two
 * formats tell the same story with the same numbers. Pure.
 */
import type { Finding } from '../capture/types';
import { chainChart, metricChart, stepNo } from '../chartData';
import type { ChartData } from '../chartData';
import { formatBytes, formatPercent, requirementText } from '../format';
import { metricInfo } from '../metrics';
import type { ConfigChange, Experiment, ExperimentStatus, HardwareProfile, Study, StudyComparison, TimelineRow } from '../model';
import { computeComparison, isSetApart, mainMetric } from '../timeline';
import { formatNumber, formatQuantity } from '../units';

/** A capture on an experiment, as the report shows it (read from the notebook by the report service). */
export interface ReportCapture {
  /** the name it was attached under */
  name: string;
  note: string;
  kind: string;
  /** "fio", "iostat -x" … */
  kindTitle: string;
  bytes: number;
  lines: number;
  command?: string;
  toolVersion?: string;
  /** its headline figures, as people write them */
  figures: { label: string; value: string }[];
  /** figures left out of the report (they are in the capture) */
  moreFigures: number;
  findings: Finding[];
  /** the raw text (its first lines for a long capture), folded away in HTML */
  raw: { text: string; shownLines: number } | null;
}

export interface ReportInput {
  study: Study;
  /** the experiments reported, in the study's order */
  experiments: Experiment[];
  /** how many experiments the study has (a report of a chosen few says so) */
  studyExperimentCount: number;
  profiles: HardwareProfile[];
  /** by capture link id */
  captures: ReadonlyMap<number, ReportCapture>;
  generatedAt: string;
  appVersion: string;
}

export interface StoryResult {
  name: string;
  /** "Requests per second" */
  label: string;
  value: string;
  primary: boolean;
  /** where the figure was taken from: "fio-seq.txt, lines 5–25" */
  source: string | null;
}

export interface StoryStep {
  /** "B", "1", "2" … */
  step: string;
  title: string;
  status: ExperimentStatus;
  date: string;
  profile: string | null;
  /** Markdown, as the user wrote it */
  notes: string;
  changes: ConfigChange[];
  results: StoryResult[];
  /** the primary metric's change, in words: "+46.4 % on the step, +104.3 % since the baseline" */
  change: string | null;
  /** "meets every requirement it measured", "misses: CPU ≤ 70 %", "not judged (planned)" */
  verdict: string | null;
  /** set apart from the chain (failed or reverted), or within noise */
  remarks: string[];
  captures: ReportCapture[];
  /** an anchor for links within the report */
  anchor: string;
}

export interface StoryTimelineRow {
  step: string;
  title: string;
  status: ExperimentStatus;
  value: string;
  stepChange: string;
  cumulative: string;
  share: string;
  goal: string;
  inChain: boolean;
  anchor: string;
}

export interface StoryVerdicts {
  /** the requirements, as people read them */
  requirements: string[];
  rows: { step: string; title: string; cells: { text: string; met: boolean | null }[]; all: string; firstMeetingAll: boolean }[];
}

export interface ReportStory {
  title: string;
  goal: string;
  generatedAt: string;
  appVersion: string;
  /** "3 of 10 experiments" when the report covers a chosen set */
  scope: string | null;
  /** the outcome in a few plain sentences */
  summary: string[];
  verdicts: StoryVerdicts | null;
  profiles: { name: string; fields: [string, string][] }[];
  /** the primary metric's name, for the timeline's value column */
  mainMetric: string | null;
  timeline: StoryTimelineRow[];
  /** the chain first, then the study's other metrics */
  charts: ChartData[];
  steps: StoryStep[];
}

const STATUS_WORDS: Record<ExperimentStatus, string> = { planned: 'planned', kept: 'kept', reverted: 'reverted', failed: 'failed' };

function value(r: Pick<TimelineRow, 'value' | 'unit' | 'metric'>): string {
  return r.value === null ? '—' : formatQuantity(r.value, r.unit ?? '', r.metric ?? undefined);
}

function goalText(r: TimelineRow, requirementCount: number): string {
  if (r.status === 'planned') return 'not judged';
  if (r.meetsGoal === null || requirementCount === 0) return '—';
  return r.meetsGoal ? '✓ meets' : '✗ misses';
}

const anchorOf = (i: number): string => `step-${stepNo(i).toLowerCase()}`;

function count(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const spelled = (n: number): string => NUMBER_WORDS[n] ?? formatNumber(n);

/** The outcome in plain sentences: the chain from the baseline, the requirements, the biggest step, what was set apart. */
function summaryOf(c: StudyComparison, study: Study): string[] {
  const out: string[] = [];
  const chain = c.rows.map((r, i) => ({ r, i })).filter(({ r }) => r.inChain && r.value !== null);
  const first = chain[0];
  const last = chain[chain.length - 1];
  if (first && last && first !== last) {
    const label = metricInfo(last.r.metric ?? '').label;
    const steps = chain.length - 1;
    out.push(`${label} went from ${value(first.r)} at the baseline to ${value(last.r)} after ${count(steps, 'kept step')}`
      + `${last.r.cumulativeChangePercent !== null && !last.r.cumulativeNotComparable ? ` (${formatPercent(last.r.cumulativeChangePercent)})` : ''}: `
      + `${chain.map(({ r }) => value(r)).join(' → ')}.`);
    const biggest = chain.slice(1).reduce((a, b) => ((b.r.shareOfGainPercent ?? -Infinity) > (a.r.shareOfGainPercent ?? -Infinity) ? b : a), chain[1]!);
    if (steps > 1 && biggest.r.shareOfGainPercent !== null) {
      out.push(`The largest share of the gain, ${formatPercent(biggest.r.shareOfGainPercent).replace(/^\+/, '')}, came from step ${stepNo(biggest.i)}, “${biggest.r.title}”.`);
    }
  } else if (first) {
    out.push(`${metricInfo(first.r.metric ?? '').label}: ${value(first.r)} at the baseline; no kept step after it yet.`);
  }
  const n = study.requirements.length;
  if (n > 0) {
    const judged = c.rows.filter((r) => r.status !== 'planned' && r.requirements.some((q) => q.met !== null));
    const base = judged[0];
    if (base) {
      const failing = base.requirements.filter((q) => q.met === false).length;
      out.push(!failing ? 'The baseline already met every requirement it measured.'
        : n === 1 ? 'At the baseline the requirement was not met.'
          : `At the baseline ${spelled(failing)} of the ${spelled(n)} requirements ${failing === 1 ? 'was' : 'were'} not met.`);
    }
    const firstAll = c.rows.findIndex((r) => r.experimentId === c.firstMeetingAll);
    if (firstAll >= 0) out.push(`${n === 1 ? 'The requirement is' : `All ${spelled(n)} requirements are`} first met by step ${stepNo(firstAll)}, “${c.rows[firstAll]!.title}”.`);
    else out.push(`No experiment meets all ${spelled(n)} requirements yet.`);
  }
  const apart = c.rows.filter(isSetApart).length;
  if (apart) out.push(`${count(apart, 'attempt')} failed or ${apart === 1 ? 'was' : 'were'} reverted; ${apart === 1 ? 'it is' : 'they are'} shown set apart and not counted in the gain.`);
  return out;
}

function verdictsOf(c: StudyComparison, study: Study): StoryVerdicts | null {
  if (!study.requirements.length) return null;
  return {
    requirements: study.requirements.map(requirementText),
    rows: c.rows.map((r, i) => ({
      step: stepNo(i),
      title: r.title,
      cells: study.requirements.map((_, j) => {
        const check = r.requirements[j];
        if (!check || check.value === null) return { text: '—', met: null };
        return { text: `${formatQuantity(check.value, check.unit, check.metric)}${check.met === null ? '' : check.met ? ' ✓' : ' ✗'}`, met: check.met };
      }),
      all: r.status === 'planned' ? 'planned' : r.requirements.every((x) => x.met === true) ? '✓ all met'
        : r.requirements.some((x) => x.met === false) ? `${r.requirements.filter((x) => x.met === false).length} failing` : '—',
      firstMeetingAll: r.experimentId === c.firstMeetingAll,
    })),
  };
}

function profileFields(p: HardwareProfile): [string, string][] {
  const out: [string, string][] = [];
  const add = (k: string, v: string | null | undefined) => { if (v) out.push([k, v]); };
  add('CPU', p.cpuModel);
  add('Cores / threads', p.cores !== null || p.threads !== null ? `${p.cores ?? '—'} / ${p.threads ?? '—'}` : null);
  add('Memory', p.memoryBytes !== null ? formatBytes(p.memoryBytes) : null);
  for (const d of p.disks) {
    const parts = [d.kind !== 'unknown' ? d.kind : '', d.sizeBytes !== null ? formatBytes(d.sizeBytes) : '',
      d.logicalSectorBytes !== null ? `${d.logicalSectorBytes}-byte sectors${d.physicalSectorBytes !== null && d.physicalSectorBytes !== d.logicalSectorBytes ? ` (${d.physicalSectorBytes} physical)` : ''}` : '',
      d.blockBytes !== null ? `${d.blockBytes}-byte blocks` : ''].filter(Boolean);
    add(`Disk ${d.name}`, parts.join(', ') || '—');
  }
  add('OS', p.os);
  add('Kernel', p.kernel);
  add('Cloud', p.cloud);
  add('Software', p.software);
  add('Notes', p.notes);
  return out;
}

/** ", line 9" or ", lines 5–25" */
function linesText(lines: readonly [number, number] | undefined): string {
  if (!lines) return '';
  return lines[0] === lines[1] ? `, line ${lines[0]}` : `, lines ${lines[0]}–${lines[1]}`;
}

function resultsOf(e: Experiment): StoryResult[] {
  return e.metrics.map((m) => ({
    name: m.name,
    label: metricInfo(m.name).label,
    value: formatQuantity(m.value, m.unit, m.name),
    primary: m.primary,
    source: m.source ? `${m.source.captureName}${linesText(m.source.lines)}` : null,
  }));
}

function changeOf(r: TimelineRow): string | null {
  const parts: string[] = [];
  if (r.stepNotComparable) parts.push('not comparable with the step before (other units)');
  else if (r.stepChangePercent !== null) parts.push(`${formatPercent(r.stepChangePercent)} on the step before`);
  if (!r.cumulativeNotComparable && r.cumulativeChangePercent !== null) parts.push(`${formatPercent(r.cumulativeChangePercent)} since the baseline`);
  return parts.length ? parts.join(', ') : null;
}

function verdictOf(r: TimelineRow, study: Study): string | null {
  if (!study.requirements.length) return null;
  if (r.status === 'planned') return 'not judged (planned)';
  if (r.meetsGoal === null) return 'measured none of the requirements';
  if (r.meetsGoal) return `meets every requirement it measured (${r.requirements.filter((q) => q.met).length} of ${study.requirements.length})`;
  return `misses ${study.requirements.filter((_, j) => r.requirements[j]?.met === false).map(requirementText).join('; ')}`;
}

export function buildStory(input: ReportInput): ReportStory {
  const { study, experiments } = input;
  const c = computeComparison(experiments, study.requirements);
  const profiles = new Map(input.profiles.map((p) => [p.id, p]));
  const used = [...new Set(experiments.map((e) => e.profileId).filter((x): x is number => x !== null))].map((id) => profiles.get(id)).filter((p): p is HardwareProfile => !!p);
  // static charts name every step: the SVG thins its labels itself
  const chain = chainChart(c, experiments, study.requirements, { categorical: true });
  const others = c.metrics.filter((m) => !m.primary && !(study.view.hiddenMetrics ?? []).includes(m.name))
    .map((m) => metricChart(c, m.name, experiments, study.requirements, { categorical: true }))
    .filter((x): x is ChartData => x !== null);
  return {
    title: study.title,
    goal: study.goal,
    generatedAt: input.generatedAt,
    appVersion: input.appVersion,
    scope: experiments.length < input.studyExperimentCount ? `${formatNumber(experiments.length)} of the study's ${formatNumber(input.studyExperimentCount)} experiments` : null,
    summary: summaryOf(c, study),
    verdicts: verdictsOf(c, study),
    profiles: used.map((p) => ({ name: p.name, fields: profileFields(p) })),
    mainMetric: mainMetric(c.rows),
    timeline: c.rows.map((r, i) => ({
      step: stepNo(i), title: r.title, status: r.status, value: value(r),
      stepChange: r.stepNotComparable ? 'not comparable' : formatPercent(r.stepChangePercent),
      cumulative: r.cumulativeNotComparable ? 'not comparable' : formatPercent(r.cumulativeChangePercent),
      share: r.shareOfGainPercent === null ? '—' : formatPercent(r.shareOfGainPercent).replace(/^\+/, ''),
      goal: goalText(r, study.requirements.length), inChain: r.inChain, anchor: anchorOf(i),
    })),
    charts: [...(chain ? [chain] : []), ...others],
    steps: experiments.map((e, i) => {
      const r = c.rows[i]!;
      const remarks: string[] = [];
      if (isSetApart(r)) remarks.push(`${STATUS_WORDS[r.status]}: set apart, not counted in the gain`);
      if (r.significant === false) remarks.push('the change lies within the spread of the repeated runs (within noise)');
      if (r.runs > 1 && r.spread) remarks.push(`median of ${r.runs} runs, ${formatQuantity(r.spread.min, r.unit ?? '', r.metric ?? undefined)}–${formatQuantity(r.spread.max, r.unit ?? '', r.metric ?? undefined)}`);
      return {
        step: stepNo(i), title: e.title, status: e.status, date: e.date,
        profile: e.profileId !== null ? profiles.get(e.profileId)?.name ?? null : null,
        notes: e.notes, changes: e.configChanges, results: resultsOf(e),
        change: changeOf(r), verdict: verdictOf(r, study), remarks,
        captures: e.captures.map((l) => input.captures.get(l.linkId)).filter((x): x is ReportCapture => !!x),
        anchor: anchorOf(i),
      };
    }),
  };
}
