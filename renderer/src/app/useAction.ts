import { useCallback } from 'react';
import type { TunebookApi } from '../../../shared/api';
import { describeError } from '../api';
import { useToasts } from '../components/Toast/useToasts';
import { useApp } from './AppContext';

/**
 * Runs a write against the API; on failure the host's message is shown in an alert toast. Returns
 * the result, or undefined on failure. Views showing what it changed reload on the change the back
 * end announces once it is committed (useQuery), not here: once per write.
 */
export function useAction() {
  const { api } = useApp();
  const { showError } = useToasts();
  return useCallback(
    async <T,>(fn: (api: TunebookApi) => Promise<T>): Promise<T | undefined> => {
      try {
        return await fn(api);
      } catch (e) {
        showError(describeError(e).message);
        return undefined;
      }
    },
    [api, showError],
  );
}
