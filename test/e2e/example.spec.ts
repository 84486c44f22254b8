/**
 * The example notebook (issue 12): one click from the empty first screen opens the three case
 * studies, browsable, in a notebook of its own; the user's notebook is left as it was.
 */
import { expect, test } from './support/fixtures';
import { callApi, openStudy } from './support/ui';

test('the empty first screen opens the example notebook, and the user\'s notebook is left untouched', async ({ page, notebookPath }, testInfo) => {
  test.setTimeout(90_000);
  await page.getByRole('button', { name: 'Open the example notebook' }).click();
  const sidebar = page.getByRole('navigation', { name: 'Studies' });
  await expect(sidebar.locator('[data-focus-group="studies"]')).toHaveCount(3, { timeout: 30_000 });
  const info = await callApi<{ path: string }>(page, 'notebookInfo');
  expect(info.path).toMatch(/Example notebook\.tunebook$/);
  expect(info.path).not.toBe(notebookPath);

  // browse it: case A's chain, its evidence on the baseline
  await openStudy(page, 'PHP health-check API: 140 → 286 req/s');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  for (const v of ['140', '205', '286']) await expect(timeline).toContainText(v);
  await page.getByTestId('experiment-item').first().click();
  await expect(page.getByText('strace-c-f-python-stat-storm.txt').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('example-notebook.png') });

  // the user's own notebook opens again as it was: empty (its file was only closed, never written)
  await callApi(page, 'openNotebook', notebookPath, false);
  await expect(sidebar.getByText('No studies yet.')).toBeVisible();
  expect(await callApi(page, 'listStudies')).toEqual([]);
});
