/**
 * The public JSON of a study (`tunebook show --json`), documented in the README. Scripts and checks
 * read it: fields are added, never renamed. Values are in base units (shared/units.ts); `unit` says
 * which. Pure: built from what the contract returns.
 */
import type { Finding, Labels } from './capture/types';
import type { Better, Comparator, ExperimentStatus, HardwareProfile, StudyDetail, TimelineRow } from './model';

export interface ShowStudyJson {
  id: number;
  title: string;
  goal: string;
  requirements: { metric: string; comparator: Comparator; threshold: number; unit: string; label: string }[];
  experiments: ShowExperimentJson[];
  timeline: ShowTimelineJson[];
}

export interface ShowExperimentJson {
  id: number;
  /** 0-based order in the study (0 = the baseline) */
  position: number;
  title: string;
  status: ExperimentStatus;
  date: string;
  profile: { id: number; name: string } | null;
  notes: string;
  configChanges: { scope: string; key: string; before: string; after: string; why: string }[];
  results: {
    name: string; value: number; unit: string; better: Better; primary: boolean;
    /** the capture figure the result was taken from; id is null once the capture was removed */
    capture: { id: number | null; name: string; metric: string; labels?: Labels; lines?: [number, number] } | null;
  }[];
  captures: { id: number; name: string; kind: string; sha256: string; bytes: number; lines: number; note: string; findings: Finding[] }[];
}

export interface ShowTimelineJson {
  experimentId: number;
  position: number;
  title: string;
  status: ExperimentStatus;
  metric: string | null;
  value: number | null;
  unit: string | null;
  /** percent change from the previous kept step, and from the baseline (null when there is nothing to compare) */
  stepChangePercent: number | null;
  cumulativeChangePercent: number | null;
  /** true when the previous value (or the baseline's) is in a unit that cannot be compared with this one */
  stepNotComparable: boolean;
  cumulativeNotComparable: boolean;
  /** a kept, measured step (failed, reverted and planned steps are set apart) */
  inChain: boolean;
  /** results of the primary metric (repeated runs: `value` is their median, `spread` their range) */
  runs: number;
  spread: { min: number; max: number } | null;
  shareOfGainPercent: number | null;
  significant: boolean | null;
  /** every requirement of the study on this experiment; `value` in the requirement's unit, `met` null where not measured */
  requirements: { metric: string; comparator: Comparator; threshold: number; unit: string; value: number | null; met: boolean | null }[];
  /** every requirement the experiment measured is met (null: none measured, or planned) */
  meetsGoal: boolean | null;
}

export function showStudyJson(detail: StudyDetail, timeline: readonly TimelineRow[], profiles: readonly HardwareProfile[]): ShowStudyJson {
  const { study, experiments } = detail;
  return {
    id: study.id,
    title: study.title,
    goal: study.goal,
    requirements: study.requirements.map(({ metric, comparator, threshold, unit, label }) => ({ metric, comparator, threshold, unit, label })),
    experiments: experiments.map((e) => {
      const p = e.profileId === null ? undefined : profiles.find((x) => x.id === e.profileId);
      return {
        id: e.id, position: e.position, title: e.title, status: e.status, date: e.date,
        profile: p ? { id: p.id, name: p.name } : null,
        notes: e.notes,
        configChanges: e.configChanges.map(({ scope, key, before, after, why }) => ({ scope, key, before, after, why })),
        results: e.metrics.map((m) => ({
          name: m.name, value: m.value, unit: m.unit, better: m.better, primary: m.primary,
          capture: m.source ? {
            id: m.source.captureId, name: m.source.captureName, metric: m.source.metric,
            ...(m.source.labels ? { labels: m.source.labels } : {}), ...(m.source.lines ? { lines: m.source.lines } : {}),
          } : null,
        })),
        captures: e.captures.map((c) => ({
          id: c.captureId, name: c.name, kind: c.kind, sha256: c.sha256, bytes: c.bytes, lines: c.lines, note: c.note, findings: c.findings,
        })),
      };
    }),
    timeline: timeline.map((r) => ({
      experimentId: r.experimentId, position: r.position, title: r.title, status: r.status, metric: r.metric, value: r.value, unit: r.unit,
      stepChangePercent: r.stepChangePercent, cumulativeChangePercent: r.cumulativeChangePercent,
      stepNotComparable: r.stepNotComparable, cumulativeNotComparable: r.cumulativeNotComparable,
      inChain: r.inChain, runs: r.runs, spread: r.spread, shareOfGainPercent: r.shareOfGainPercent, significant: r.significant,
      requirements: r.requirements.map(({ metric, comparator, threshold, unit, value, met }) => ({ metric, comparator, threshold, unit, value, met })),
      meetsGoal: r.meetsGoal,
    })),
  };
}
