/**
 * The study data views share, each kept up to date from the back end's change announcements:
 * a change to one experiment reloads that experiment only (patching the study's outline), a change
 * to the study as a whole (order, requirements, a new or deleted experiment) reloads the outline.
 */
import { patchOutline } from '../../../../shared/outline';
import { experimentChanged, studyChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';

export function useStudyOutline(studyId: number | null) {
  return useQuery(studyId === null ? null : `study:${studyId}`, (api) => api.studyOutline(studyId!), {
    on: studyChanged(studyId),
    patch: (c, api) => (typeof c.experimentId === 'number' ? api.getExperiment(c.experimentId).then((e) => (o) => patchOutline(o, e)) : null),
  });
}

/** The study's comparison (timeline, every metric, every requirement judged): reloaded on any change to the study. */
export function useStudyComparison(studyId: number) {
  return useQuery(`comparison:${studyId}`, (api) => api.comparison(studyId), { on: studyChanged(studyId) });
}

/** One experiment in full (notes, captures): reloaded when it changes, or its study as a whole does. */
export function useExperiment(experimentId: number | null, studyId: number) {
  return useQuery(experimentId === null ? null : `experiment:${experimentId}`, (api) => api.getExperiment(experimentId!), {
    on: experimentChanged(experimentId, studyId),
  });
}
