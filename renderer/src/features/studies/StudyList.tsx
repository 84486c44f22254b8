import { formatNumber } from '../../../../shared/units';
import { useState } from 'react';
import { useApp } from '../../app/AppContext';
import { studiesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { NewStudyDialog } from './NewStudyDialog';
import { STUDY_SORTS, loadStudySort, saveStudySort, sortStudies } from './studyOrder';
import type { StudySort } from './studyOrder';

/** Sidebar: the notebook's studies in a stable order of the user's choice, and the New study command. */
export function StudyList() {
  const { route, navigate } = useApp();
  const studies = useQuery('studies', (api) => api.listStudies(), { on: studiesChanged });
  const [creating, setCreating] = useState(false);
  const [sort, setSort] = useState<StudySort>(loadStudySort);
  const current = route.name === 'study' ? route.studyId : null;
  const list = sortStudies(studies.data ?? [], sort);

  return (
    <nav className="study-list" aria-label="Studies">
      <div className="sidebar-heading">
        <h2>Studies</h2>
        <button type="button" className="btn btn-small" data-focus-key="new-study" onClick={() => setCreating(true)}>New study</button>
      </div>
      {list.length > 1 && (
        <label className="study-sort small muted">
          <span>Sort</span>
          <select aria-label="Sort studies" value={sort} onChange={(e) => { const s = e.target.value as StudySort; setSort(s); saveStudySort(s); }}>
            {STUDY_SORTS.map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}
          </select>
        </label>
      )}
      {studies.error && <p role="alert" className="error-text">{studies.error}</p>}
      {studies.data && list.length === 0 && <p className="muted small">No studies yet.</p>}
      <ul className="nav-list">
        {list.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className={`nav-item ${current === s.id ? 'active' : ''}`}
              aria-current={current === s.id ? 'page' : undefined}
              data-focus-key={`study:${s.id}`}
              data-focus-group="studies"
              onClick={() => navigate({ name: 'study', studyId: s.id })}
            >
              <span className="nav-title" title={s.title}>{s.title}</span>
              <span className="nav-meta">{formatNumber(s.experimentCount)} exp.</span>
            </button>
          </li>
        ))}
      </ul>
      {creating && <NewStudyDialog onClose={() => setCreating(false)} />}
    </nav>
  );
}
