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

test('a finding says what to try, and its suggestion becomes a planned experiment with its config change', async ({ page }) => {
  test.setTimeout(90_000);
  await page.getByRole('button', { name: 'Open the example notebook' }).click();
  await expect(page.getByRole('navigation', { name: 'Studies' }).locator('[data-focus-group="studies"]')).toHaveCount(3, { timeout: 30_000 });
  await openStudy(page, 'PHP health-check API: 140 → 286 req/s');
  await page.getByTestId('experiment-item').first().click();
  await page.getByText('strace-c-f-python-stat-storm.txt').first().click();
  const finding = page.getByTestId('capture-finding').filter({ hasText: 'syscall.stat-storm' });
  await finding.getByText('What it means, what to try').click();
  await expect(finding.getByTestId('finding-advice')).toContainText('validate_timestamps off');
  await expect(finding.getByTestId('finding-advice')).toContainText('Risk');
  await finding.getByRole('button', { name: /Plan “opcache: stop revalidating timestamps” as an experiment/ }).click();
  const items = page.getByTestId('experiment-item');
  await expect(items).toHaveCount(4);
  await expect(items.nth(3)).toContainText('opcache: stop revalidating timestamps');
  const study = await callApi<{ experiments: { title: string; status: string; configChanges: { key: string; after: string }[] }[] }>(page, 'getStudy', 1);
  const planned = study.experiments.find((e) => e.status === 'planned')!;
  expect(planned.configChanges).toEqual([expect.objectContaining({ key: 'opcache.validate_timestamps', after: '0' })]);
});
