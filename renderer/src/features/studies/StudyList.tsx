import { formatNumber } from '../../../../shared/units';
import { useState } from 'react';
import { useApp } from '../../app/AppContext';
import { studiesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { NewStudyDialog } from './NewStudyDialog';

/** Sidebar: the notebook's studies, newest edit first, and the New study command. */
export function StudyList() {
  const { route, navigate } = useApp();
  const studies = useQuery('studies', (api) => api.listStudies(), { on: studiesChanged });
  const [creating, setCreating] = useState(false);
  const current = route.name === 'study' ? route.studyId : null;
  const list = [...(studies.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);

  return (
    <nav className="study-list" aria-label="Studies">
      <div className="sidebar-heading">
        <h2>Studies</h2>
        <button type="button" className="btn btn-small" onClick={() => setCreating(true)}>New study</button>
      </div>
      {studies.error && <p role="alert" className="error-text">{studies.error}</p>}
      {studies.data && list.length === 0 && <p className="muted small">No studies yet.</p>}
      <ul className="nav-list">
        {list.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className={`nav-item ${current === s.id ? 'active' : ''}`}
              aria-current={current === s.id ? 'page' : undefined}
              onClick={() => navigate({ name: 'study', studyId: s.id })}
            >
              <span className="nav-title">{s.title}</span>
              <span className="nav-meta">{formatNumber(s.experimentCount)} exp.</span>
            </button>
          </li>
        ))}
      </ul>
      {creating && <NewStudyDialog onClose={() => setCreating(false)} />}
    </nav>
  );
}
