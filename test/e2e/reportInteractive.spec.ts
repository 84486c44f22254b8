/**
 * The HTML report's interactive charts in Chromium: exported from the Export dialog with
 * "Interactive charts" ticked, the file opened offline in a page of its own — nothing but the
 * file is requested, nothing violates its policy, no dialog opens — and "Interactive chart" draws
 * the chain with plotly (case A's 140, 205 and 286 req/s, hover, zoom), then gives the static SVG
 * back. A hostile study's interactive report runs nothing of its text.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ExportResult } from '../../shared/model';
import { buildCaseA, CASE_A } from '../fixtures/caseStudies';
import type { AnyApi } from '../fixtures/caseStudies';
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { callApi, openStudy } from './support/ui';

const pageApi = (page: Page): AnyApi => new Proxy({}, { get: (_t, m: string) => (...a: unknown[]) => callApi(page, m, ...a) }) as AnyApi;

interface Opened { report: Page; requests: string[]; dialogs: string[]; violations: string[]; errors: string[]; close: () => Promise<void> }

/**
 * Opens a report file in a page of its own — offline in browser mode — recording every request,
 * dialog, CSP violation (the event and the console's "Refused to …") and script error.
 */
async function openOffline(page: Page, file: string): Promise<Opened> {
  const browser = page.context().browser();
  const context = browser ? await browser.newContext({ offline: true }) : page.context();
  const report = await context.newPage();
  const out: Omit<Opened, 'report' | 'close'> = { requests: [], dialogs: [], violations: [], errors: [] };
  report.on('request', (r) => out.requests.push(r.url()));
  report.on('dialog', (d) => { out.dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss(); });
  report.on('pageerror', (e) => out.errors.push(e.message));
  report.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) out.violations.push(m.text());
    else if (m.type() === 'error') out.errors.push(m.text());
  });
  await report.exposeFunction('__cspViolation', (v: string) => { out.violations.push(v); });
  await report.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await report.goto(pathToFileURL(file).href);
  return { report, ...out, close: async () => { await report.close(); if (browser) await context.close(); } };
}

/** What plotly drew into a chart: its traces' y values, from the element plotly keeps them on. */
const drawnY = (report: Page, at = 0) => report.locator('.chart-plotly').nth(at).evaluate((el) => (el as unknown as { data: { y: (number | null)[] }[] }).data.map((t) => t.y));

test('an interactive report from the Export dialog draws case A with plotly, offline, running nothing else', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await buildCaseA(pageApi(page));
  await page.reload();
  await openStudy(page, CASE_A);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /Export/ });
  await expect(page.frameLocator('[data-testid="report-preview"]').locator('h1')).toHaveText(CASE_A, { timeout: 20_000 });
  // the option is the HTML report's, and says what it costs
  const option = dialog.getByRole('checkbox', { name: /Interactive charts/ });
  await expect(option).not.toBeChecked();
  await expect(dialog.getByText(/Adds plotly\.js to the file, about [\d.]+ (MB|MiB)/)).toBeVisible();
  await dialog.getByRole('radio', { name: /Markdown/ }).check();
  await expect(option).toBeHidden();
  await dialog.getByRole('radio', { name: /HTML report/ }).check();
  await option.check();
  await dialog.screenshot({ path: testInfo.outputPath('export-dialog-interactive.png') });
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export HTML report' }).click();
  const file = testInfo.outputPath('case-a-interactive.html');
  await (await download).saveAs(file);

  const r = await openOffline(page, file);
  const { report } = r;
  // before any click: the static chart, and a button to draw it interactively
  const figure = report.locator('figure.chart').first();
  await expect(figure.locator('svg[role="img"]')).toBeVisible();
  const button = figure.getByRole('button', { name: 'Interactive chart' });
  await expect(button).toBeVisible();
  await expect(report.locator('script:not([type])')).toHaveCount(2);
  await expect(report.locator('script[type="application/json"]')).toHaveCount(1);

  await button.click();
  const plot = figure.locator('.chart-plotly');
  await expect(plot.locator('.scatterlayer .point')).toHaveCount(3, { timeout: 20_000 });
  await expect(figure.locator('svg[role="img"]')).toBeHidden();
  expect(await drawnY(report)).toEqual([[140, 205, 286]]);
  await expect(plot.locator('.scatterlayer .textpoint')).toHaveText([/^140 req\/s/, /^205 req\/s/, /^286 req\/s/]);
  await expect(plot.locator('.gtitle')).toHaveText('Requests per second · requests_per_second');
  // the requirement line and its label
  await expect(plot.locator('.annotation-text')).toContainText('req/s');
  // hover: the step in full, its value and its changes
  await plot.locator('.scatterlayer .point').nth(1).hover({ force: true });
  await expect(plot.locator('.hoverlayer')).toContainText('205 req/s', { timeout: 5_000 });
  await expect(plot.locator('.hoverlayer')).toContainText('opcache.validate_timestamps');
  // zoom: a drag over the plot narrows the x axis
  const before = await plot.evaluate((el) => (el as unknown as { layout: { xaxis: { range: number[] } } }).layout.xaxis.range.slice());
  const box = (await plot.locator('.nsewdrag').boundingBox())!;
  await report.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.2);
  await report.mouse.down();
  await report.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.8, { steps: 8 });
  await report.mouse.up();
  await expect.poll(() => plot.evaluate((el) => (el as unknown as { layout: { xaxis: { range: number[] } } }).layout.xaxis.range.slice())).not.toEqual(before);
  await report.screenshot({ path: testInfo.outputPath('case-a-interactive.png') });

  // and back to the static chart
  await figure.getByRole('button', { name: 'Static chart' }).click();
  await expect(figure.locator('svg[role="img"]')).toBeVisible();
  await expect(plot).toBeHidden();

  expect(r.requests).toEqual([pathToFileURL(file).href]);
  expect(r.dialogs).toEqual([]);
  expect(r.violations).toEqual([]);
  expect(r.errors).toEqual([]);
  await r.close();
});

