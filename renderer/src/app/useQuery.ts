import { useEffect, useRef, useState } from 'react';
import type { DataChange, TunebookApi } from '../../../shared/api';
import { describeError } from '../api';
import { useApp } from './AppContext';

export interface Query<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

export interface QueryOptions<T> {
  /** the data changes that make this query stale (default: all of them; `() => false`: none) */
  on?: (c: DataChange) => boolean;
  /**
   * Bring the data up to date for a change without loading all of it again: a promise of the
   * update to apply, or null to reload. If the promise fails, the query reloads.
   */
  patch?: (c: DataChange, api: TunebookApi) => Promise<(data: T) => T> | null;
}

/**
 * Loads `fetcher(api)`, and loads it again when `key` changes, on every view's reload (the app's
 * revision), and on the back end's data changes that `options.on` says touch it. The previous data
 * stays visible while a reload is in flight, so views do not flicker after each edit. Changes that
 * come while a load is in flight are answered by one more load once it is done (a burst of changes,
 * such as an import committing file after file, is never a burst of loads).
 */
export function useQuery<T>(key: string | null, fetcher: (api: TunebookApi) => Promise<T>, options: QueryOptions<T> = {}): Query<T> {
  const { api, revision, onDataChange } = useApp();
  const [state, setState] = useState<Query<T>>({ data: undefined, error: null, loading: key !== null });
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const lastKey = useRef(key);
  // bumped by a data change that needs a reload
  const [stale, setStale] = useState(0);
  const inFlight = useRef(false);
  const again = useRef(false);

  useEffect(() => {
    if (key === null) { setState({ data: undefined, error: null, loading: false }); return; }
    let live = true;
    const keyChanged = lastKey.current !== key;
    lastKey.current = key;
    setState((s) => ({ data: keyChanged ? undefined : s.data, error: null, loading: true }));
    inFlight.current = true;
    again.current = false;
    fetcherRef.current(api).then(
      (data) => { if (live) setState({ data, error: null, loading: false }); },
      (e) => { if (live) setState({ data: undefined, error: describeError(e).message, loading: false }); },
    ).finally(() => {
      if (!live) return;
      inFlight.current = false;
      if (again.current) setStale((n) => n + 1);
    });
    return () => { live = false; };
  }, [api, key, revision, stale]);

  useEffect(() => {
    if (key === null) return undefined;
    const reload = () => {
      if (inFlight.current) again.current = true;
      else setStale((n) => n + 1);
    };
    return onDataChange((c) => {
      const o = optionsRef.current;
      if (o.on && !o.on(c)) return;
      const update = inFlight.current ? null : o.patch?.(c, api);
      if (!update) { reload(); return; }
      update.then(
        (fn) => setState((s) => (s.data === undefined ? s : { ...s, data: fn(s.data) })),
        reload,
      );
    });
  }, [api, key, onDataChange]);

  return state;
}
