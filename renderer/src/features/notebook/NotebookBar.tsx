import { useState } from 'react';
import { never } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { useImport } from '../evidence/useImport';
import { OpenNotebookDialog } from './OpenNotebookDialog';

/** The current notebook file, the Open notebook… command, and the notebook's upkeep (also in Electron's File menu). */
export function NotebookBar() {
  const { reparseAll, compact, busy } = useImport();
  const info = useQuery('notebookInfo', (api) => api.notebookInfo(), { on: never });
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
      <details className="menu">
        <summary className="btn btn-small" aria-label="Notebook upkeep">⋯</summary>
        <div className="menu-items" role="group" aria-label="Notebook upkeep">
          <button type="button" className="btn btn-small" disabled={busy} title="Parse every stored capture again with this version's parsers"
            onClick={(e) => { e.currentTarget.closest('details')?.removeAttribute('open'); void reparseAll(); }}>Re-parse all captures</button>
          <button type="button" className="btn btn-small" disabled={busy} title="Give the space of captures removed from the notebook back to the disk (empty the trash first to include the ones it holds)"
            onClick={(e) => { e.currentTarget.closest('details')?.removeAttribute('open'); void compact(); }}>Compact notebook</button>
        </div>
      </details>
      {open && <OpenNotebookDialog currentPath={path} onClose={() => setOpen(false)} />}
    </div>
  );
}
