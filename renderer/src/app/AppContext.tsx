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
}

const AppContext = createContext<AppState | null>(null);

export function AppProvider({ api, children }: { api: TunebookApi; children: ReactNode }) {
  const [revision, setRevision] = useState(0);
  // the route lives in the URL's fragment too (routeUrl.ts): Back, Forward and a reload find the same view
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  const current = useRef(route);
  const navigate = useCallback((next: Route) => {
    const hash = routeToHash(next);
    if (hash !== window.location.hash) {
      if (sameView(current.current, next)) window.history.replaceState(null, '', hash);
      else window.history.pushState(null, '', hash);
    }
    current.current = next;
    setRoute(next);
  }, []);
  useEffect(() => {
    const onPop = () => { const r = routeFromHash(window.location.hash); current.current = r; setRoute(r); };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
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
  const value = useMemo(() => ({ api, revision, invalidate, onDataChange, route, navigate }), [api, revision, invalidate, onDataChange, route, navigate]);
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useApp(): AppState {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppProvider');
  return ctx;
}
