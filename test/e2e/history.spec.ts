/**
 * The view is in the URL (renderer/src/app/routeUrl.ts): Back and Forward (the browser's buttons,
 * Alt+← / Alt+→ in both hosts) step between views, a reload finds the same one, and a bookmark of
 * side by side opens the two experiments. Choosing another experiment of the same study replaces
 * the history entry, so Back leaves the study rather than stepping through every selection.
 */
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { addExperiment, callApi, createStudy } from './support/ui';

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Notebook' }).getByRole('button', { name });

test('back, forward and a reload keep the view; a bookmark of side by side opens the two experiments', async ({ page }) => {
  await nav(page, 'Captures').click();
  await expect(page).toHaveURL(/#\/captures$/);
  await createStudy(page, 'history study');
  await addExperiment(page, 'baseline');
  await addExperiment(page, 'step one');
  await expect(page).toHaveURL(/#\/study\/\d+\/experiment\/\d+$/);
  const ids = await callApi<{ id: number; title: string }[]>(page, 'experimentIndex');
  const first = ids.find((e) => e.title === 'baseline')!.id;
  const second = ids.find((e) => e.title === 'step one')!.id;
  // choosing the experiments of the study replaced the history entry: Back leaves the study
  await page.goBack();
  await expect(h1(page, 'Captures')).toBeVisible();
  await page.goForward();
  await expect(h1(page, 'history study')).toBeVisible();

  // a reload finds the study and its selected experiment
  const studyUrl = page.url();
  await page.reload();
  await expect(h1(page, 'history study')).toBeVisible();
  expect(page.url()).toBe(studyUrl);

  // other views, then back and forward through them
  await nav(page, 'Trash').click();
  await expect(h1(page, 'Trash')).toBeVisible();
  await expect(page).toHaveURL(/#\/trash$/);
  await nav(page, 'Captures').click();
  await expect(h1(page, 'Captures')).toBeVisible();
  await page.goBack();
  await expect(h1(page, 'Trash')).toBeVisible();
  await page.goBack();
  await expect(h1(page, 'history study')).toBeVisible();
  await page.goForward();
  await expect(h1(page, 'Trash')).toBeVisible();
  // the keys do the same, in the desktop app too
  await page.locator('#main').focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(h1(page, 'history study')).toBeVisible();
  await page.locator('#main').focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(h1(page, 'Trash')).toBeVisible();

  // a bookmark of two experiments side by side, opened by a reload
  await page.evaluate((h) => { window.location.hash = h; }, `#/compare?a=${first}&b=${second}`);
  await page.reload();
  await expect(h1(page, 'Side by side')).toBeVisible();
  const table = page.getByTestId('metric-deltas').or(page.getByText('Neither experiment has results.'));
  await expect(table).toBeVisible();
  await expect(page.getByLabel('Experiment A')).toHaveValue(String(first));
  await expect(page.getByLabel('Experiment B')).toHaveValue(String(second));

  // a bookmark of a study that no longer exists says so
  await page.evaluate(() => { window.location.hash = '#/study/987654'; });
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('study 987654 does not exist (it may have been deleted)');

  // a link that names nothing Tunebook knows opens the home view
  await page.evaluate(() => { window.location.hash = '#/study/banana'; });
  await page.reload();
  await expect(page).toHaveURL(/#\/study\/banana$/);
  await expect(h1(page, 'history study')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Studies' })).toBeVisible();
});
