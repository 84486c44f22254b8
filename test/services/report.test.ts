/**
 * Reports of the three case studies through the Backend (the store worker renders them): what each
 * format says — the chain, the verdicts, the steps, the evidence — the files the Markdown export
 * writes beside it, a chosen set of experiments, and the errors a user can act on.
 * (Chromium opens the HTML and the PDF in test/e2e/reports.spec.ts.)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiMethods } from '../../shared/api';
import type { ExportResult } from '../../shared/model';
import { Backend } from '../../electron/services/backend';
import { buildCaseA, buildCaseB, buildCaseC } from '../fixtures/caseStudies';
import type { AnyApi } from '../fixtures/caseStudies';
import { buildBundles, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

type AsyncApi = { [K in keyof ApiMethods]: (...a: Parameters<ApiMethods[K]>) => Promise<ReturnType<ApiMethods[K]>> };

/** The visible text of an HTML report, roughly (tags dropped, entities read). */
function textOf(html: string): string {
  return html.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
}

describe('reports', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let api: AsyncApi;
  let ids: { a: number; b: number; c: number };
  beforeEach(async () => {
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    api = new Proxy({}, { get: (_t, m: string) => async (...a: unknown[]) => backend.call(m, a) }) as AsyncApi;
    const any = api as unknown as AnyApi;
    ids = { a: await buildCaseA(any), b: await buildCaseB(any), c: await buildCaseC(any) };
  });
  afterEach(() => backend.close());

  const exportTo = (studyId: number, format: 'html' | 'md' | 'pdf' | 'eln', file: string, experimentIds?: number[]) =>
    api.exportStudy(studyId, { format, path: path.join(tmp(), file), ...(experimentIds ? { experimentIds } : {}) }) as Promise<ExportResult>;

  it('case A: the chain from 140 to 286 req/s, each step with its config changes and notes', async () => {
    const r = await exportTo(ids.a, 'html', 'a.html');
    expect(r).toMatchObject({ format: 'html', fileName: 'a.html', download: null });
    const html = readFileSync(r.path!, 'utf8');
    const text = textOf(html);
    expect(text).toContain('Requests per second went from 140 req/s at the baseline to 286 req/s after 2 kept steps (+104.3 %): 140 req/s → 205 req/s → 286 req/s.');
    expect(text).toContain('The largest share of the gain, 55.5 %, came from step 2, “phpredis instead of predis”.');
    expect(text).toMatch(/opcache\.validate_timestamps 1 0 strace showed stat\(\) on every request/);
    expect(text).toContain('+46.4 % on the step before, +46.4 % since the baseline');
    expect(text).toContain('Alibaba Cloud ECS 4C8G');
    expect(text).toContain('At the baseline the requirement was not met. The requirement is first met by step 2, “phpredis instead of predis”.');
    // the notes' Markdown, rendered safely: their code and emphasis, their headings under the step's
    expect(html).toContain('<code>ab -n 100000 -c 1000</code>');
    expect(html).toContain('<strong>top</strong>');
    // one chart (no other metric), inline SVG, and a policy that forbids any load or script
    expect(html.match(/<svg /g)).toHaveLength(1);
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'');
    expect(html).not.toMatch(/<script|<img|<link|<iframe|url\(/i);
    if (process.env.TUNEBOOK_KEEP_REPORTS) writeFileSync(path.join(process.env.TUNEBOOK_KEEP_REPORTS, 'case-a.html'), html);
  });

  it('a kept step that measured nothing yet is neither set apart nor judged', async () => {
    await api.createExperiment(ids.a, { title: 'not measured yet', status: 'kept' });
    const md = readFileSync((await exportTo(ids.a, 'md', 'a.md')).path!, 'utf8');
    expect(md).toMatch(/\| 3 \| not measured yet \| kept \|/);
    expect(md).not.toMatch(/not measured yet \(set apart\)/);
    const html = readFileSync((await exportTo(ids.a, 'html', 'a2.html')).path!, 'utf8');
    expect(html).not.toMatch(/<tr class="set-apart"><td>3<\/td>/);
  });

  it('case B: every requirement judged, four of five failing at the baseline, the reverted step set apart', async () => {
    const html = readFileSync((await exportTo(ids.b, 'html', 'b.html')).path!, 'utf8');
    const text = textOf(html);
    expect(text).toContain('At the baseline four of the five requirements were not met.');
    expect(text).toContain('All five requirements are first met by step 4, “TIME_WAIT: tw_reuse, port range, buckets”.');
    expect(text).toContain('1 attempt failed or was reverted; it is shown set apart and not counted in the gain.');
    expect(text).toContain('QPS ≥ 30.0k req/s');
    expect(text).toMatch(/4 TIME_WAIT: tw_reuse, port range, buckets \(first to meet all\) 50\.0k req\/s ✓ 30 % ✓ 70 % ✓ 60 ms ✓ 0 % ✓ ✓ all met/);
    expect(text).toMatch(/B writes through a Redis FIFO queue 6,000 req\/s ✗ 100 % ✗ 65 % ✓ 160 ms ✗ 30 % ✗ 4 failing/);
    expect(html).toMatch(/<tr class="set-apart"><td>2<\/td>/);
    expect(text).toContain('reverted: set apart, not counted in the gain');
    // the primary chain and the four other metrics, each with its requirement line
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(text).toContain('tcp_tw_recycle');
    if (process.env.TUNEBOOK_KEEP_REPORTS) writeFileSync(path.join(process.env.TUNEBOOK_KEEP_REPORTS, 'case-b.html'), html);
  });

  it('case C: the evidence — headline figures, findings, the raw text folded away', async () => {
    const html = readFileSync((await exportTo(ids.c, 'html', 'c.html')).path!, 'utf8');
    const text = textOf(html);
    expect(text).toContain('2,197 IOPS');
    expect(text).toContain('43.0k IOPS');
    expect(text).toContain('+1,857.2 %');
    expect(text).toContain('168 MiB/s');
    expect(text).toContain('Disk vda virtual, 50 GiB, 512-byte sectors, 4096-byte blocks');
    expect(text).toMatch(/fio-randwrite-4k-qd64-j64\.txt fio/);
    expect(text).toMatch(/IOPS \(write\) 2,197 IOPS/);
    // iostat's finding on the random run
    expect(text).toMatch(/random/i);
    expect(html).toMatch(/<details><summary>Raw text \(\d+ lines\)<\/summary><pre class="raw">/);
    expect(html).toContain('test-rand-write: (g=0): rw=randwrite, bs=(R) 4096B-4096B');
    const kb = Buffer.byteLength(html) / 1024;
    expect(kb).toBeLessThan(200);
    if (process.env.TUNEBOOK_KEEP_REPORTS) writeFileSync(path.join(process.env.TUNEBOOK_KEEP_REPORTS, 'case-c.html'), html);
  });

  it('Markdown: the story as a write-up, with its charts as SVG files beside it', async () => {
    const r = await exportTo(ids.b, 'md', 'b.md');
    expect(r.files.map((f) => path.relative(tmp(), f))).toEqual([
      'b.md', 'b-charts/01-requests-per-second.svg', 'b-charts/02-db-load-percent.svg', 'b-charts/03-cpu-util-percent.svg',
      'b-charts/04-latency-mean-seconds.svg', 'b-charts/05-error-ratio.svg',
    ].map((f) => f.split('/').join(path.sep)));
    const md = readFileSync(r.path!, 'utf8');
    expect(md).toMatch(/^# Python service to 50k QPS\n\n> Split the module out of the main site without hurting it\.\n/);
    expect(md).toContain('![Requests per second · requests_per_second](b-charts/01-requests-per-second.svg)');
    expect(md).toContain('## Requirements');
    expect(md).toContain('| B | writes through a Redis FIFO queue | 6,000 req/s ✗ | 100 % ✗ | 65 % ✓ | 160 ms ✗ | 30 % ✗ | 4 failing |');
    expect(md).toContain('### 4. TIME_WAIT: tw_reuse, port range, buckets');
    expect(md).toContain('| sysctl | net.ipv4.tcp_tw_recycle | 0 | 1 | breaks clients behind NAT; removed in Linux 4.12 |');
    for (const f of r.files.slice(1)) expect(readFileSync(f, 'utf8')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    if (process.env.TUNEBOOK_KEEP_REPORTS) writeFileSync(path.join(process.env.TUNEBOOK_KEEP_REPORTS, 'case-b.md'), md);
  });

  it('a chosen set of experiments: the chain from the first chosen, and the report says it is a part', async () => {
    const all = (await api.getStudy(ids.a)).experiments;
    const html = readFileSync((await exportTo(ids.a, 'html', 'part.html', [all[0]!.id, all[2]!.id])).path!, 'utf8');
    const text = textOf(html);
    expect(text).toContain('A Tunebook report of 2 of the study\'s 3 experiments');
    expect(text).toContain('140 req/s → 286 req/s');
    expect(text).not.toContain('opcache: stop revalidating timestamps');
  });

  it('says what is wrong, and leaves nothing behind', async () => {
    await expect(exportTo(999, 'html', 'x.html')).rejects.toThrow(/study 999 does not exist/);
    await expect(exportTo(ids.a, 'html', 'x.html', [123456])).rejects.toThrow(/not in "PHP health-check API/);
    await expect(api.exportStudy(ids.a, { format: 'docx' as 'html', path: path.join(tmp(), 'x.docx') })).rejects.toThrow(/format must be one of html, md, pdf, eln/);
    await expect(exportTo(ids.a, 'html', path.join('no-such-folder', 'x.html'))).rejects.toThrow(/its folder does not exist/);
    expect(readdirSync(tmp()).filter((f) => f.startsWith('x.'))).toEqual([]);
    expect(existsSync(path.join(tmp(), 'no-such-folder'))).toBe(false);
  });
});
