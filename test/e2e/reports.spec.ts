/**
 * Reports and bundles in Chromium. The three case studies export in every format; the HTML is opened
 * in Chromium (figures there, no request leaving the page), the PDF read back as text and turned
 * into page images (pdftoppm; kept as test artifacts), the Markdown and its chart images checked.
 * Hostile notes and captures run nothing in the app, its preview or the exported file. A bundle
 * exported through the UI comes back through "Import bundle…" with its study intact.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExportResult, ReportFormat } from '../../shared/model';
import { unzip } from '../fixtures/unzip';
import { buildCaseA, buildCaseB, buildCaseC, CASE_A, CASE_B, CASE_C } from '../fixtures/caseStudies';
import type { AnyApi } from '../fixtures/caseStudies';
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { callApi, captureLinks, dropFiles, experimentDetail, openStudy } from './support/ui';

const pageApi = (page: Page): AnyApi => new Proxy({}, { get: (_t, m: string) => (...a: unknown[]) => callApi(page, m, ...a) }) as AnyApi;

/** An export made through the API as the page would (browser mode: a download), saved to `file`. */
async function exportTo(page: Page, studyId: number, format: ReportFormat, file: string): Promise<string> {
  const r = await callApi<ExportResult>(page, 'exportStudy', studyId, { format });
  expect(r.download).toMatch(/^[0-9a-f]{24}$/);
  const bytes = await page.evaluate(async (id) => {
    const res = await fetch(`/api/download/${id}?token=${encodeURIComponent(sessionStorage.getItem('tunebook.token') ?? '')}`);
    return [...new Uint8Array(await res.arrayBuffer())];
  }, r.download!);
  writeFileSync(file, Buffer.from(bytes));
  return file;
}

/** Opens an exported HTML file in a fresh page of the same browser, recording every request it makes. */
async function openReport(page: Page, file: string): Promise<{ report: Page; requests: string[]; text: string }> {
  const report = await page.context().newPage();
  const requests: string[] = [];
  report.on('request', (r) => requests.push(r.url()));
  await report.goto(pathToFileURL(file).href);
  const text = await report.locator('body').innerText();
  return { report, requests, text };
}

/** What each case study's report must say, in every format. */
const FIGURES: Record<string, string[]> = {
  [CASE_A]: ['140 req/s', '205 req/s', '286 req/s', '+46.4 %', '+39.5 %', '+104.3 %', 'opcache.validate_timestamps', 'Cloud VM 4C8G'],
  [CASE_B]: ['6,000 req/s', '50.0k req/s', '+733.3 %', '63.6 %', 'database load', 'At the baseline four of the five requirements were not met', 'All five requirements are first met by step 4'],
  [CASE_C]: ['2,197 IOPS', '43.0k IOPS', '+1,857.2 %', '168 MiB/s', 'fio-randwrite-4k-qd64-j64.txt', 'vda'],
};

test('the case studies export in every format, and read right in Chromium', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const api = pageApi(page);
  const ids = { [CASE_A]: await buildCaseA(api), [CASE_B]: await buildCaseB(api), [CASE_C]: await buildCaseC(api) };
  const out = testInfo.outputPath('exports');
  mkdirSync(out, { recursive: true });
  for (const [title, id] of Object.entries(ids)) {
    const name = title.replace(/\W+/g, '-').toLowerCase();

    // HTML: one file, opened offline; nothing but the file itself is requested
    const html = await exportTo(page, id, 'html', path.join(out, `${name}.html`));
    const { report, requests, text } = await openReport(page, html);
    for (const f of FIGURES[title]!) expect(text, `${title}: ${f}`).toContain(f);
    await expect(report.locator('svg[role="img"]').first()).toBeVisible();
    await report.screenshot({ path: path.join(out, `${name}-html.png`), fullPage: true });
    expect(requests).toEqual([pathToFileURL(html).href]);
    expect(await report.locator('script').count()).toBe(0);
    await report.close();

    // PDF: pages as text and as images
    const pdf = await exportTo(page, id, 'pdf', path.join(out, `${name}.pdf`));
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const pdfText = execFileSync('pdftotext', ['-layout', pdf, '-']).toString('utf8');
    for (const f of FIGURES[title]!.slice(0, 3)) expect(pdfText, `${title} PDF: ${f}`).toContain(f);
    execFileSync('pdftoppm', ['-png', '-r', '50', pdf, path.join(out, `${name}-page`)]);
    const pages = readdirSync(out).filter((f) => f.startsWith(`${name}-page`) && f.endsWith('.png'));
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) await testInfo.attach(`${name} ${p}`, { path: path.join(out, p), contentType: 'image/png' });

    // Markdown: a zip of the .md and its chart images
    const md = await unzip(await exportTo(page, id, 'md', path.join(out, `${name}-md.zip`)));
    const mdFile = [...md.keys()].find((k) => k.endsWith('.md'))!;
    const text2 = md.get(mdFile)!.toString('utf8');
    for (const f of FIGURES[title]!) expect(text2.replace(/\\/g, ''), `${title} Markdown: ${f}`).toContain(f);
    const images = [...text2.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => decodeURI(m[1]!));
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) expect(md.get(img)?.toString('utf8') ?? '', img).toMatch(/^<svg /);

    // the bundle: a valid .eln (RO-Crate metadata, Tunebook's data beside it)
    const eln = await unzip(await exportTo(page, id, 'eln', path.join(out, `${name}.eln`)));
    expect([...eln.keys()].some((k) => /^[^/]+\/ro-crate-metadata\.json$/.test(k))).toBe(true);
    expect([...eln.keys()].some((k) => k.endsWith('tunebook/bundle.json'))).toBe(true);
  }
});

