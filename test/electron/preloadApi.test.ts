import { describe, expect, it, vi } from 'vitest';
import type { IpcRendererEvent } from 'electron';
import { API_EVENTS, API_METHODS } from '../../shared/api';
import type { IpcRendererLike } from '../../electron/main/preloadApi';
import { buildPreloadApi, toEnvelope } from '../../electron/main/preloadApi';
import { resultOf } from '../../shared/envelope';
import { TunebookError } from '../../shared/api';

type Listener = (event: IpcRendererEvent, ...args: unknown[]) => void;

function fakeIpcRenderer(reply: (channel: string, args: unknown[]) => unknown = () => ({ ok: true, result: null })) {
  const invoked: [string, unknown[]][] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: IpcRendererLike & { invoked: typeof invoked; listeners: typeof listeners; fire(channel: string, payload: unknown): void } = {
    invoked,
    listeners,
    invoke: async (channel, ...args) => { invoked.push([channel, args]); return reply(channel, args); },
    on: (channel, fn) => { const s = listeners.get(channel) ?? new Set(); s.add(fn); listeners.set(channel, s); return ipc; },
    removeListener: (channel, fn) => { listeners.get(channel)?.delete(fn); return ipc; },
    fire(channel, payload) {
      const event = { sender: { secret: 'ipcRenderer' }, senderId: 0, ports: [] } as unknown as IpcRendererEvent;
      for (const fn of listeners.get(channel) ?? []) fn(event, payload);
    },
  };
  return ipc;
}

const webUtils = { getPathForFile: vi.fn((f: File) => `/home/u/${f.name}`) };

describe('buildPreloadApi', () => {
  it('has one function per API method and nothing raw', () => {
    const api = buildPreloadApi(fakeIpcRenderer(), webUtils);
    for (const m of API_METHODS) expect(typeof api[m], m).toBe('function');
    expect(Object.keys(api).sort()).toEqual([...API_METHODS, 'on', 'getPathForFile'].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('ipcRenderer');
  });

  it('each method invokes tunebook:<method> with its arguments and resolves to the envelope', async () => {
    const ipc = fakeIpcRenderer((channel, args) => ({ ok: true, result: { channel, args } }));
    const api = buildPreloadApi(ipc, webUtils);
    for (const m of API_METHODS) {
      const fn = api[m] as (...a: unknown[]) => Promise<unknown>;
      await expect(fn(1, 'two')).resolves.toEqual({ ok: true, result: { channel: `tunebook:${m}`, args: [1, 'two'] } });
    }
    expect(ipc.invoked.map(([c]) => c)).toEqual(API_METHODS.map((m) => `tunebook:${m}`));
    await expect(api.createStudy({ title: 'QPS' })).resolves.toMatchObject({ ok: true, result: { args: [{ title: 'QPS' }] } });
  });

  it('answers a failure as an envelope, which survives the bridge whole and reads back as the same TunebookError', async () => {
    const ipc = fakeIpcRenderer(() => ({ ok: false, error: { code: 'refused', message: 'notebook is newer\nupdate Tunebook' } }));
    const api = buildPreloadApi(ipc, webUtils);
    const env = await api.openNotebook('/x.tunebook', false);
    // contextBridge copies plain objects (structured clone), where an Error would keep only its message
    const crossed = structuredClone(env);
    let thrown: unknown;
    try { resultOf(crossed); } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(TunebookError);
    expect(thrown).toMatchObject({ code: 'refused', message: 'notebook is newer\nupdate Tunebook' });
  });

  it('never rejects: a malformed reply, or a call that reached no handler, is an internal failure', async () => {
    await expect(buildPreloadApi(fakeIpcRenderer(() => undefined), webUtils).listStudies()).resolves.toEqual({ ok: false, error: { code: 'internal', message: 'Malformed reply from the Tunebook main process' } });
    const noHandler = fakeIpcRenderer(() => { throw new Error("No handler registered for 'tunebook:listStudies'"); });
    await expect(buildPreloadApi(noHandler, webUtils).listStudies()).resolves.toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/No handler/) } });
  });

  it('on() subscribes to tunebook:event:<name> and passes only the payload', () => {
    const ipc = fakeIpcRenderer();
    const api = buildPreloadApi(ipc, webUtils);
    const seen: unknown[][] = [];
    const off = api.on('onDidChangeData', (...args: unknown[]) => { seen.push(args); });
    ipc.fire('tunebook:event:onDidChangeData', { studyId: 2 });
    expect(seen).toEqual([[{ studyId: 2 }]]);
    off();
    off(); // idempotent
    ipc.fire('tunebook:event:onDidChangeData', { studyId: 3 });
    expect(seen).toHaveLength(1);
    expect(ipc.listeners.get('tunebook:event:onDidChangeData')?.size).toBe(0);
  });

  it('on() accepts every contract event and rejects unknown ones', () => {
    const ipc = fakeIpcRenderer();
    const api = buildPreloadApi(ipc, webUtils);
    for (const e of API_EVENTS) expect(typeof api.on(e, () => {})).toBe('function');
    const onAny = api.on as (e: string, l: (p: unknown) => void) => () => void;
    for (const bad of ['ping', 'tunebook:event:onDidChangeData', '__proto__', 'toString', '']) {
      expect(() => onAny(bad, () => {}), bad).toThrow(/Unknown Tunebook event/);
    }
    expect(() => (api.on as (e: string, l: unknown) => unknown)('onDidChangeData', 'not a function')).toThrow(TypeError);
    expect([...ipc.listeners.keys()].sort()).toEqual(API_EVENTS.map((e) => `tunebook:event:${e}`).sort());
  });

  it('getPathForFile goes through webUtils', () => {
    const api = buildPreloadApi(fakeIpcRenderer(), webUtils);
    const f = new File(['x'], 'fio.txt');
    expect(api.getPathForFile(f)).toBe('/home/u/fio.txt');
    expect(webUtils.getPathForFile).toHaveBeenCalledWith(f);
  });
});

describe('toEnvelope', () => {
  it('passes the envelope on, parses the read worker\'s JSON text, and turns anything else into internal', () => {
    expect(toEnvelope({ ok: true, result: 5 })).toEqual({ ok: true, result: 5 });
    expect(toEnvelope({ ok: true, json: '{"a":[1]}' })).toEqual({ ok: true, result: { a: [1] } });
    expect(toEnvelope({ ok: false, error: { code: 'not-found', message: 'gone' } })).toEqual({ ok: false, error: { code: 'not-found', message: 'gone' } });
    expect(toEnvelope({ ok: false, error: { code: 'weird', message: 'm' } })).toEqual({ ok: false, error: { code: 'internal', message: 'm' } });
    expect(toEnvelope({ ok: true, json: '{broken' })).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(toEnvelope(null)).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/Malformed/) } });
  });
});
