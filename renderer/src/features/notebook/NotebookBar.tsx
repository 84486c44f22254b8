import { useState } from 'react';
import { useQuery } from '../../app/useQuery';
import { OpenNotebookDialog } from './OpenNotebookDialog';

/** The current notebook file and the Open notebook… command. */
export function NotebookBar() {
  const info = useQuery('notebookInfo', (api) => api.notebookInfo());
  const [open, setOpen] = useState(false);
  const path = info.data?.path ?? '';
  const name = path.split(/[\\/]/).pop() ?? path;
  return (
    <div className="notebook-bar">
      <span className="notebook-path" title={path} data-testid="notebook-path">
        {info.error ? <span className="error-text">{info.error}</span> : <>
          <span className="muted small">Notebook </span>{name || '…'}
        </>}
      </span>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)}>Open notebook…</button>
      {open && <OpenNotebookDialog currentPath={path} onClose={() => setOpen(false)} />}
    </div>
  );
}