const HOSTILE_NOTES = [
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '[click me](javascript:window.__pwned=%22link%22)',
  '<a href="javascript:window.__pwned=1">raw link</a>',
  '![tracker](http://127.0.0.1:9/pixel.png)',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '<iframe src="http://127.0.0.1:9/"></iframe>',
].join('\n\n');

test('hostile notes and captures run nothing in the app, the preview or the exported report', async ({ page }, testInfo) => {
  const api = pageApi(page);
  const study = await api.createStudy({ title: '<b>bold</b> & "quoted" study' });
  const e = await api.createExperiment(study.id, { title: '<img src=x onerror="window.__pwned=\'title\'">', notes: HOSTILE_NOTES, status: 'kept' });
  await api.addConfigChange(e.id, { scope: 'php.ini', key: '<script>window.__pwned="key"</script>', before: '1', after: '0', why: '"><svg onload=window.__pwned=1>' });
  await api.addResultMetric(e.id, { name: 'requests_per_second', value: 140, unit: 'req/s', primary: true });
  await api.importCaptures(e.id, [{ name: 'evil.txt', text: `<script>window.__pwned="capture"</script>\n]]><x onload=1>\n</pre><img src=x onerror=alert(1)>\n` }]);
  await page.reload();
  await openStudy(page, '<b>bold</b> & "quoted" study');

  // the app shows the text, runs nothing
  await expect(page.getByText('[click me](javascript:', { exact: false }).or(page.getByText('click me'))).toBeVisible();
  // the preview: the report in a frame that runs nothing
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /Export/ });
  const frame = dialog.getByTestId('report-preview');
  await expect(frame).toBeVisible({ timeout: 20_000 });
  await expect(frame).toHaveAttribute('sandbox', '');
  const preview = page.frameLocator('[data-testid="report-preview"]');
  await expect(preview.locator('h1')).toHaveText('<b>bold</b> & "quoted" study');
  await expect(preview.locator('script, img, iframe, a[href^="javascript"]')).toHaveCount(0);

  // the exported file, downloaded as a user would
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export HTML report' }).click();
  const file = testInfo.outputPath('hostile.html');
  await (await download).saveAs(file);
  const { report, requests, text } = await openReport(page, file);
  expect(text).toContain('<script>window.__pwned = "script"</script>');
  expect(await report.locator('script, img, iframe, object, embed').count()).toBe(0);
  expect(await report.locator('a[href^="javascript"], [onerror], [onload]').count()).toBe(0);
  await report.locator('details summary').first().click(); // unfold the raw text: still text
  await expect(report.locator('pre.raw').first()).toContainText('<script>window.__pwned="capture"</script>');
  expect(await report.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(requests).toEqual([pathToFileURL(file).href]);
  await report.close();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(existsSync(file)).toBe(true);
});

test('a bundle exported from the UI comes back through Import bundle… with its study intact', async ({ page }, testInfo) => {
  const api = pageApi(page);
  await buildCaseB(api);
  await page.reload();
  await openStudy(page, CASE_B);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /Export/ });
  await expect(page.frameLocator('[data-testid="report-preview"]').locator('h1')).toHaveText(CASE_B, { timeout: 20_000 });
  await dialog.screenshot({ path: testInfo.outputPath('export-dialog.png') });
  await dialog.getByRole('radio', { name: /Bundle \(\.eln\)/ }).check();
  await expect(dialog.getByTestId('bundle-contents')).toContainText('5 experiments');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export Bundle (.eln)' }).click();
  const file = testInfo.outputPath('case-b.eln');
  await (await download).saveAs(file);
  await expect(dialog).toBeHidden();

  // the study goes to the trash, then comes back from the bundle
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: new RegExp(CASE_B) })).toHaveCount(0);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import bundle…' }).click();
  await (await chooser).setFiles(file);
  await expect(page.getByRole('heading', { level: 1, name: CASE_B })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`case-b.eln: “${CASE_B}” back from the trash; the notebook held everything else in it.`)).toBeVisible();
  const cells = page.getByTestId('verdict-table').getByTestId('verdict-row').filter({ hasText: 'QPS' }).getByTestId('verdict-cell');
  await expect(cells).toHaveText(['6,000 req/s ✗', '20.0k req/s ✗', '18.0k req/s ✗', '22.0k req/s ✗', '50.0k req/s ✓']);

  // a second import adds nothing — also when the bundle is dropped on an experiment among captures
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import bundle…' }).click();
  await (await again).setFiles(file);
  await expect(page.getByText('the notebook already holds everything in it')).toBeVisible({ timeout: 20_000 });
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  while (await dismiss.count()) await dismiss.first().click();
  const detail = experimentDetail(page, 'writes through a Redis FIFO queue');
  await dropFiles(detail.getByRole('button', { name: /Drop captures on/ }), [file]);
  await expect(page.getByText('case-b.eln: the notebook already holds everything in it')).toBeVisible({ timeout: 20_000 });
  await expect(captureLinks(detail)).toHaveCount(0);
});
