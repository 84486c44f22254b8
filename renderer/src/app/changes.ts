/** Which of the back end's data changes touch what a query shows (useQuery's `on`). */
import type { DataChange } from '../../../shared/api';

/** data that no write changes (the notebook's path, the capture kinds): loaded again only when every view is */
export const never = (): boolean => false;
/** hardware profiles (changes to no study) */
export const profilesChanged = (c: DataChange): boolean => c.studyId === null;
/** anything in a study: the list of studies (titles, counts, last change), the experiment index */
export const studiesChanged = (c: DataChange): boolean => c.studyId !== null;
/** anything in this study */
export const studyChanged = (studyId: number | null) => (c: DataChange): boolean => c.studyId === studyId;
/** this experiment's own data, or its study as a whole (what an experiment's views show) */
export const experimentChanged = (experimentId: number | null, studyId?: number) => (c: DataChange): boolean =>
  c.experimentId === experimentId || (c.experimentId == null && (studyId === undefined ? c.studyId !== null : c.studyId === studyId));
