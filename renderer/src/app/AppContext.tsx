/**
 * App-wide state: the TunebookApi, a data revision that every query depends on (bumped after each
 * write and on back-end events), and the current route (no router: a notebook has a handful of views).
 */
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { TunebookApi } from '../../../shared/api';

export type Route =
  | { name: 'home' }
  | { name: 'study'; studyId: number; experimentId?: number | null }
  | { name: 'profiles'; profileId?: number | null }
  | { name: 'captures' }
  /** a stored capture, seen from one of its experiments; `line` opens the raw text there */
  | { name: 'capture'; captureId: number; experimentId: number | null; line?: number; tab?: CaptureTab }
  /** two experiments side by side (from any studies); null: not chosen yet */
  | { name: 'compare'; a: number | null; b: number | null };

export type CaptureTab = 'figures' | 'raw' | 'charts';

interface AppState {
  api: TunebookApi;
  revision: number;
  invalidate: () => void;
  route: Route;
  navigate: (route: Route) => void;
}

const AppContext = createContext<AppState | null>(null);

export function AppProvider({ api, children }: { api: TunebookApi; children: ReactNode }) {
  const [revision, setRevision] = useState(0);
  const [route, setRoute] = useState<Route>({ name: 'home' });
  const invalidate = useCallback(() => setRevision((r) => r + 1), []);
  const value = useMemo(() => ({ api, revision, invalidate, route, navigate: setRoute }), [api, revision, invalidate, route]);
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useApp(): AppState {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppProvider');
  return ctx;
}
