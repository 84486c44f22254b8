import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler, isInside, mimeTypeFor, resolveAppPath } from '../../electron/main/protocol';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/security';

const ROOT = path.resolve('/srv/tunebook/dist/renderer');

function file(p: string): string {
  return path.join(ROOT, ...p.split('/'));
}

describe('resolveAppPath', () => {
  it('maps app URLs to files under the root', () => {
    expect(resolveAppPath('tunebook://app/index.html', ROOT)).toEqual({ ok: true, filePath: file('index.html'), fallback: false });
    expect(resolveAppPath('tunebook://app/assets/index-abc.js', ROOT)).toEqual({ ok: true, filePath: file('assets/index-abc.js'), fallback: false });
    expect(resolveAppPath('tunebook://app/', ROOT)).toMatchObject({ ok: true, filePath: file('index.html') });
    expect(resolveAppPath('tunebook://app', ROOT)).toMatchObject({ ok: true, filePath: file('index.html') });
    expect(resolveAppPath('tunebook://APP/index.html', ROOT)).toMatchObject({ ok: true }); // host is case-insensitive
  });

  it('ignores query strings and fragments', () => {
    expect(resolveAppPath('tunebook://app/assets/a.js?v=3#x', ROOT)).toMatchObject({ ok: true, filePath: file('assets/a.js') });
    expect(resolveAppPath('tunebook://app/index.html?../../etc/passwd', ROOT)).toMatchObject({ ok: true, filePath: file('index.html') });
    expect(resolveAppPath('tunebook://app/#/studies/3', ROOT)).toMatchObject({ ok: true, filePath: file('index.html') });
  });

  it('decodes percent-encoded names once', () => {
    expect(resolveAppPath('tunebook://app/assets/my%20font.woff2', ROOT)).toMatchObject({ ok: true, filePath: file('assets/my font.woff2') });
  });

  it('serves the app shell for client-side routes', () => {
    expect(resolveAppPath('tunebook://app/studies/3', ROOT)).toEqual({ ok: true, filePath: file('index.html'), fallback: true });
  });

  it.each([
    'tunebook://app/../../etc/passwd',
    'tunebook://app/assets/../../../etc/passwd',
    'tunebook://app/%2e%2e/%2e%2e/etc/passwd',
    'tunebook://app/%2E%2E/secret.txt',
    'tunebook://app/..%2f..%2fetc%2fpasswd',
    'tunebook://app/assets/..%2F..%2F..%2Fetc%2Fpasswd',
    'tunebook://app/..%5c..%5cwindows%5cwin.ini',
    'tunebook://app/%252e%252e/%252e%252e/etc/passwd.txt',
    'tunebook://app/%2fetc%2fpasswd',
    'tunebook://app//etc/passwd',
    'tunebook://app/C:%5cWindows%5cwin.ini',
    'tunebook://app/c:/windows/win.ini',
    'tunebook://app/index.html%00.png',
    'tunebook://app/assets/./../../x.js',
  ])('never leaves the root: %s', (url) => {
    const r = resolveAppPath(url, ROOT);
    if (r.ok) {
      expect(isInside(ROOT, r.filePath)).toBe(true);
      // what stays inside must be a literal name, never a decoded traversal
      expect(r.filePath.startsWith(ROOT + path.sep)).toBe(true);
    } else {
      expect([400, 403, 404]).toContain(r.status);
    }
  });

  it('refuses encoded separators and dot segments outright', () => {
    expect(resolveAppPath('tunebook://app/..%2f..%2fetc%2fpasswd', ROOT)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath('tunebook://app/..%5cwin.ini', ROOT)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath('tunebook://app/%2fetc%2fpasswd', ROOT)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath('tunebook://app/index.html%00.png', ROOT)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath('tunebook://app/C:%5cWindows', ROOT)).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath('tunebook://app/%E0%A4%A', ROOT)).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses other schemes, hosts, ports and credentials', () => {
    for (const url of [
      'file:///etc/passwd',
      'https://app/index.html',
      'tunebook://evil/index.html',
      'tunebook://app.evil.com/index.html',
      'tunebook://app:8080/index.html',
      'tunebook://user:pw@app/index.html',
      '/etc/passwd',
      'not a url',
    ]) {
      const r = resolveAppPath(url, ROOT);
      expect(r.ok, url).toBe(false);
    }
  });
});

describe('mimeTypeFor', () => {
  it('gives module scripts a JavaScript type (Chromium refuses modules otherwise)', () => {
    expect(mimeTypeFor('a/b/index-x.js')).toMatch(/^text\/javascript/);
    expect(mimeTypeFor('index.html')).toMatch(/^text\/html/);
    expect(mimeTypeFor('x.CSS')).toMatch(/^text\/css/);
    expect(mimeTypeFor('x.unknown')).toBe('application/octet-stream');
  });
});

describe('createAppProtocolHandler (real files)', () => {
  let dir: string;
  let root: string;
  let handler: (r: Request) => Promise<Response>;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tunebook-proto-'));
    root = path.join(dir, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'secret.txt'), 'top secret');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
    handler = createAppProtocolHandler({ root, csp: CONTENT_SECURITY_POLICY });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves files with type, CSP and nosniff headers', async () => {
    const res = await handler(new Request('tunebook://app/assets/app.js?x=1'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('console.log(1)');
  });

  it('serves index.html for / and for routes', async () => {
    for (const url of ['tunebook://app/', 'tunebook://app/studies/2']) {
      const res = await handler(new Request(url));
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>t</title>');
    }
  });

  it('answers 404 for missing files and directories', async () => {
    expect((await handler(new Request('tunebook://app/assets/missing.js'))).status).toBe(404);
    expect((await handler(new Request('tunebook://app/nope/x.css'))).status).toBe(404);
  });

  it('answers 403 for traversal and for symlinks that lead outside the root', async () => {
    expect((await handler(new Request('tunebook://app/..%2fsecret.txt'))).status).toBe(403);
    const viaLink = await handler(new Request('tunebook://app/assets/link.txt'));
    expect(viaLink.status).toBe(403);
    expect(await viaLink.text()).not.toContain('top secret');
  });

  it('only answers GET and HEAD', async () => {
    expect((await handler(new Request('tunebook://app/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
    const head = await handler(new Request('tunebook://app/index.html', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('even error responses carry the CSP', async () => {
    const res = await handler(new Request('tunebook://app/missing.png'));
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });
});

import fc from 'fast-check';

describe('resolveAppPath (property)', () => {
  it('whatever the path, a resolved file lies inside the root', () => {
    const piece = fc.constantFrom('..', '.', '%2e', '%2E%2e', '%2f', '%5c', '/', '\\', 'a', 'index.html', '%00', ':', 'C:', '%252e', '~', '%');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const r = resolveAppPath(`tunebook://app/${parts.join('')}`, ROOT);
        if (r.ok) expect(isInside(ROOT, r.filePath)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
