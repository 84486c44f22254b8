import type { TunebookApi } from '../../../shared/api';

declare global {
  interface Window {
    /** exposed by the Electron preload (contextBridge); absent in browser mode */
    tunebook?: TunebookApi;
  }
}
export {};
