import { useState } from 'react';
import type { FormEvent } from 'react';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { never } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { Dialog } from '../../components/Dialog/Dialog';

/**
 * Opens (or creates) a notebook file by path on the host, or one of the recent notebooks. In
 * Electron, File › Open / New does the same through the native dialog in the main process.
 */
export function OpenNotebookDialog({ currentPath, onClose }: { currentPath: string; onClose: () => void }) {
  const { navigate } = useApp();
  const run = useAction();
  const recent = useQuery('recentNotebooks', (api) => api.recentNotebooks(), { on: never });
  const [path, setPath] = useState('');
  const [create, setCreate] = useState(false);

  const open = async (p: string, c: boolean) => {
    const info = await run((api) => api.openNotebook(p, c));
    if (info) { navigate({ name: 'home' }); onClose(); }
  };
  const submit = (e: FormEvent) => { e.preventDefault(); if (path.trim()) void open(path.trim(), create); };

  return (
    <Dialog title="Open notebook" onClose={onClose} wide>
      <p className="small muted">Current: <span className="mono">{currentPath}</span></p>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Notebook file path</span>
          <input className="mono" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/tuning/health-check.tunebook" />
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} />
          <span>Create a new notebook if the file does not exist</span>
        </label>
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={!path.trim()}>{create ? 'Open or create' : 'Open'}</button>
        </div>
      </form>
      <h3 className="small-heading">Recent notebooks</h3>
      {recent.error && <p role="alert" className="error-text">{recent.error}</p>}
      {recent.data && recent.data.length === 0 && <p className="muted small">None yet.</p>}
      <ul className="recent-list">
        {(recent.data ?? []).map((p) => (
          <li key={p}>
            <button type="button" className="link-button mono" disabled={p === currentPath} onClick={() => void open(p, false)}>
              {p}{p === currentPath ? ' (open)' : ''}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
