/**
 * Browser mode's client hears about its own writes even when the event stream was not open yet
 * (the page just loaded) or was reconnecting: a write answered meanwhile is announced as a change to
 * everything once the stream opens, so no view stays stale. Reads answered meanwhile change nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../renderer/src/api/httpClient';
import type { DataChange } from '../../shared/api';

class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static last: FakeEventSource | null = null;
  readyState = FakeEventSource.CONNECTING;
  private readonly handlers = new Map<string, ((e: unknown) => void)[]>();
  constructor(readonly url: string) { FakeEventSource.last = this; }
  addEventListener(name: string, fn: (e: unknown) => void): void { this.handlers.set(name, [...(this.handlers.get(name) ?? []), fn]); }
  close(): void { this.readyState = 2; }
  open(): void { this.readyState = FakeEventSource.OPEN; for (const fn of this.handlers.get('open') ?? []) fn({}); }
  drop(): void { this.readyState = FakeEventSource.CONNECTING; }
  send(name: string, data: unknown): void { for (const fn of this.handlers.get(name) ?? []) fn({ data: JSON.stringify(data) }); }
}

const fetchOk = (async () => new Response(JSON.stringify({ ok: true, result: { id: 1 } }), { status: 200 })) as typeof fetch;

describe('the browser-mode client and its event stream', () => {
  const saved = (globalThis as { EventSource?: unknown }).EventSource;
  beforeEach(() => { (globalThis as { EventSource?: unknown }).EventSource = FakeEventSource; });
  afterEach(() => { (globalThis as { EventSource?: unknown }).EventSource = saved; });

  it('announces a write answered before the stream opened, once, and not a read', async () => {
    const api = createHttpClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: fetchOk });
    const seen: DataChange[] = [];
    api.on('onDidChangeData', (c) => seen.push(c));
    const es = FakeEventSource.last!;
    await api.listStudies();
    es.open();
    expect(seen).toEqual([]); // only a read was answered
    es.drop();
    await api.createStudy({ title: 'x' });
    await api.getStudy(1);
    es.open();
    expect(seen).toEqual([{ studyId: null, all: true }]);
    // with the stream open, a write's own event tells the views; nothing is added
    await api.updateStudy(1, { goal: 'y' });
    es.send('onDidChangeData', { studyId: 1 });
    es.drop();
    es.open();
    expect(seen).toEqual([{ studyId: null, all: true }, { studyId: 1 }]);
  });

  it('a write that failed may still have changed something: it counts too', async () => {
    const failing = (async () => new Response(JSON.stringify({ ok: false, error: { code: 'invalid', message: 'no' } }), { status: 400 })) as typeof fetch;
    const api = createHttpClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: failing });
    const seen: DataChange[] = [];
    api.on('onDidChangeData', (c) => seen.push(c));
    await expect(api.deleteStudy(1)).rejects.toMatchObject({ code: 'invalid', message: 'no' });
    FakeEventSource.last!.open();
    expect(seen).toEqual([{ studyId: null, all: true }]);
  });
});
