/**
 * A stored monitor's chart always draws (issue 6): the dimension pickers narrow one after the
 * other, so locust's Aggregated row (which has no method) is drawn by default, and picking a
 * pidstat command moves the pid to one of its own processes instead of leaving another's.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addExperiment, captureLinks, createStudy, dropFiles } from './support/ui';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures');
const LOCUST = path.join(FIXTURES, 'locust', 'stats_history.csv');
const PIDSTAT = path.join(FIXTURES, 'pidstat', 'u-1-2.txt');

/** The chart is drawn, from some points (not "0 points"). */
async function expectChartWithPoints(page: Page): Promise<void> {
  await expect(page.getByTestId('series-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('series-points')).toHaveText(/^[1-9][\d,]* points|of [1-9][\d,]* points/);
}

test('monitor charts: pickers narrow progressively and a chart with points is always drawn', async ({ page }) => {
  await createStudy(page, 'pickers');
  const e = await addExperiment(page, 'monitors');
  await dropFiles(e.getByRole('button', { name: /Drop captures on monitors/ }), [LOCUST, PIDSTAT]);
  await expect(captureLinks(e)).toHaveCount(2);

  // locust's history: endpoint defaults to Aggregated, which has no method: no method picker
  await e.getByRole('button', { name: 'stats_history.csv', exact: true }).click();
  await page.getByRole('tab', { name: 'Charts' }).click();
  await expect(page.getByLabel('endpoint')).toHaveValue('Aggregated');
  await expect(page.getByLabel('method')).toHaveCount(0);
  await expectChartWithPoints(page);
  // every column draws by default
  const columns = await page.getByLabel('Column').locator('option').allTextContents();
  expect(columns.length).toBeGreaterThan(5);
  for (const label of columns.slice(0, 4)) {
    await page.getByLabel('Column').selectOption({ label });
    await expect(page.getByLabel('endpoint')).toHaveValue('Aggregated');
    await expectChartWithPoints(page);
  }
  // another endpoint: its method appears, chosen, and the chart still draws
  await page.getByLabel('Column').selectOption({ index: 1 });
  const endpoints = await page.getByLabel('endpoint').locator('option').allTextContents();
  const other = endpoints.find((t) => t.startsWith('/'))!;
  await page.getByLabel('endpoint').selectOption(other);
  await expect(page.getByLabel('method')).toHaveValue('GET');
  await expectChartWithPoints(page);

  // pidstat: command first; picking nginx moves pid to nginx's own
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('button', { name: 'pickers › monitors' }).click();
  await e.getByRole('button', { name: 'u-1-2.txt', exact: true }).click();
  await page.getByRole('tab', { name: 'Charts' }).click();
  await expectChartWithPoints(page);
  const pickers = page.locator('.series-controls label > span');
  await expect(pickers).toHaveText(['Column', 'command', 'pid']);
  await page.getByLabel('command').selectOption('nginx');
  await expect(page.getByLabel('pid')).toHaveValue('8530');
  await expect(page.getByLabel('pid').locator('option')).toHaveText(['8530']);
  await expectChartWithPoints(page);
  await page.getByLabel('command').selectOption('wrk');
  await expect(page.getByLabel('pid')).toHaveValue('9268');
  await expectChartWithPoints(page);
});
