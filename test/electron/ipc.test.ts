import { describe, expect, it, vi } from 'vitest';
import type { ApiEvents, ApiMethodName } from '../../shared/api';
import { API_EVENTS, API_METHODS, TunebookError } from '../../shared/api';
import type { AppWebContentsLike, BackendLike, InvokeEventLike } from '../../electron/main/ipc';
import { JsonText } from '../../electron/services/workerReads';
import { toEnvelope } from '../../electron/main/preloadApi';
import { forwardEvents, handleInvoke, isTrustedSender, registerApiHandlers } from '../../electron/main/ipc';
import { failureOf, resultOf } from '../../shared/envelope';

const MAIN_FRAME_ID = 7;

function fakeWebContents(over: Partial<AppWebContentsLike> = {}): AppWebContentsLike & { sent: [string, unknown[]][] } {
  const sent: [string, unknown[]][] = [];
  return {
    id: 1,
    mainFrame: { frameTreeNodeId: MAIN_FRAME_ID },
    isDestroyed: () => false,
    send: (channel: string, ...args: unknown[]) => { sent.push([channel, args]); },
    sent,
    ...over,
  };
}

function goodEvent(over: Partial<InvokeEventLike['senderFrame'] & object> = {}, senderId = 1): InvokeEventLike {
  return { sender: { id: senderId }, senderFrame: { url: 'tunebook://app/index.html', parent: null, frameTreeNodeId: MAIN_FRAME_ID, ...over } };
}

