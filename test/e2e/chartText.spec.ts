/**
 * User text reaches the plotly chart as text: an experiment title or a requirement label with
 * markup in it is drawn literally, never as a link or styled element.
 */
import { expect, test } from './support/fixtures';
import { addExperiment, addMetric, callApi, createStudy, openStudy, setRequirements } from './support/ui';

test('markup in titles and goal labels is drawn as text in the chart', async ({ page }) => {
  await createStudy(page, 'chart text');
  await setRequirements(page, [{ metric: 'requests_per_second', comparator: '>=', threshold: '100', unit: '1/s', label: '<b>goal</b>' }]);
  const title = '<a href="https://example.com/x">click</a>';
  const e = await addExperiment(page, title);
  await addMetric(e, { name: 'requests_per_second', value: '140', unit: '1/s', better: 'higher', primary: true });

  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  // no link, no bold: plotly did not read the text as its pseudo-HTML
  await expect(chart.locator('a')).toHaveCount(0);
  await expect(chart.locator('text', { hasText: '<b>goal</b>' })).toHaveCount(1);
  await expect(chart.locator('.xtick text').first()).toContainText('<a href="https://example.'); // (long titles are shortened with …)
});

test('a long study keeps one point per experiment and thins its axis labels so each stays readable', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 900 });
  const study = await callApi<{ id: number }>(page, 'createStudy', { title: 'a long study' });
  // 50 steps (still drawn as titled categories): each label cut to the 2 characters it would have room for reads as nothing
  for (let i = 0; i < 50; i++) {
    const e = await callApi<{ id: number }>(page, 'createExperiment', study.id, { title: `Raise the worker pool size to ${i + 1}`, status: 'kept' });
    await callApi(page, 'addResultMetric', e.id, { name: 'requests_per_second', value: 100 + i, unit: '1/s', better: 'higher', primary: true });
  }
  await page.reload();
  await openStudy(page, 'a long study');
  const chart = page.getByTestId('chart').first();
  await expect(chart).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  const points = chart.locator('.scatterlayer .trace').first().locator('.points path');
  await expect(points).toHaveCount(50);
  const xs = await points.evaluateAll((els) => els.map((el) => el.getAttribute('transform')?.match(/translate\(([\d.]+)/)?.[1]));
  expect(new Set(xs).size).toBe(50);
  const ticks = await chart.locator('.xtick text').allTextContents();
  expect(ticks.length).toBeGreaterThan(5);
  expect(ticks.length).toBeLessThan(30);
  expect(new Set(ticks).size).toBe(ticks.length);
  for (const t of ticks) expect(t).toMatch(/^(B|\d+)\. Ra/);
});
