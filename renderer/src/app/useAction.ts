import { useCallback } from 'react';
import type { TunebookApi } from '../../../shared/api';
import { describeError } from '../api';
import { useToasts } from '../components/Toast/useToasts';
import { useApp } from './AppContext';

/**
 * Runs a write against the API: on success the data revision is bumped (every view reloads), on
 * failure the host's message is shown in an alert toast. Returns the result, or undefined on failure.
 */
export function useAction() {
  const { api, invalidate } = useApp();
  const { showError } = useToasts();
  return useCallback(
    async <T,>(fn: (api: TunebookApi) => Promise<T>, opts: { invalidate?: boolean } = {}): Promise<T | undefined> => {
      try {
        const result = await fn(api);
        if (opts.invalidate !== false) invalidate();
        return result;
      } catch (e) {
        showError(describeError(e).message);
        return undefined;
      }
    },
    [api, invalidate, showError],
  );
}
