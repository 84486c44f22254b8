/**
 * User text reaches the plotly chart as text: an experiment title or a requirement label with
 * markup in it is drawn literally, never as a link or styled element.
 */
import { expect, test } from './support/fixtures';
import { addExperiment, addMetric, createStudy, setRequirements } from './support/ui';

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