class FakeBackend implements BackendLike {
  calls: [ApiMethodName, unknown[]][] = [];
  listeners = new Map<string, Set<(p: unknown) => void>>();
  impl: (m: ApiMethodName, a: unknown[]) => unknown = (m) => ({ method: m });
  call(method: ApiMethodName, args: unknown[]): unknown {
    this.calls.push([method, args]);
    return this.impl(method, args);
  }
  on<E extends keyof ApiEvents>(event: E, fn: (payload: ApiEvents[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(fn as (p: unknown) => void);
    this.listeners.set(event, set);
    return () => set.delete(fn as (p: unknown) => void);
  }
  emit(event: keyof ApiEvents, payload: unknown): void {
    for (const fn of this.listeners.get(event) ?? []) fn(payload);
  }
}

describe('isTrustedSender', () => {
  const wc = fakeWebContents();
  const get = () => wc;

  it('accepts the main frame of our window showing the app', () => {
    expect(isTrustedSender(goodEvent(), get)).toBe(true);
    expect(isTrustedSender(goodEvent({ url: 'tunebook://app/#/studies/1' }), get)).toBe(true);
  });

  it('refuses other origins, sub-frames, other windows and gone frames', () => {
    expect(isTrustedSender(goodEvent({ url: 'https://evil.com/' }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({ url: 'file:///tmp/x.html' }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({ url: 'tunebook://app.evil/' }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({ url: 'tunebookx://app/' }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({ parent: {} }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({ frameTreeNodeId: 99 }), get)).toBe(false);
    expect(isTrustedSender(goodEvent({}, 2), get)).toBe(false);
    expect(isTrustedSender({ sender: { id: 1 }, senderFrame: null }, get)).toBe(false);
    expect(isTrustedSender(goodEvent(), () => null)).toBe(false);
    expect(isTrustedSender(goodEvent(), () => fakeWebContents({ isDestroyed: () => true }))).toBe(false);
  });
});

describe('the envelope (shared/envelope.ts)', () => {
  const error = (e: unknown) => failureOf(e).error;
  it('keeps code and message of TunebookError', () => {
    expect(failureOf(new TunebookError('not-found', 'no study 3'))).toEqual({ ok: false, error: { code: 'not-found', message: 'no study 3' } });
  });
  it('recognizes a TunebookError from another copy of the class, but not a code outside the contract', () => {
    const e = Object.assign(new Error('newer notebook'), { name: 'TunebookError', code: 'refused' });
    expect(error(e)).toEqual({ code: 'refused', message: 'newer notebook' });
    expect(error(Object.assign(new Error('x'), { name: 'TunebookError', code: 'unauthorized' })).code).toBe('internal');
  });
  it('turns anything else into internal', () => {
    expect(error(new RangeError('boom'))).toEqual({ code: 'internal', message: 'Internal error: boom' });
    expect(error('str')).toEqual({ code: 'internal', message: 'Internal error: str' });
  });
  it('reads back what it wrote: the result, or the same TunebookError', () => {
    expect(resultOf({ ok: true, result: [1, 2] })).toEqual([1, 2]);
    for (const e of [new TunebookError('conflict', 'busy'), new TunebookError('cancelled', 'stopped'), new SyntaxError('bad')]) {
      let thrown: unknown;
      try { resultOf(JSON.parse(JSON.stringify(failureOf(e)))); } catch (x) { thrown = x; }
      expect(thrown).toBeInstanceOf(TunebookError);
      expect(failureOf(thrown)).toEqual(failureOf(e));
    }
    expect(() => resultOf({ result: 1 })).toThrow(/Malformed reply/);
    expect(() => resultOf({ ok: false, error: { code: 'teapot', message: 'm' } })).toThrow(expect.objectContaining({ code: 'internal', message: 'm' }));
  });
});

describe('handleInvoke', () => {
  const wc = fakeWebContents();
  const deps = (backend: BackendLike) => ({ backend, getWebContents: () => wc, log: vi.fn() });

  it('calls the backend and wraps the result', async () => {
    const b = new FakeBackend();
    const env = await handleInvoke('tunebook:getStudy', goodEvent(), [3], deps(b));
    expect(env).toEqual({ ok: true, result: { method: 'getStudy' } });
    expect(b.calls).toEqual([['getStudy', [3]]]);
  });

  it('passes a result the read worker serialised on as its JSON text (the preload parses it)', async () => {
    const b = new FakeBackend();
    b.impl = () => Promise.resolve(new JsonText('{"study":{"id":3},"experiments":[]}'));
    const env = await handleInvoke('tunebook:studyOutline', goodEvent(), [3], deps(b));
    expect(env).toEqual({ ok: true, json: '{"study":{"id":3},"experiments":[]}' });
    expect(toEnvelope(structuredClone(env))).toEqual({ ok: true, result: { study: { id: 3 }, experiments: [] } });
  });

  it('wraps TunebookError as { ok: false, error: { code, message } }', async () => {
    const b = new FakeBackend();
    b.impl = () => { throw new TunebookError('refused', 'notebook is newer (schema 9, this app knows 3)'); };
    const d = deps(b);
    const env = await handleInvoke('tunebook:openNotebook', goodEvent(), ['/x.tunebook', false], d);
    expect(env).toEqual({ ok: false, error: { code: 'refused', message: 'notebook is newer (schema 9, this app knows 3)' } });
    expect(d.log).not.toHaveBeenCalled();
  });

  it('logs and wraps unexpected errors as internal', async () => {
    const b = new FakeBackend();
    b.impl = () => { throw new TypeError('x is undefined'); };
    const d = deps(b);
    const env = await handleInvoke('tunebook:listStudies', goodEvent(), [], d);
    expect(env).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(d.log).toHaveBeenCalled();
  });

  it('the envelope survives structured cloning (what IPC does)', async () => {
    const b = new FakeBackend();
    b.impl = () => { throw new TunebookError('conflict', 'in use'); };
    const env = await handleInvoke('tunebook:deleteProfile', goodEvent(), [1], deps(b));
    expect(structuredClone(env)).toEqual({ ok: false, error: { code: 'conflict', message: 'in use' } });
  });

  it('refuses unknown channels and methods without calling the backend', async () => {
    const b = new FakeBackend();
    expect(await handleInvoke('other:listStudies', goodEvent(), [], deps(b))).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(await handleInvoke('tunebook:constructor', goodEvent(), [], deps(b))).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(await handleInvoke('tunebook:__proto__', goodEvent(), [], deps(b))).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(b.calls).toEqual([]);
  });

  it('refuses untrusted senders without calling the backend', async () => {
    const b = new FakeBackend();
    const d = deps(b);
    const env = await handleInvoke('tunebook:listStudies', goodEvent({ url: 'https://evil.com/' }), [], d);
    expect(env).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(b.calls).toEqual([]);
    expect(d.log).toHaveBeenCalled();
  });
});

describe('registerApiHandlers', () => {
  it('registers exactly one handler per API method, on tunebook:<method>, and removes them', async () => {
    const handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
    const ipcMain = {
      handle: (c: string, fn: (event: InvokeEventLike, ...args: unknown[]) => unknown) => {
        if (handlers.has(c)) throw new Error('double registration ' + c);
        handlers.set(c, fn);
      },
      removeHandler: (c: string) => { handlers.delete(c); },
    };
    const b = new FakeBackend();
    const wc = fakeWebContents();
    const dispose = registerApiHandlers(ipcMain, { backend: b, getWebContents: () => wc });
    expect([...handlers.keys()].sort()).toEqual(API_METHODS.map((m) => `tunebook:${m}`).sort());

    const env = await handlers.get('tunebook:createStudy')?.(goodEvent(), { title: 'QPS' });
    expect(env).toEqual({ ok: true, result: { method: 'createStudy' } });
    expect(b.calls).toEqual([['createStudy', [{ title: 'QPS' }]]]);

    dispose();
    expect(handlers.size).toBe(0);
  });
});

describe('forwardEvents', () => {
  it('sends each back-end event to the window on tunebook:event:<name>', () => {
    const b = new FakeBackend();
    const wc = fakeWebContents();
    const off = forwardEvents(b, () => wc);
    expect([...b.listeners.keys()].sort()).toEqual([...API_EVENTS].sort());
    const info = { path: '/n.tunebook', schemaVersion: 1, appVersion: '0.1.0' };
    b.emit('onDidChangeNotebook', info);
    b.emit('onDidChangeData', { studyId: 4 });
    expect(wc.sent).toEqual([
      ['tunebook:event:onDidChangeNotebook', [info]],
      ['tunebook:event:onDidChangeData', [{ studyId: 4 }]],
    ]);
    off();
    b.emit('onDidChangeData', { studyId: 5 });
    expect(wc.sent).toHaveLength(2);
  });

  it('does nothing while there is no window', () => {
    const b = new FakeBackend();
    const gone = fakeWebContents({ isDestroyed: () => true });
    forwardEvents(b, () => null);
    forwardEvents(b, () => gone);
    expect(() => b.emit('onDidChangeData', { studyId: null })).not.toThrow();
    expect(gone.sent).toEqual([]);
  });
});
