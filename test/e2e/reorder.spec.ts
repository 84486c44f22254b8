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

test('a list read while a move is on its way does not put the experiment back under the keys', async ({ page }) => {
  test.skip(test.info().project.name !== 'browser', 'holds the HTTP calls of browser mode');
  await createStudy(page, 'in flight');
  for (const t of ['A', 'B', 'C']) await addExperiment(page, t);
  const list = page.getByTestId('experiment-item');
  const titles = () => list.locator('.exp-title').allTextContents();
  await expect.poll(titles).toEqual(['A', 'B', 'C']);

  // the study's read after the first move is held (it will tell [A, C, B]), and so is the second move
  let releaseRead!: () => void, releaseMove!: () => void;
  const readHeld = new Promise<void>((r) => { releaseRead = r; });
  const moveHeld = new Promise<void>((r) => { releaseMove = r; });
  let moves = 0, holdReads = false;
  await page.route('**/api/moveExperiment', async (route) => {
    moves++;
    if (moves === 1) { holdReads = true; await route.continue(); return; }
    await moveHeld;
    await route.continue();
  });
  await page.route('**/api/studyOutline', async (route) => {
    if (holdReads) {
      // the list as the server has it after the first move only, answered once the second move is under way
      const response = await route.fetch();
      await readHeld;
      await route.fulfill({ response });
      return;
    }
    await route.continue();
  });

  const c = page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('button', { name: /^C/ });
  await c.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(titles).toEqual(['A', 'C', 'B']);
  await page.keyboard.press('Alt+ArrowUp'); // held on its way
  await expect.poll(titles).toEqual(['C', 'A', 'B']);
  await expect.poll(() => moves).toBe(2);
  const read = page.waitForResponse('**/api/studyOutline');
  releaseRead();
  // the older list arrives while the second move is unanswered: the order on screen stays the moves'
  await read;
  await page.waitForTimeout(100); // (a render later)
  expect(await titles()).toEqual(['C', 'A', 'B']);
  await expect(c).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown'); // from first to second, not from second to third
  holdReads = false;
  releaseMove();
  await expect.poll(titles).toEqual(['A', 'C', 'B']);
  await page.reload();
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /in flight/ }).click();
  await expect.poll(titles).toEqual(['A', 'C', 'B']);
});
