/**
 * App-wide state: the TunebookApi, the data changes the back end announces (each view's query
 * refetches only for the changes that touch what it shows: useQuery), a revision that reloads every
 * view (another notebook, a change to all of it), and the current route (no router: a notebook has
 * a handful of views; the route is kept in the URL's fragment, routeUrl.ts).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { DataChange, TunebookApi } from '../../../shared/api';
import { routeFromHash, routeToHash, sameView } from './routeUrl';

export type Route =
  | { name: 'home' }
  | { name: 'study'; studyId: number; experimentId?: number | null }
  | { name: 'profiles'; profileId?: number | null }
  | { name: 'captures' }
  /** a stored capture, seen from one of its experiments; `line` opens the raw text there */
  | { name: 'capture'; captureId: number; experimentId: number | null; line?: number; tab?: CaptureTab }
  /** two experiments side by side (from any studies); null: not chosen yet */
  | { name: 'compare'; a: number | null; b: number | null }
  /** what was deleted: restore it, or delete it for good */
  | { name: 'trash' };

export type CaptureTab = 'figures' | 'raw' | 'charts';

interface AppState {
  api: TunebookApi;
  /** bumped when every view must reload */
  revision: number;
  /** reload every view */
  invalidate: () => void;
  /**
   * Listen to the back end's data changes (any client's writes, this window's own included: a
   * write's result is never reloaded twice, once after the call and again on its echo).
   */
  onDataChange: (fn: (c: DataChange) => void) => () => void;
  route: Route;
  navigate: (route: Route) => void;
  /** another notebook is open: its start page, and Back no longer reaches the views of the one before */
  notebookOpened: () => void;
}

/** the notebook a history entry was made in (undefined: an entry of no notebook, such as an address typed) */
function entryNotebook(state: unknown): string | undefined {
  const n = typeof state === 'object' && state !== null ? (state as { notebook?: unknown }).notebook : undefined;
  return typeof n === 'string' ? n : undefined;
}

const newNotebookId = (): string => Math.random().toString(36).slice(2, 10);

const AppContext = createContext<AppState | null>(null);

export function AppProvider({ api, children }: { api: TunebookApi; children: ReactNode }) {
  const [revision, setRevision] = useState(0);
  // the route lives in the URL's fragment too (routeUrl.ts): Back, Forward and a reload find the same view
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  const current = useRef(route);
  // each history entry says which notebook it was made in (an id per notebook opened in this window,
  // kept across a reload by the entry itself), so that Back after File › Open never shows the ids of
  // the notebook before as if they were this one's
  const notebook = useRef<string>(entryNotebook(window.history.state) ?? newNotebookId());
  useEffect(() => { window.history.replaceState({ notebook: notebook.current }, ''); }, []);
  const show = useCallback((r: Route) => { current.current = r; setRoute(r); }, []);
  const navigate = useCallback((next: Route) => {
    const hash = routeToHash(next);
    if (hash !== window.location.hash) {
      if (sameView(current.current, next)) window.history.replaceState({ notebook: notebook.current }, '', hash);
      else window.history.pushState({ notebook: notebook.current }, '', hash);
    }
    show(next);
  }, [show]);
  const notebookOpened = useCallback(() => {
    notebook.current = newNotebookId();
    navigate({ name: 'home' });
  }, [navigate]);
  useEffect(() => {
    const onPop = (e: PopStateEvent) => {
      const from = entryNotebook(e.state);
      // an entry of another notebook: its view is not this notebook's (an address typed or a link followed has no notebook)
      if (from !== undefined && from !== notebook.current) {
        window.history.replaceState({ notebook: notebook.current }, '', routeToHash({ name: 'home' }));
        show({ name: 'home' });
      } else show(routeFromHash(window.location.hash));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [show]);
  const invalidate = useCallback(() => setRevision((r) => r + 1), []);
  const listeners = useRef(new Set<(c: DataChange) => void>());
  const onDataChange = useCallback((fn: (c: DataChange) => void) => {
    listeners.current.add(fn);
    return () => { listeners.current.delete(fn); };
  }, []);
  useEffect(() => api.on('onDidChangeData', (c) => {
    if (c.all) invalidate();
    else for (const fn of [...listeners.current]) fn(c);
  }), [api, invalidate]);
  const value = useMemo(() => ({ api, revision, invalidate, onDataChange, route, navigate, notebookOpened }), [api, revision, invalidate, onDataChange, route, navigate, notebookOpened]);
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useApp(): AppState {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppProvider');
  return ctx;
}