test('a hostile study\'s interactive report runs nothing of its text, and draws it as text', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const api = pageApi(page);
  const HOSTILE = '</script><script>alert(1)</script>';
  const IMG = '<img src=x onerror=alert(1)>';
  const study = await api.createStudy({ title: HOSTILE, goal: IMG }) as { id: number };
  await api.setRequirements(study.id, [{ metric: 'requests_per_second', comparator: '>=', threshold: 200, unit: 'req/s', label: '<a href="javascript:alert(1)">javascript:alert(1)</a>' }]);
  for (const [i, title] of [IMG, HOSTILE, 'javascript:alert(1)'].entries()) {
    const e = await api.createExperiment(study.id, { title, notes: `${HOSTILE}\n\n${IMG}`, status: 'kept' }) as { id: number };
    await api.addConfigChange(e.id, { scope: 'sysctl', key: `${HOSTILE}${i}`, before: IMG, after: '1', why: HOSTILE });
    await api.addResultMetric(e.id, { name: 'requests_per_second', value: 100 + 50 * i, unit: 'req/s', primary: true });
  }
  const r0 = await callApi<ExportResult>(page, 'exportStudy', study.id, { format: 'html', interactive: true });
  // 1.2 MB: fetched by the test's own client (an array of numbers through page.evaluate takes half a minute)
  const token = await page.evaluate(() => sessionStorage.getItem('tunebook.token') ?? '');
  const res = await page.request.get(new URL(`/api/download/${r0.download!}?token=${encodeURIComponent(token)}`, page.url()).href);
  expect(res.ok()).toBe(true);
  const file = testInfo.outputPath('hostile-interactive.html');
  writeFileSync(file, await res.body());

  const r = await openOffline(page, file);
  const { report } = r;
  await expect(report.locator('h1')).toHaveText(HOSTILE);
  await expect(report.locator('script')).toHaveCount(3);
  await report.getByRole('button', { name: 'Interactive chart' }).click();
  const plot = report.locator('.chart-plotly').first();
  await expect(plot.locator('.scatterlayer .point')).toHaveCount(3, { timeout: 20_000 });
  expect(await drawnY(report)).toEqual([[100, 150, 200]]);
  // the titles are drawn as typed: text, not elements or links
  await expect(plot.locator('.xtick text')).toHaveText([/^B\. <img src=x onerror/, /^1\. <\/script><script>/, /^2\. javascript:alert/]);
  await expect(plot.locator('.annotation-text')).toContainText('<a href="javascript:alert(1)">');
  await plot.locator('.scatterlayer .point').nth(0).hover({ force: true });
  await expect(plot.locator('.hoverlayer')).toContainText(IMG, { timeout: 5_000 });
  await expect(report.locator('img, iframe, object, embed, a[href^="javascript"], [onerror], [onload]')).toHaveCount(0);
  await expect(plot.locator('a')).toHaveCount(0);
  await report.waitForTimeout(300);
  expect(r.dialogs).toEqual([]);
  expect(r.violations).toEqual([]);
  expect(r.errors).toEqual([]);
  expect(r.requests).toEqual([pathToFileURL(file).href]);
  await r.close();
});
