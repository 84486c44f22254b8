/**
 * Find in a stored capture goes past its first page (issue 6): a search stops at `limit` matches
 * with `truncated`, and `fromLine` fetches the next page from the line after the last match, so
 * every match of a capture with thousands of them can be reached. Served as `tunebook serve`
 * serves it: through the HTTP host, from the read worker, with the optional argument in JSON.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureMatches } from '../../shared/model';
import { startHttpHost, type HttpHost } from '../../electron/host/httpHost';
import { Backend } from '../../electron/services/backend';
import { buildBundles, readWorkerFile, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string; readWorkerFile: string };
beforeAll(async () => {
  const { parseWorkerFile, storeWorkerFile } = await buildBundles();
  workers = { parseWorkerFile, storeWorkerFile, readWorkerFile: await readWorkerFile() };
});

/** POST /api/<method> as the browser's client sends it; the parsed envelope back. */
function post(host: HttpHost, method: string, args: unknown[]): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ args });
    const req = request({
      host: '127.0.0.1', port: host.port, method: 'POST', path: `/api/${method}`,
      headers: { Host: `127.0.0.1:${host.port}`, 'Content-Type': 'application/json', 'X-Tunebook-Token': host.token, 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { data += c; });
      res.on('end', () => { try { resolve(JSON.parse(data)); } catch (e) { reject(e); } });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('find in a capture, page after page', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let host: HttpHost;
  beforeEach(async () => {
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    host = await startHttpHost({ backend, rendererDir: tmp(), port: 0 });
  });
  afterEach(async () => { await host.close(); backend.close(); });

  it('reaches every one of 2,600 matches over several chunks, and refuses a bad fromLine', async () => {
    // ~1 MB (several chunks of ~256 KiB): every third line matches "needle", some lines twice
    const lines: string[] = [];
    for (let i = 1; i <= 7_800; i++) lines.push(i % 3 === 0 ? `${i} NEEDLE ${'x'.repeat(100)}${i % 9 === 0 ? ' needle again' : ''}` : `${i} hay ${'y'.repeat(120)}`);
    const file = path.join(tmp(), 'many.log');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const want = lines.flatMap((l, i) => (/needle/i.test(l) ? [i + 1] : []));
    expect(want).toHaveLength(2_600);

    const study = backend.api.createStudy({ title: 'find' });
    const e = backend.api.createExperiment(study.id, { title: 'many matches' });
    const [c] = (await backend.api.importCaptures(e.id, [{ path: file }])).imported;
    const id = c!.captureId;

    const find = async (args: unknown[]): Promise<CaptureMatches> => {
      const r = await post(host, 'findInCapture', [id, 'needle', ...args]);
      expect(r.error).toBeUndefined();
      return r.result as CaptureMatches;
    };
    // as before: no page argument, the first 1,000, truncated
    const first = await find([]);
    expect(first.matches).toHaveLength(1_000);
    expect(first.truncated).toBe(true);
    expect(first.matches.map((m) => m.line)).toEqual(want.slice(0, 1_000));
    // a null fromLine (what JSON makes of undefined) is the first line
    expect((await find([1000, null])).matches.map((m) => m.line)).toEqual(want.slice(0, 1_000));

    // page after page from the line after the last match, until a page is not truncated
    const seen: number[] = [];
    let page = first;
    for (let pages = 1; ; pages++) {
      expect(pages).toBeLessThan(10);
      seen.push(...page.matches.map((m) => m.line));
      if (!page.truncated) break;
      page = await find([1000, page.matches[page.matches.length - 1]!.line + 1]);
    }
    expect(seen).toEqual(want);
    expect(page.matches).toHaveLength(600);

    // a page starting inside a line range: only lines from fromLine on, with their text
    const mid = await find([3, 4_000]);
    expect(mid.matches).toEqual([4_002, 4_005, 4_008].map((n) => ({ line: n, text: lines[n - 1] })));
    expect(mid.truncated).toBe(true);
    expect((await find([10, lines.length + 5])).matches).toEqual([]);

    // the argument is checked at the boundary
    for (const bad of [0, -3, 1.5, 'ten']) {
      const r = await post(host, 'findInCapture', [id, 'needle', 10, bad]);
      expect(r.ok, String(bad)).toBe(false);
      expect(r.error).toMatchObject({ code: 'invalid', message: expect.stringContaining('from line') });
    }
  });
});
