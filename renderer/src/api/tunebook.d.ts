import type { BridgeApi } from '../../../shared/envelope';

declare global {
  interface Window {
    /** exposed by the Electron preload (contextBridge): methods answer with the API's envelope; absent in browser mode */
    tunebook?: BridgeApi<File>;
  }
}
export {};
