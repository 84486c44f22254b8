import type { TunebookApi } from '../../../shared/api';

declare global {
  interface Window {
    /** exposed by the Electron preload (contextBridge); absent in browser mode */
    tunebook?: TunebookApi & {
      /** absolute path of a dropped or chosen File ('' when it has none); Electron only */
      getPathForFile?(file: File): string;
    };
  }
}
export {};
