/**
 * A study's outline (studyOutline): its experiments without their notes and captures. The renderer
 * keeps it up to date from one changed experiment (patchOutline) instead of loading the study again.
 */
import type { Experiment, ExperimentSummary, StudyOutline } from './model';

/** An experiment as the outline lists it. */
export function summarize({ notes: _notes, captures, createdAt: _c, updatedAt: _u, ...rest }: Experiment): ExperimentSummary {
  return { ...rest, captureCount: captures.length };
}

/** The outline with `e` (one of its experiments, as it is now) in place of what it listed; unchanged if it does not list it. */
export function patchOutline(outline: StudyOutline, e: Experiment): StudyOutline {
  const at = outline.experiments.findIndex((x) => x.id === e.id);
  if (at < 0 || e.studyId !== outline.study.id) return outline;
  const experiments = outline.experiments.slice();
  experiments[at] = { ...summarize(e), position: at };
  return { ...outline, experiments };
}
