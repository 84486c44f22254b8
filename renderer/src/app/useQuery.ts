import { useEffect, useRef, useState } from 'react';
import type { TunebookApi } from '../../../shared/api';
import { describeError } from '../api';
import { useApp } from './AppContext';

export interface Query<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

/**
 * Loads `fetcher(api)` and reloads it whenever `key` or the app's data revision changes. The previous
 * data stays visible while a reload is in flight, so views do not flicker after each edit.
 */
export function useQuery<T>(key: string | null, fetcher: (api: TunebookApi) => Promise<T>): Query<T> {
  const { api, revision } = useApp();
  const [state, setState] = useState<Query<T>>({ data: undefined, error: null, loading: key !== null });
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const lastKey = useRef(key);

  useEffect(() => {
    if (key === null) { setState({ data: undefined, error: null, loading: false }); return; }
    let live = true;
    const keyChanged = lastKey.current !== key;
    lastKey.current = key;
    setState((s) => ({ data: keyChanged ? undefined : s.data, error: null, loading: true }));
    fetcherRef.current(api).then(
      (data) => { if (live) setState({ data, error: null, loading: false }); },
      (e) => { if (live) setState({ data: undefined, error: describeError(e).message, loading: false }); },
    );
    return () => { live = false; };
  }, [api, key, revision]);

  return state;
}
