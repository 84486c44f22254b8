/**
 * Browser mode exposes only what its page needs (issue 10): no host path is read or opened unless
 * the user allowed its folder, the names of this machine are accepted when it listens beyond
 * loopback (and nothing else), large bodies are received a few at a time, and every answer is the
 * one envelope, the same as over IPC.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Gate, hostNames, startHttpHost, type HttpHost } from '../../electron/host/httpHost';
import { handleInvoke } from '../../electron/main/ipc';
import { Backend } from '../../electron/services/backend';
import { servedAccess } from '../../electron/services/hostPaths';
import { buildBundles, seedPath, useTempDir } from '../helpers';

interface Reply { status: number; body: string }

function raw(port: number, method: string, urlPath: string, headers: Record<string, string>, body?: string | Buffer, address = '127.0.0.1'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, method, path: urlPath, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('browser mode reads no host path it was not allowed to', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let host: HttpHost;
  afterEach(async () => { await host?.close(); backend?.close(); });

  async function serve(allowDirs: string[] = []): Promise<(method: string, args: unknown[]) => Promise<{ status: number; json: { ok: boolean; result?: unknown; error?: { code: string; message: string } } }>> {
    const workers = await buildBundles();
    const notebook = path.join(tmp(), 'served', 'nb.tunebook');
    mkdirSync(path.dirname(notebook), { recursive: true });
    backend = new Backend({ notebookPath: notebook, userDataDir: tmp(), ...workers, pathAccess: servedAccess(notebook, allowDirs) });
    host = await startHttpHost({ backend, rendererDir: tmp(), port: 0 });
    return async (method, args) => {
      const r = await raw(host.port, 'POST', `/api/${method}`, { Host: `127.0.0.1:${host.port}`, 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token }, JSON.stringify({ args }));
      return { status: r.status, json: JSON.parse(r.body) as { ok: boolean; error?: { code: string; message: string } } };
    };
  }

  it('refuses every method that takes a host path, with words that say to upload', async () => {
    const call = await serve();
    const study = backend.api.createStudy({ title: 'fio' });
    const e = backend.api.createExperiment(study.id, { title: 'random' });
    for (const [method, args] of [
      ['parseCaptureFiles', [['/etc/shadow'], 'ini']],
      ['parseCaptureFiles', [['/proc/self/environ'], 'sysctl']],
      ['parseCaptureFiles', [[seedPath('fio-randwrite-4k-qd64-j64.txt')]]],
      ['importCaptures', [e.id, [{ path: '/etc/passwd' }]]],
      ['importBundle', [{ path: '/etc/passwd' }]],
    ] as const) {
      const r = await call(method, [...args]);
      expect([method, r.status, r.json.ok, r.json.error?.code]).toEqual([method, 403, false, 'refused']);
      expect(r.json.error?.message).toMatch(/upload .* instead .*--allow-dir/);
      expect(JSON.stringify(r.json)).not.toMatch(/root:|PATH=/);
    }
    const exported = await call('exportStudy', [study.id, { format: 'html', path: path.join(tmp(), 'report.html') }]);
    expect([exported.status, exported.json.error?.message]).toEqual([403, expect.stringMatching(/downloaded/)]);
    expect(backend.api.getStudy(study.id).experiments[0]!.captures).toEqual([]);
  });

  it('opens and creates notebooks only beside the served one; lists only those', async () => {
    const call = await serve();
    const outside = await call('openNotebook', [path.join(tmp(), 'elsewhere', 'x.tunebook'), true]);
    expect([outside.status, outside.json.error?.message]).toEqual([403, expect.stringMatching(/opens notebooks only in .*served/)]);
    expect((await call('openNotebook', ['/proc/self/environ', false])).status).toBe(403);
    const beside = await call('openNotebook', [path.join(tmp(), 'served', 'second.tunebook'), true]);
    expect([beside.status, (beside.json.result as { path: string }).path]).toEqual([200, path.join(tmp(), 'served', 'second.tunebook')]);
    // a symlink beside the notebook that points out of its folder does not lead out
    symlinkSync(path.join(tmp(), 'elsewhere'), path.join(tmp(), 'served', 'link'));
    expect((await call('openNotebook', [path.join(tmp(), 'served', 'link', 'y.tunebook'), true])).status).toBe(403);
    const recent = (await call('recentNotebooks', [])).json.result as string[];
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((f) => f.startsWith(path.join(tmp(), 'served')))).toBe(true);
  });

  it('--allow-dir lets the page read under that folder, but not through a link that leads out', async () => {
    const allowed = path.join(tmp(), 'captures');
    mkdirSync(path.join(allowed, 'run1'), { recursive: true });
    writeFileSync(path.join(tmp(), 'secret.txt'), 'kernel.secret = 1\n');
    writeFileSync(path.join(allowed, 'run1', 'sysctl.txt'), 'vm.swappiness = 10\n');
    const call = await serve([allowed]);
    const ok = await call('parseCaptureFiles', [[path.join(allowed, 'run1')], 'sysctl']);
    expect(ok.status).toBe(200);
    expect(JSON.stringify(ok.json.result)).toContain('vm.swappiness');
    symlinkSync(path.join(tmp(), 'secret.txt'), path.join(allowed, 'run1', 'link.txt'));
    for (const p of [path.join(allowed, 'run1'), path.join(allowed, 'run1', 'link.txt'), path.join(allowed, '..', 'secret.txt')]) {
      const r = await call('parseCaptureFiles', [[p], 'sysctl']);
      expect([r.status, r.json.error?.message]).toEqual([403, expect.stringMatching(/reads files only under .*captures/)]);
      expect(JSON.stringify(r.json)).not.toContain('kernel.secret');
    }
  });

  it('the desktop app and the CLI still read any path (no path access given)', async () => {
    const workers = await buildBundles();
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    host = await startHttpHost({ backend, rendererDir: tmp(), port: 0 });
    const parsed = await backend.api.parseCaptureFiles([seedPath('fio-randwrite-4k-qd64-j64.txt')]);
    expect(parsed[0]!.kind).toBe('fio');
  });
});

describe('browser mode bound to another address', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let host: HttpHost;
  afterEach(async () => { await host?.close(); backend?.close(); });

  it('names this machine by its host name and, bound to 0.0.0.0, by each address; never a foreign name', () => {
    const loopbackOnly = hostNames('127.0.0.1', 4750);
    expect([...loopbackOnly].sort()).toEqual(['127.0.0.1:4750', '[::1]:4750', 'localhost:4750']);
    const all = hostNames('0.0.0.0', 4750, ['tunebook.lab.example']);
    expect(all.has(`${os.hostname().toLowerCase()}:4750`)).toBe(true);
    expect(all.has('tunebook.lab.example:4750')).toBe(true);
    for (const a of Object.values(os.networkInterfaces()).flat()) {
      if (a) expect(all.has(a.family === 'IPv6' ? `[${a.address.replace(/%.*$/, '')}]:4750` : `${a.address}:4750`)).toBe(true);
    }
    expect(all.has('evil.example:4750')).toBe(false);
    expect(hostNames('0.0.0.0', 80).has('localhost')).toBe(true);
  });

  it('answers a real request to a LAN address with that Host, and still refuses a foreign Host', async (ctx) => {
    const lan = Object.values(os.networkInterfaces()).flat().find((a) => a && !a.internal && a.family === 'IPv4');
    if (!lan) { ctx.skip(); return; } // printed by vitest as skipped: this machine has no LAN address
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp() });
    host = await startHttpHost({ backend, rendererDir: tmp(), host: '0.0.0.0', port: 0 });
    const headers = (h: string) => ({ Host: `${h}:${host.port}`, 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token, Origin: `http://${h}:${host.port}` });
    const mine = await raw(host.port, 'POST', '/api/listStudies', headers(lan.address), '{"args":[]}', lan.address);
    expect([mine.status, JSON.parse(mine.body)]).toEqual([200, { ok: true, result: [] }]);
    const byName = await raw(host.port, 'POST', '/api/listStudies', headers(os.hostname()), '{"args":[]}', lan.address);
    expect(byName.status).toBe(200);
    const rebinding = await raw(host.port, 'POST', '/api/listStudies', headers('evil.example'), '{"args":[]}', lan.address);
    expect(rebinding.status).toBe(403);
    const crossOrigin = await raw(host.port, 'POST', '/api/listStudies', { ...headers(lan.address), Origin: 'http://evil.example' }, '{"args":[]}', lan.address);
    expect(crossOrigin.status).toBe(403);
  });
});

describe('large bodies, a few at a time', () => {
  const tmp = useTempDir();

  it('Gate: lets `limit` in, queues the next ones in order, refuses beyond the queue', async () => {
    const gate = new Gate(1, 2);
    const order: number[] = [];
    const first = await gate.enter()!;
    const second = gate.enter()!.then((r) => { order.push(2); return r; });
    const third = gate.enter()!.then((r) => { order.push(3); return r; });
    expect(gate.enter()).toBeNull();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    first();
    first(); // a second release of the same turn changes nothing
    (await second)();
    (await third)();
    expect(order).toEqual([2, 3]);
    expect(gate.enter()).not.toBeNull();
  });

  it('an upload waits while another is received, and is refused (503) when too many wait', async () => {
    const workers = await buildBundles();
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    const host = await startHttpHost({ backend, rendererDir: tmp(), port: 0, maxUploads: 1, maxWaitingUploads: 1 });
    try {
      const headers = { Host: `127.0.0.1:${host.port}`, 'Content-Type': 'application/octet-stream', 'X-Tunebook-Token': host.token };
      // the first upload sends half its body and stalls
      let finishFirst!: () => void;
      const first = new Promise<Reply>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path: '/api/upload?name=a.log', headers: { ...headers, 'Content-Length': '8' } }, (res) => {
          let data = '';
          res.on('data', (c: Buffer) => { data += c.toString(); });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
        });
        req.on('error', reject);
        req.write('1234');
        finishFirst = () => req.end('5678');
      });
      await new Promise((r) => setTimeout(r, 100));
      let secondDone = false;
      const second = raw(host.port, 'POST', '/api/upload?name=b.log', headers, 'bbbb').then((r) => { secondDone = true; return r; });
      await new Promise((r) => setTimeout(r, 100));
      const third = await raw(host.port, 'POST', '/api/upload?name=c.log', headers, 'cccc');
      expect([third.status, JSON.parse(third.body).error]).toEqual([503, { code: 'refused', message: expect.stringMatching(/too many large files at once: c\.log was refused/) }]);
      expect(secondDone).toBe(false); // waiting its turn
      finishFirst();
      expect((await first).status).toBe(200);
      const b = await second;
      expect([b.status, JSON.parse(b.body).ok]).toEqual([200, true]);
    } finally {
      await host.close();
      backend.close();
    }
  });
});

describe('one envelope over IPC and HTTP', () => {
  const tmp = useTempDir();
  it('a failure and a success read the same on both hosts', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp() });
    const host = await startHttpHost({ backend, rendererDir: tmp(), port: 0 });
    const wc = { id: 1, mainFrame: { frameTreeNodeId: 7 }, isDestroyed: () => false, send: () => undefined };
    const event = { sender: { id: 1 }, senderFrame: { url: 'tunebook://app/index.html', parent: null, frameTreeNodeId: 7 } };
    try {
      for (const [method, args] of [['getStudy', [99]], ['createStudy', [{ title: '' }]], ['listStudies', []], ['updateStudy', [1, { goal: '\ud800' }]]] as const) {
        const overIpc = await handleInvoke(`tunebook:${method}`, event, [...args], { backend, getWebContents: () => wc, log: () => undefined });
        const overHttp = JSON.parse((await raw(host.port, 'POST', `/api/${method}`, { Host: `127.0.0.1:${host.port}`, 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token }, JSON.stringify({ args }))).body) as unknown;
        expect(overHttp).toEqual(overIpc);
      }
      const r = await handleInvoke('tunebook:getStudy', event, [99], { backend, getWebContents: () => wc });
      expect(r).toEqual({ ok: false, error: { code: 'not-found', message: expect.any(String) } });
    } finally {
      await host.close();
      backend.close();
    }
  });
});
