/** Studies: create, rename, goal, delete with Undo (restoreStudy). */
import { expect, test } from './support/fixtures';
import { addExperiment, createStudy } from './support/ui';

test('rename a study, edit its goal, delete it and undo', async ({ page }) => {
  await createStudy(page, 'random vs sequential writes', 'Explain the IOPS gap on vda.');
  await addExperiment(page, 'fio randwrite 4k');
  const studies = page.getByRole('navigation', { name: 'Studies' });

  // rename (keyboard: Enter saves)
  await page.getByRole('button', { name: 'Rename' }).click();
  const title = page.getByRole('textbox', { name: 'Study title' });
  await expect(title).toBeFocused();
  await title.fill('virtio disk: random vs sequential writes');
  await title.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'virtio disk: random vs sequential writes' })).toBeVisible();
  await expect(studies.getByRole('button', { name: /virtio disk/ })).toBeVisible();

  // Escape cancels a rename
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Study title' }).fill('not this');
  await page.getByRole('textbox', { name: 'Study title' }).press('Escape');
  await expect(page.getByRole('heading', { level: 1, name: 'virtio disk: random vs sequential writes' })).toBeVisible();

  // goal
  await page.getByLabel('Goal').fill('Explain why randwrite gives 2197 IOPS and write 43k IOPS on the same disk.');
  await page.getByRole('button', { name: 'Save goal' }).click();
  await expect(page.getByRole('button', { name: 'Save goal' })).toBeHidden();
  await page.reload();
  await studies.getByRole('button', { name: /virtio disk/ }).click();
  await expect(page.getByLabel('Goal')).toHaveValue(/2197 IOPS/);

  // delete, then Undo from the toast
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(studies.getByRole('button', { name: /virtio disk/ })).toHaveCount(0);
  const toast = page.getByRole('status').filter({ hasText: 'deleted' });
  await expect(toast).toContainText('virtio disk: random vs sequential writes');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'virtio disk: random vs sequential writes' })).toBeVisible();
  await expect(studies.getByRole('button', { name: /virtio disk/ })).toContainText('1 exp.');
  await expect(page.getByTestId('timeline-row')).toHaveCount(1);
});

test('delete and undo an experiment; failed and reverted stay visible', async ({ page }) => {
  await createStudy(page, 'Python service to 50k QPS');
  await addExperiment(page, 'Redis FIFO queue for writes');
  await addExperiment(page, 'Cache all configs in Redis');
  await addExperiment(page, 'tcp_tw_recycle = 1');

  const form = page.getByRole('region', { name: 'Experiment tcp_tw_recycle = 1' }).getByRole('form', { name: 'Experiment details' });
  await form.getByLabel('Status').selectOption('reverted');
  await form.getByRole('button', { name: 'Save experiment' }).click();
  await expect(page.getByTestId('timeline-row').nth(2)).toContainText('reverted');

  await page.getByRole('button', { name: 'Cache all configs in Redis' }).first().click();
  const detail = page.getByRole('region', { name: 'Experiment Cache all configs in Redis' });
  await detail.getByLabel('Status').selectOption('failed');
  await detail.getByRole('button', { name: 'Save experiment' }).click();
  await expect(page.getByTestId('timeline-row').nth(1)).toContainText('failed');
  await expect(page.getByTestId('timeline-row')).toHaveCount(3);

  await detail.getByRole('button', { name: 'Delete experiment' }).click();
  await expect(page.getByTestId('timeline-row')).toHaveCount(2);
  await page.getByRole('status').filter({ hasText: 'Cache all configs in Redis' }).getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('timeline-row')).toHaveCount(3);
  await expect(page.getByTestId('timeline-row').nth(1)).toContainText('Cache all configs in Redis');
});
