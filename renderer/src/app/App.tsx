import { useCallback, useEffect, useRef, useState } from 'react';
import type { RequestedAction } from '../../../shared/api';
import { useApp } from './AppContext';
import { ErrorBoundary } from '../components/ErrorBoundary/ErrorBoundary';
import { CapturesView } from '../features/captures/CapturesView';
import { AttachDialog } from '../features/evidence/AttachDialog';
import { CaptureView } from '../features/evidence/CaptureView';
import { CompareView } from '../features/comparison/CompareView';
import { ImportProvider } from '../features/evidence/ImportProvider';
import { useImport } from '../features/evidence/useImport';
import { Datalists } from '../features/experiments/Datalists';
import { NotebookBar } from '../features/notebook/NotebookBar';
import { ProfilesView } from '../features/profiles/ProfilesView';
import { ExportDialog } from '../features/reports/ExportDialog';
import { useToasts } from '../components/Toast/useToasts';
import { SearchBox } from '../features/search/SearchBox';
import { NewStudyDialog } from '../features/studies/NewStudyDialog';
import { StudyList } from '../features/studies/StudyList';
import { StudyView } from '../features/studies/StudyView';
import { TrashNavItem, TrashView } from '../features/trash/TrashView';
import { IS_MAC, clearUndo, isUndoKey, ownsUndo, useUndo } from './undo';

/** The window: top bar (notebook, search), sidebar (studies, profiles), and the current view. */
export function App() {
  return (
    <ImportProvider>
      <Window />
    </ImportProvider>
  );
}

function Window() {
  const { api, route, navigate, invalidate } = useApp();
  const { reparseAll, compact, importBundle } = useImport();
  const { show } = useToasts();
  // File › Import Captures… (Electron): the chosen files wait here for a target experiment
  const [menuImport, setMenuImport] = useState<string[] | null>(null);
  // the study being exported (File › Export…, or the study's Export button)
  const [exporting, setExporting] = useState<number | null>(null);
  const studyShown = route.name === 'study' ? route.studyId : null;
  const openBundle = useCallback(async (source: { file: File } | { path: string }) => {
    const r = await importBundle(source);
    const first = r?.studies[0];
    if (first) navigate({ name: 'study', studyId: first.id });
  }, [importBundle, navigate]);
  useEffect(() => api.on('onDidRequestAction', (a: RequestedAction) => {
    if (a.action === 'import-captures') setMenuImport(a.paths);
    else if (a.action === 'reparse-captures') void reparseAll();
    else if (a.action === 'compact-notebook') void compact();
    else if (a.action === 'import-bundle') void openBundle({ path: a.path });
    else if (studyShown === null) show({ message: 'Open a study to export it.' });
    else setExporting(studyShown);
  }), [api, reparseAll, compact, openBundle, studyShown, show]);

  // Reload everything when the notebook changes (File › Open in Electron); data changes reload only
  // the views that show them (useQuery).
  useEffect(() => api.on('onDidChangeNotebook', () => { clearUndo(); navigate({ name: 'home' }); invalidate(); }), [api, navigate, invalidate]);

  // Ctrl+Z (Cmd+Z on macOS) takes back this window's last change, except in a text field (there it
  // is the field's own typing undo) and while a dialog is open.
  const { undo } = useUndo();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || !isUndoKey(e, IS_MAC)) return;
      if (ownsUndo(document.activeElement) || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      void undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo]);

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand" aria-hidden="true">Tunebook</span>
        <NotebookBar />
        <SearchBox />
      </header>
      <aside className="sidebar">
        <StudyList />
        <nav aria-label="Notebook" className="sidebar-section">
          <button
            type="button"
            className={`nav-item ${route.name === 'profiles' ? 'active' : ''}`}
            aria-current={route.name === 'profiles' ? 'page' : undefined}
            onClick={() => navigate({ name: 'profiles', profileId: null })}
          >
            Hardware profiles
          </button>
          <button
            type="button"
            className={`nav-item ${route.name === 'compare' ? 'active' : ''}`}
            aria-current={route.name === 'compare' ? 'page' : undefined}
            onClick={() => navigate({ name: 'compare', a: null, b: null })}
          >
            Side by side
          </button>
          <button
            type="button"
            className={`nav-item ${route.name === 'captures' ? 'active' : ''}`}
            aria-current={route.name === 'captures' ? 'page' : undefined}
            onClick={() => navigate({ name: 'captures' })}
          >
            Captures
          </button>
          <BundlePicker onPick={(file) => void openBundle({ file })} />
          <TrashNavItem active={route.name === 'trash'} onOpen={() => navigate({ name: 'trash' })} />
        </nav>
      </aside>
      <main className="main" id="main" tabIndex={-1}>
        <ErrorBoundary key={route.name === 'study' ? `study-${route.studyId}` : route.name}>
          {route.name === 'study' && <StudyView key={route.studyId} studyId={route.studyId} experimentId={route.experimentId ?? null} onExport={() => setExporting(route.studyId)} />}
          {route.name === 'profiles' && <ProfilesView profileId={route.profileId} />}
          {route.name === 'captures' && <CapturesView />}
          {route.name === 'capture' && (
            <CaptureView key={route.captureId} captureId={route.captureId} experimentId={route.experimentId} line={route.line ?? null} tab={route.tab ?? (route.line ? 'raw' : 'figures')} />
          )}
          {route.name === 'compare' && <CompareView a={route.a} b={route.b} />}
          {route.name === 'trash' && <TrashView />}
          {route.name === 'home' && <Home />}
        </ErrorBoundary>
      </main>
      <Datalists />
      {exporting !== null && <ExportDialog studyId={exporting} onClose={() => setExporting(null)} />}
      {menuImport && (
        <AttachDialog
          intakes={[{ paths: menuImport }]}
          what={menuImport.length === 1 ? (menuImport[0]!.split(/[\\/]/).pop() ?? 'a file') : `${menuImport.length} files`}
          studyId={route.name === 'study' ? route.studyId : null}
          experimentId={route.name === 'study' ? route.experimentId ?? null : route.name === 'capture' ? route.experimentId : null}
          onClose={() => setMenuImport(null)}
        />
      )}
    </div>
  );
}

/** "Import bundle…": choose a .eln file exported by Tunebook (its studies then open). */
function BundlePicker({ onPick }: { onPick: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="nav-item" onClick={() => input.current?.click()}>Import bundle…</button>
      <input
        ref={input} type="file" accept=".eln,.zip,application/zip" hidden aria-label="Bundle file"
        onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) onPick(f); }}
      />
    </>
  );
}

function Home() {
  const [creating, setCreating] = useState(false);
  return (
    <div className="view home">
      <h1>Tunebook</h1>
      <p>A lab notebook for performance tuning: record each experiment — the machine, what changed and why, and the result — and see how far you are from the goal.</p>
      <p><button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Create a study</button> or pick one on the left.</p>
      <p className="muted small">Keyboard: Ctrl+K or / to search; Alt+↑ / Alt+↓ on an experiment to reorder; Ctrl+Z (⌘Z on macOS) outside a text field to undo the last change.</p>
      {creating && <NewStudyDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
