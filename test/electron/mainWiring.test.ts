/**
 * main.ts wired to a fake `electron` module: checks the window's webPreferences, the privileged
 * scheme, the protocol and IPC registration, the session hooks and the web-contents policy —
 * what can be checked without an Electron binary. Uses the real Backend on a temp notebook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_METHODS } from '../../shared/api';
import type { FakeState } from './fakeElectron';

type Fn = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => ({ state: undefined as unknown as FakeState }));

vi.mock('electron', async () => {
  const { fakeElectron, newFakeState } = await import('./fakeElectron');
  h.state = newFakeState();
  return fakeElectron(h.state);
});

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tunebook-main-'));
  vi.stubEnv('TUNEBOOK_USER_DATA', path.join(dir, 'userData'));
  vi.stubEnv('TUNEBOOK_NOTEBOOK', path.join(dir, 'e2e.tunebook'));
  await import('../../electron/main/main');
  // let app.whenReady().then(start) run
  for (let i = 0; i < 20 && h.state.windows.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
});

afterAll(() => {
  for (const fn of h.state.appListeners.get('will-quit') ?? []) fn();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe('main.ts wiring', () => {
  it('uses TUNEBOOK_USER_DATA and enables the sandbox before ready', () => {
    expect(h.state.paths.get('userData')).toBe(path.join(dir, 'userData'));
    expect(h.state.sandboxEnabled).toBe(true);
  });

  it('registers tunebook: as a standard, secure scheme without bypassing CSP', () => {
    expect(h.state.schemes).toEqual([expect.objectContaining({ scheme: 'tunebook', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    const priv = (h.state.schemes[0] as { privileges: Record<string, unknown> }).privileges;
    expect(priv.bypassCSP).toBeFalsy();
    expect(h.state.protocolHandlers.has('tunebook')).toBe(true);
  });

  it('opens one hardened window on tunebook://app/index.html, titled with the notebook', () => {
    expect(h.state.windows).toHaveLength(1);
    const w = h.state.windows[0]!;
    expect(w.url).toBe('tunebook://app/index.html');
    expect(w.title).toBe('e2e.tunebook — Tunebook');
    expect(w.opts.backgroundColor).toBe('#fbfbf9'); // the page's light --bg (the fake system is light)
    const wp = w.opts.webPreferences as Record<string, unknown>;
    expect(wp).toMatchObject({
      contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false,
      experimentalFeatures: false, webviewTag: false, navigateOnDragDrop: false,
    });
    expect(wp.preload).toMatch(/dist[\\/]electron[\\/]preload\.cjs$|[\\/]preload\.cjs$/);
    expect(wp).not.toHaveProperty('enableBlinkFeatures');
  });

  it('registers every API method on IPC, answering trusted frames through the real Backend', async () => {
    expect([...h.state.ipcHandlers.keys()].sort()).toEqual(API_METHODS.map((m) => `tunebook:${m}`).sort());
    const event = { sender: { id: 1 }, senderFrame: { url: 'tunebook://app/index.html', parent: null, frameTreeNodeId: 1 } };
    const info = await h.state.ipcHandlers.get('tunebook:notebookInfo')!(event);
    expect(info).toMatchObject({ ok: true, result: { path: path.join(dir, 'e2e.tunebook') } });
    const bad = await h.state.ipcHandlers.get('tunebook:listStudies')!({ ...event, senderFrame: { ...event.senderFrame, url: 'https://evil.com/' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'refused' } });
    const notFound = await h.state.ipcHandlers.get('tunebook:updateStudy')!(event, 12345, { title: 'x' });
    expect(notFound).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('hardens the session: permissions, remote requests, CSP header', () => {
    const cb = vi.fn();
    h.state.sessionHooks.permissionRequest!(null, 'media', cb, { requestingUrl: 'tunebook://app/index.html' });
    expect(cb).toHaveBeenCalledWith(false);
    expect(h.state.sessionHooks.device!()).toBe(false);
    const req = vi.fn();
    h.state.sessionHooks.beforeRequest!({ url: 'https://cdn.example.com/x.js' }, req);
    expect(req).toHaveBeenCalledWith({ cancel: true });
    const hdr = vi.fn();
    h.state.sessionHooks.headersReceived!({ url: 'tunebook://app/index.html', responseHeaders: {} }, hdr);
    expect(hdr.mock.calls[0]?.[0]).toMatchObject({ responseHeaders: { 'Content-Security-Policy': [expect.stringContaining("script-src 'self'")] } });
  });

  it('applies the navigation and window-open policy to every web contents', () => {
    const listeners = new Map<string, Fn>();
    let openHandler: Fn | undefined;
    const contents = {
      on: (e: string, fn: Fn) => { listeners.set(e, fn); },
      setWindowOpenHandler: (fn: Fn) => { openHandler = fn; },
    };
    for (const fn of h.state.appListeners.get('web-contents-created') ?? []) fn({}, contents);
    expect(openHandler?.({ url: 'https://evil.com/' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: 'https://github.com/x' })).toEqual({ action: 'deny' });
    expect(h.state.opened).toEqual(['https://github.com/x']);

    const nav = (url: string) => { const e = { url, preventDefault: vi.fn() }; listeners.get('will-navigate')!(e); return e.preventDefault.mock.calls.length > 0; };
    expect(nav('https://evil.com/')).toBe(true);
    expect(nav('file:///etc/passwd')).toBe(true);
    expect(nav('tunebook://app/index.html')).toBe(false);
    const webview = { preventDefault: vi.fn() };
    listeners.get('will-attach-webview')!(webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('builds the application menu with File › New, Open and Open Recent', () => {
    const menu = h.state.menus.at(-1) as { label?: string; submenu?: { label?: string }[] }[];
    const file = menu.find((m) => m.label === '&File');
    expect(file?.submenu?.map((i) => i.label)).toEqual(expect.arrayContaining(['New Notebook…', 'Open Notebook…', 'Open Recent']));
  });
});
