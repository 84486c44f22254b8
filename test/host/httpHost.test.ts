import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { ImportResult } from '../../shared/model';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpHost, type HttpHost } from '../../electron/host/httpHost';
import { resolveStaticPath } from '../../electron/host/staticFiles';
import { Backend } from '../../electron/services/backend';
import { buildBundles, readWorkerFile, seedPath, useTempDir } from '../helpers';

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A raw HTTP request, so Host and Origin can be set the way a hostile page or rebinding attack would. */
function raw(port: number, method: string, urlPath: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: urlPath, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('browser-mode HTTP host', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let host: HttpHost;
  beforeEach(async () => {
    const ui = path.join(tmp(), 'renderer');
    mkdirSync(ui);
    writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Tunebook</title>');
    writeFileSync(path.join(tmp(), 'secret.txt'), 'outside the renderer');
    // as `tunebook serve` runs it: reads in the read worker, answered as the JSON text it wrote
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), readWorkerFile: await readWorkerFile() });
    host = await startHttpHost({ backend, rendererDir: ui, port: 0 });
  });
  afterEach(async () => { await host.close(); backend.close(); });

  const call = (method: string, args: unknown[], headers: Record<string, string> = {}) =>
    raw(host.port, 'POST', `/api/${method}`, { 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token, ...headers }, JSON.stringify({ args }));
  /** the notebook's studies, as the server answers them */
  const studies = async () => JSON.parse((await call('listStudies', [])).body).result as unknown[];

  it('binds 127.0.0.1 and prints a URL carrying a long random token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/`);
    expect(host.token).toMatch(/^[0-9a-f]{48}$/);
    expect(host.openUrl).toBe(`${host.url}?token=${host.token}`);
  });

  it('serves the contract with the token', async () => {
    const created = await call('createStudy', [{ title: 'health-check QPS' }]);
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body).result).toMatchObject({ title: 'health-check QPS' });
    const list = await call('listStudies', []);
    expect(JSON.parse(list.body).result).toHaveLength(1);
    const outline = await call('studyOutline', [JSON.parse(created.body).result.id]);
    expect(JSON.parse(outline.body)).toEqual({ ok: true, result: { study: JSON.parse(created.body).result, experiments: [] } });
    const missing = await call('studyOutline', [99]);
    expect([missing.status, JSON.parse(missing.body)]).toEqual([404, { ok: false, error: { code: 'not-found', message: 'study 99 does not exist (it may have been deleted)' } }]);
  });

  it('refuses requests without the token, or with a wrong one, and changes nothing', async () => {
    const none = await raw(host.port, 'POST', '/api/createStudy', { 'Content-Type': 'application/json' }, JSON.stringify({ args: [{ title: 'x' }] }));
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { code: 'refused', message: expect.stringMatching(/token/) } });
    const wrong = await call('createStudy', [{ title: 'x' }], { 'X-Tunebook-Token': 'f'.repeat(48) });
    expect(wrong.status).toBe(401);
    expect((await raw(host.port, 'GET', '/api/events')).status).toBe(401);
    expect(await studies()).toEqual([]);
  });

  it('refuses another Origin even with the token (a web page the user visits)', async () => {
    const r = await call('createStudy', [{ title: 'x' }], { Origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    const sameOrigin = await call('listStudies', [], { Origin: `http://127.0.0.1:${host.port}` });
    expect(sameOrigin.status).toBe(200);
    expect(await studies()).toEqual([]);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const r = await call('listStudies', [], { Host: `evil.example:${host.port}` });
    expect(r.status).toBe(403);
    expect((await raw(host.port, 'GET', '/', { Host: 'evil.example' })).status).toBe(403);
  });

  it('turns service errors into 4xx with code and message, and rejects unknown methods and bad bodies', async () => {
    const bad = await call('createStudy', [{ title: '' }]);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toEqual({ code: 'invalid', message: 'title must not be empty' });
    expect((await call('getStudy', [42])).status).toBe(404);
    expect((await call('constructor', [])).status).toBe(404);
    const junk = await raw(host.port, 'POST', '/api/listStudies', { 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token }, '{not json');
    expect(junk.status).toBe(400);
    const form = await raw(host.port, 'POST', '/api/listStudies', { 'Content-Type': 'text/plain', 'X-Tunebook-Token': host.token }, '{}');
    expect(form.status).toBe(400);
  });

  it('serves the renderer with a strict CSP and never a file outside it', async () => {
    const page = await raw(host.port, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("object-src 'none'");
    expect((await raw(host.port, 'GET', '/../secret.txt')).body).not.toContain('outside');
    expect((await raw(host.port, 'GET', '/%2e%2e/secret.txt')).status).toBe(404);
    expect(resolveStaticPath('/srv/ui', '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveStaticPath('/srv/ui', '/assets/app.js')).toBe('/srv/ui/assets/app.js');
    expect(resolveStaticPath('/srv/ui', '/studies/3')).toBe('/srv/ui/index.html');
  });

  it('pushes events over SSE to token holders', async () => {
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: host.port, path: `/api/events?token=${host.token}`, headers: { Host: `127.0.0.1:${host.port}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          events.push(c);
          if (c.includes('onDidChangeData')) { req.destroy(); resolve(); }
        });
        backend.api.createStudy({ title: 'pushed' });
      });
      req.on('error', (e) => (events.join('').includes('onDidChangeData') ? resolve() : reject(e)));
      req.end();
    });
    expect(events.join('')).toMatch(/event: onDidChangeData\ndata: \{"studyId":1\}/);
  });
});

describe('browser-mode HTTP host limits', () => {
  const tmp = useTempDir();
  it('answers an oversized upload with 413 and a clear message instead of dropping the connection', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp() });
    const host = await startHttpHost({ backend, rendererDir: tmp(), port: 0 });
    try {
      const r = await raw(host.port, 'POST', '/api/parseCaptureText', {
        'Content-Type': 'application/json', 'X-Tunebook-Token': host.token, 'Content-Length': String(200 * 1024 * 1024),
      }, '{"args": ["x", "');
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body).error.message).toMatch(/request too large.*tunebook parse FILE/);
    } finally {
      await host.close();
      backend.close();
    }
  });
});

describe('browser-mode capture uploads', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let host: HttpHost;
  beforeEach(async () => {
    const workers = await buildBundles();
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    host = await startHttpHost({ backend, rendererDir: tmp(), port: 0, maxUploadBytes: 64 * 1024 });
  });
  afterEach(async () => { await host.close(); backend.close(); });

  const upload = (name: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    raw(host.port, 'POST', `/api/upload?name=${encodeURIComponent(name)}`, { 'Content-Type': 'application/octet-stream', 'X-Tunebook-Token': host.token, ...headers }, body);

  it('streams an upload to the host and imports it byte for byte', async () => {
    const bytes = readFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'));
    const up = await upload('fio-randwrite-4k-qd64-j64.txt', bytes);
    expect(up.status).toBe(200);
    const id = JSON.parse(up.body).result.upload as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const study = backend.api.createStudy({ title: 'fio' });
    const e = backend.api.createExperiment(study.id, { title: 'random' });
    const r = (await backend.call('importCaptures', [e.id, [{ upload: id }]])) as ImportResult;
    expect(r.imported[0]).toMatchObject({ name: 'fio-randwrite-4k-qd64-j64.txt', kind: 'fio', bytes: bytes.length });
    expect(Buffer.concat([...backend.captureBytes(r.imported[0]!.captureId)]).equals(bytes)).toBe(true);
    // an upload is imported once; its file is gone afterwards
    await expect(backend.call('importCaptures', [e.id, [{ upload: id }]]) as Promise<unknown>).rejects.toThrow(/unknown or was already imported/);
  });

  it('refuses an upload over the limit, without the token, or from another origin, and keeps nothing', async () => {
    const big = await upload('big.log', Buffer.alloc(100 * 1024, 'a'));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.message).toMatch(/larger than this server accepts.*--max-upload/);
    expect((await upload('x.txt', 'x', { 'X-Tunebook-Token': 'f'.repeat(48) })).status).toBe(401);
    expect((await upload('x.txt', 'x', { Origin: 'https://evil.example' })).status).toBe(403);
    // the refused upload's partial file was removed
    const uploads = path.dirname(backend.uploadTarget());
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
  });
});
