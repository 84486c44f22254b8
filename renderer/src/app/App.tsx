import { useCallback, useEffect, useRef, useState } from 'react';
import type { RequestedAction, TunebookApi } from '../../../shared/api';
import { describeError } from '../api';
import { useQuery } from './useQuery';
import { studiesChanged } from './changes';
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
import { ShortcutsDialog } from '../features/help/ShortcutsDialog';
import { clearUndo, useUndo } from './undo';
import { shortcutText, useShortcuts } from './shortcuts';
import type { ShortcutId } from './shortcuts';

/** The window: top bar (notebook, search), sidebar (studies, profiles), and the current view. */
export function App() {
  return (
    <ImportProvider>
      <Window />
    </ImportProvider>
  );
}

function Window() {
  const { api, route, navigate, notebookOpened, invalidate } = useApp();
  const { reparseAll, compact, importBundle } = useImport();
  const { show } = useToasts();
  // File › Import Captures… (Electron): the chosen files wait here for a target experiment
  const [menuImport, setMenuImport] = useState<string[] | null>(null);
  // the study being exported (File › Export…, or the study's Export button)
  const [exporting, setExporting] = useState<number | null>(null);
  // Help › Keyboard shortcuts
  const [sheet, setSheet] = useState(false);
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
    else if (a.action === 'show-shortcuts') setSheet(true);
    else if (a.action === 'open-example') void openExample(api, show);
    else if (studyShown === null) show({ message: 'Open a study to export it.' });
    else setExporting(studyShown);
  }), [api, reparseAll, compact, openBundle, studyShown, show]);

  // Reload everything when the notebook changes (File › Open in Electron); data changes reload only
  // the views that show them (useQuery).
  useEffect(() => api.on('onDidChangeNotebook', () => { clearUndo(); notebookOpened(); invalidate(); }), [api, notebookOpened, invalidate]);

  // The keyboard shortcuts (app/shortcuts.ts: the same table the Keyboard shortcuts sheet lists).
  // Ctrl+Z (Cmd+Z on macOS) takes back this window's last change, except in a text field (there it
  // is the field's own typing undo) and while a dialog is open.
  const { undo } = useUndo();
  const runShortcut = useCallback((id: ShortcutId) => {
    const find = (selector: string) => document.querySelector<HTMLElement>(selector);
    const selected = route.name === 'study' || route.name === 'capture' ? route.experimentId ?? null : null;
    const inExperiment = (prefix: string) => (selected !== null ? find(`[data-focus-key="${prefix}:${selected}"]`) : null) ?? find(`[data-focus-key^="${prefix}:"]`);
    switch (id) {
      case 'new-experiment': {
        const field = find('[data-focus-key="add-experiment"]');
        if (field) field.focus();
        else show({ message: 'Open a study to add an experiment to it.', timeoutMs: 4000 });
        break;
      }
      case 'add-result': {
        const field = inExperiment('add-metric');
        if (field) field.focus();
        else show({ message: 'Select an experiment to add a result to it.', timeoutMs: 4000 });
        break;
      }
      case 'attach-captures': {
        const button = inExperiment('add-captures');
        if (button) { button.focus(); button.click(); }
        else show({ message: 'Select an experiment to attach captures to it.', timeoutMs: 4000 });
        break;
      }
      case 'compare':
        navigate({ name: 'compare', a: route.name === 'compare' ? route.a : selected, b: route.name === 'compare' ? route.b : null });
        break;
      case 'search': {
        const input = find('[data-focus-key="search"]');
        if (input instanceof HTMLInputElement) { input.focus(); input.select(); }
        break;
      }
      case 'undo':
        void undo();
        break;
      case 'back':
        window.history.back();
        break;
      case 'forward':
        window.history.forward();
        break;
      case 'shortcuts':
        setSheet(true);
        break;
    }
  }, [route, navigate, show, undo]);
  useShortcuts(runShortcut);

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
        <nav aria-label="Help" className="sidebar-section sidebar-help">
          <button type="button" className="nav-item" onClick={() => setSheet(true)} title={shortcutText('shortcuts')}>
            <span className="nav-title">Keyboard shortcuts</span>
            <span className="nav-meta" aria-hidden="true">?</span>
          </button>
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
      {sheet && <ShortcutsDialog onClose={() => setSheet(false)} />}
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

/** Open the example notebook (made the first time, in the app's own folder); the user's notebook is left as it is. */
async function openExample(api: TunebookApi, show: (t: { message: string }) => unknown): Promise<void> {
  try {
    await api.openExampleNotebook();
  } catch (e) {
    show({ message: `The example notebook could not be opened: ${describeError(e).message}` });
  }
}

function Home() {
  const [creating, setCreating] = useState(false);
  const { api } = useApp();
  const { show } = useToasts();
  const { data: studies } = useQuery('studies', (a) => a.listStudies(), { on: studiesChanged });
  return (
    <div className="view home">
      <h1>Tunebook</h1>
      <p>A lab notebook for performance tuning: record each experiment — the machine, what changed and why, and the result — and see how far you are from the goal.</p>
      <p><button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Create a study</button> or pick one on the left.</p>
      {studies !== undefined && studies.length === 0 && (
        <p>
          New to Tunebook? <button type="button" className="btn" onClick={() => void openExample(api, show)}>Open the example notebook</button>{' '}
          — three tuning stories told end to end, with their machines, changes, results and captures. It is a notebook of its own: yours stays as it is.
        </p>
      )}
      <p className="muted small">Keyboard: {shortcutText('search')} to search; Alt+↑ / Alt+↓ on an experiment to reorder; {shortcutText('undo')} outside a text field to undo the last change; {shortcutText('shortcuts')} for every shortcut.</p>
      {creating && <NewStudyDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
