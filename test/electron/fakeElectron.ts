/**
 * A small stand-in for the `electron` module, enough for main.ts to start under vitest (no
 * Electron binary here). Tests use it as `vi.mock('electron', async () => (await import('./fakeElectron')).fakeElectron(state))`
 * (hoisted) factory and keeping the state in a `vi.hoisted` holder.
 */
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

type Fn = (...args: unknown[]) => unknown;

export interface FakeWindow { opts: Record<string, unknown>; url?: string; title?: string; webContents: Record<string, unknown> }

export function newFakeState() {
  return {
    appListeners: new Map<string, Fn[]>(),
    paths: new Map<string, string>(),
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, Fn>(),
    ipcHandlers: new Map<string, Fn>(),
    windows: [] as FakeWindow[],
    sandboxEnabled: false,
    sessionHooks: {} as Record<string, Fn>,
    menus: [] as unknown[],
    opened: [] as string[],
    errorBoxes: [] as [string, string][],
    exitCodes: [] as number[],
  };
}

export type FakeState = ReturnType<typeof newFakeState>;

export function fakeElectron(h: FakeState) {
  const app = {
    isPackaged: false,
    setName: vi.fn(),
    setPath: (k: string, v: string) => { h.paths.set(k, v); },
    getPath: (k: string) => h.paths.get(k) ?? path.join(os.tmpdir(), k),
    getVersion: () => '0.1.0',
    enableSandbox: () => { h.sandboxEnabled = true; },
    requestSingleInstanceLock: () => true,
    on: (e: string, fn: Fn) => { h.appListeners.set(e, [...(h.appListeners.get(e) ?? []), fn]); return app; },
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
    exit: (code: number) => { h.exitCodes.push(code); },
    addRecentDocument: vi.fn(),
  };
  class BrowserWindow {
    webContents: Record<string, unknown>;
    private rec: FakeWindow;
    constructor(opts: Record<string, unknown>) {
      this.webContents = { id: 1, mainFrame: { frameTreeNodeId: 1 }, isDestroyed: () => false, send: vi.fn() };
      this.rec = { opts, webContents: this.webContents, title: opts.title as string };
      h.windows.push(this.rec);
    }
    static getAllWindows() { return h.windows; }
    loadURL(url: string) { this.rec.url = url; return Promise.resolve(); }
    once() { return this; }
    on() { return this; }
    isDestroyed() { return false; }
    setTitle(t: string) { this.rec.title = t; }
    setBackgroundColor(c: string) { this.rec.opts = { ...this.rec.opts, backgroundColor: c }; }
  }
  const session = {
    defaultSession: {
      setPermissionRequestHandler: (fn: Fn) => { h.sessionHooks.permissionRequest = fn; },
      setPermissionCheckHandler: (fn: Fn) => { h.sessionHooks.permissionCheck = fn; },
      setDevicePermissionHandler: (fn: Fn) => { h.sessionHooks.device = fn; },
      webRequest: {
        onBeforeRequest: (fn: Fn) => { h.sessionHooks.beforeRequest = fn; },
        onHeadersReceived: (fn: Fn) => { h.sessionHooks.headersReceived = fn; },
      },
    },
  };
  return {
    app,
    BrowserWindow,
    session,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => { h.menus.push(m); } },
    dialog: {
      showErrorBox: (title: string, content: string) => { h.errorBoxes.push([title, content]); },
      showMessageBox: vi.fn(), showOpenDialog: vi.fn(), showSaveDialog: vi.fn(),
    },
    ipcMain: { handle: (c: string, fn: Fn) => { h.ipcHandlers.set(c, fn); }, removeHandler: (c: string) => { h.ipcHandlers.delete(c); } },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => { h.schemes.push(...s); },
      handle: (scheme: string, fn: Fn) => { h.protocolHandlers.set(scheme, fn); },
    },
    shell: { openExternal: (u: string) => { h.opened.push(u); return Promise.resolve(); } },
    nativeTheme: { shouldUseDarkColors: false, on: vi.fn(), off: vi.fn() },
  };
}
