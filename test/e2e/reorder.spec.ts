/** Experiments keep their order; Alt+ArrowUp/Down moves the focused one (moveExperiment). */
import { expect, test } from './support/fixtures';
import { addExperiment, createStudy } from './support/ui';

test('reorder experiments with the keyboard', async ({ page }) => {
  await createStudy(page, 'ordering');
  for (const t of ['Baseline', 'ulimit -n 100001', 'sysctl tcp_tw_reuse']) await addExperiment(page, t);
  const list = page.getByTestId('experiment-item');
  const titles = () => list.locator('.exp-title').allTextContents();
  await expect.poll(titles).toEqual(['Baseline', 'ulimit -n 100001', 'sysctl tcp_tw_reuse']);

  const item = page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('button', { name: /^sysctl tcp_tw_reuse/ });
  await item.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(titles).toEqual(['Baseline', 'sysctl tcp_tw_reuse', 'ulimit -n 100001']);
  await expect(item).toBeFocused(); // focus follows the moved item, so it can be pressed again
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(titles).toEqual(['sysctl tcp_tw_reuse', 'Baseline', 'ulimit -n 100001']);
  await page.keyboard.press('Alt+ArrowUp'); // already first: nothing happens
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(titles).toEqual(['Baseline', 'sysctl tcp_tw_reuse', 'ulimit -n 100001']);

  // the order is stored: the timeline (from the back end) agrees, also after a reload
  await expect(page.getByTestId('timeline-row').nth(1)).toContainText('sysctl tcp_tw_reuse');
  await page.reload();
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /ordering/ }).click();
  await expect.poll(titles).toEqual(['Baseline', 'sysctl tcp_tw_reuse', 'ulimit -n 100001']);
});

test('reorder experiments by dragging', async ({ page }) => {
  await createStudy(page, 'drag ordering');
  for (const t of ['one', 'two', 'three']) await addExperiment(page, t);
  const list = page.getByTestId('experiment-item');
  const titles = () => list.locator('.exp-title').allTextContents();
  await list.nth(2).dragTo(list.nth(0), { targetPosition: { x: 20, y: 3 } });
  await expect.poll(titles).toEqual(['three', 'one', 'two']);
  await expect(page.getByTestId('timeline-row').nth(0)).toContainText('three');
});
