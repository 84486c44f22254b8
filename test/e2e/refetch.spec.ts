/**
 * The window loads only what a change touches (issue 9): a write is followed by one reload of what
 * shows it, not two (after the call and again on its echo); editing one experiment loads that
 * experiment, never the whole study; a change to the study's order reloads the study's outline.
 * Counted on the HTTP calls of browser mode.
 */
import type { Page } from './support/fixtures';
import { expect, test } from './support/fixtures';
import { addExperiment, callApi, createStudy, editExperiment, experimentDetail } from './support/ui';

/** The API methods the page calls from now on, in order. */
function recordCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    const m = /\/api\/(\w+)$/.exec(new URL(r.url()).pathname);
    if (m && r.method() === 'POST') calls.push(m[1]!);
  });
  return calls;
}

const count = (calls: string[], method: string) => calls.filter((c) => c === method).length;

test('an edit reloads what it touched once; one experiment\'s edit never reloads the study', async ({ page }) => {
  test.skip(test.info().project.name !== 'browser', 'counts the HTTP calls of browser mode');
  await createStudy(page, 'refetch');
  await addExperiment(page, 'baseline');
  await addExperiment(page, 'opcache on');
  await expect(page.getByTestId('experiment-item')).toHaveCount(2);

  // one experiment's fields: that experiment is loaded again (its detail, and its row of the outline), the study is not
  const calls = recordCalls(page);
  await editExperiment(page, 'opcache on', { notes: 'strace: stat() calls' });
  const form = experimentDetail(page, 'opcache on').getByRole('form', { name: 'Experiment details' });
  await form.getByLabel('Title').fill('opcache: stop revalidating');
  await form.getByRole('button', { name: 'Save experiment' }).click();
  await expect(page.getByTestId('experiment-item').nth(1)).toContainText('opcache: stop revalidating');
  await expect(experimentDetail(page, 'opcache: stop revalidating').getByTestId('notes-preview')).toContainText('stat() calls');
  await page.waitForTimeout(500); // an echo reload would come now
  // two edits: each loads that experiment (its detail, and its row of the outline), never the study
  expect(count(calls, 'updateExperiment')).toBe(2);
  expect(count(calls, 'studyOutline')).toBe(0);
  expect(count(calls, 'getStudy')).toBe(0);
  expect(count(calls, 'getExperiment')).toBeGreaterThanOrEqual(2);
  expect(count(calls, 'getExperiment')).toBeLessThanOrEqual(4);
  // the comparison (derived from every step) once per edit, not twice
  expect(count(calls, 'comparison')).toBe(2);

  // a move changes the study's order: its outline is loaded once
  calls.length = 0;
  const second = page.getByTestId('experiment-item').nth(1).getByRole('button').first();
  await second.focus();
  await second.press('Alt+ArrowUp');
  await expect(page.getByTestId('experiment-item').first()).toContainText('opcache: stop revalidating');
  await page.waitForTimeout(500);
  expect(count(calls, 'moveExperiment')).toBe(1);
  expect(count(calls, 'studyOutline')).toBe(1);
  expect(count(calls, 'comparison')).toBe(1);

  // a change made elsewhere (another client) reaches this window too, as one reload
  calls.length = 0;
  const study = (await callApi<{ id: number; title: string }[]>(page, 'listStudies')).find((s) => s.title === 'refetch')!;
  await callApi(page, 'createExperiment', study.id, { title: 'from the CLI' });
  await expect(page.getByTestId('experiment-item')).toHaveCount(3);
  await page.waitForTimeout(500);
  expect(count(calls, 'studyOutline')).toBe(1);

  // deleting an experiment, then the study: nothing asks for what went to the trash (no 404)
  const missing: string[] = [];
  page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  await page.getByTestId('experiment-item').first().getByRole('button').first().click();
  await page.getByRole('button', { name: 'Delete experiment' }).click();
  await expect(page.getByTestId('experiment-item')).toHaveCount(2);
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /refetch/ })).toHaveCount(0);
  await page.waitForTimeout(1000);
  expect(missing).toEqual([]);
});
