/**
 * Repeated runs typed on each step: the value is their median, the spread is shown, and a step
 * whose change lies within the runs' spread is marked "within noise". An experiment hidden from
 * the charts stays hidden after a reload (kept with the study).
 */
import { expect, test } from './support/fixtures';
import { addExperiment, addMetric, createStudy, timelineRows } from './support/ui';

test('repeated runs: the median, the spread, and a change within the noise', async ({ page }) => {
  await createStudy(page, 'health check: is it noise?');
  for (const [title, runs] of [['baseline', ['140', '150', '138']], ['pm.max_children 64', ['146', '141', '152']], ['opcache', ['205', '199']]] as const) {
    const d = await addExperiment(page, title);
    for (const [i, v] of runs.entries()) await addMetric(d, { name: 'requests_per_second', value: `${v} req/s`, unit: '', primary: i === 0 });
  }
  const rows = timelineRows(page);
  await expect(rows.nth(0).getByTestId('timeline-value')).toContainText('140 req/s');
  await expect(rows.nth(0).getByTestId('timeline-runs')).toHaveText('median of 3: 138 req/s–150 req/s');
  await expect(rows.nth(1).getByTestId('timeline-value')).toContainText('146 req/s');
  await expect(rows.nth(1).getByTestId('not-significant')).toHaveText('within noise');
  await expect(rows.nth(2).getByTestId('timeline-value')).toContainText('202 req/s');
  await expect(rows.nth(2).getByTestId('not-significant')).toHaveCount(0);

  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(chart.locator('.scatterlayer .point')).toHaveCount(3);
  await expect(chart.locator('.errorbar')).toHaveCount(3); // the spread of each step's runs
  await page.getByRole('checkbox', { name: 'Show pm.max_children 64 in the charts' }).uncheck();
  await expect(chart.locator('.scatterlayer .point')).toHaveCount(2);
  await page.reload();
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /is it noise/ }).click();
  await expect(page.getByTestId('chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('chart').locator('.scatterlayer .point')).toHaveCount(2);
  await expect(page.getByRole('checkbox', { name: 'Show pm.max_children 64 in the charts' })).not.toBeChecked();
});
