/**
 * Sandboxed preload (bundled to dist/electron/preload.cjs; only `electron` is required at run time).
 * Exposes one frozen object of named functions as `window.tunebook` — never ipcRenderer itself,
 * never an IpcRendererEvent (security checklist item 20).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { buildPreloadApi } from './preloadApi';

contextBridge.exposeInMainWorld('tunebook', buildPreloadApi(ipcRenderer, webUtils));
