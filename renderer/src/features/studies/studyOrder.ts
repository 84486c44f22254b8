/**
 * The order of the sidebar's studies: a stable one, chosen by the user and kept in the window's
 * localStorage. Editing a study never moves it, except under "Last edited" (asked for) and a
 * title change under "Title".
 */
import type { StudySummary } from '../../../../shared/model';

export type StudySort = 'created' | 'title' | 'edited';
export const STUDY_SORTS: readonly { id: StudySort; label: string }[] = [
  { id: 'created', label: 'Newest first' },
  { id: 'title', label: 'Title (A–Z)' },
  { id: 'edited', label: 'Last edited' },
];

const KEY = 'tunebook.studySort';

export function loadStudySort(): StudySort {
  try {
    const v = localStorage.getItem(KEY);
    return STUDY_SORTS.some((s) => s.id === v) ? (v as StudySort) : 'created';
  } catch {
    return 'created';
  }
}

export function saveStudySort(sort: StudySort): void {
  try { localStorage.setItem(KEY, sort); } catch { /* storage disabled: the choice lasts as long as the window */ }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Sorted copy. "created": newest first (a study imported from a bundle keeps the time it was
 * created); "title": A–Z, numbers by value; "edited": last edited first.
 */
export function sortStudies(list: readonly StudySummary[], sort: StudySort): StudySummary[] {
  const out = [...list];
  if (sort === 'title') out.sort((a, b) => collator.compare(a.title, b.title) || b.id - a.id);
  else if (sort === 'edited') out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  else out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  return out;
}
