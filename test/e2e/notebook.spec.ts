/** The notebook file: its path is shown; Open notebook… creates or opens another; recent list. */
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { createStudy } from './support/ui';

test('open a new notebook by path, then go back through the recent list', async ({ page, notebookPath, userDataDir }) => {
  await expect(page.getByTestId('notebook-path')).toContainText(path.basename(notebookPath));
  await createStudy(page, 'in the first notebook');

  const second = path.join(userDataDir, 'second.tunebook');
  await page.getByRole('button', { name: 'Open notebook…' }).click();
  let dialog = page.getByRole('dialog', { name: 'Open notebook' });
  await dialog.getByLabel('Notebook file path').fill(second);
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible(); // it does not exist and "create" is off
  await dialog.getByLabel('Create a new notebook if the file does not exist').check();
  await dialog.getByRole('button', { name: 'Open or create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('notebook-path')).toContainText('second.tunebook');
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByText('No studies yet.')).toBeVisible();
  // Back does not show the first notebook's study as if it were this one's (its id names nothing here)
  await expect(page).toHaveURL(/#\/$/);
  await page.goBack();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'in the first notebook' })).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'does not exist' })).toHaveCount(0);
  await expect(page.getByTestId('notebook-path')).toContainText('second.tunebook');

  await page.getByRole('button', { name: 'Open notebook…' }).click();
  dialog = page.getByRole('dialog', { name: 'Open notebook' });
  await dialog.getByRole('button', { name: notebookPath }).click();
  await expect(page.getByTestId('notebook-path')).toContainText(path.basename(notebookPath));
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /in the first notebook/ })).toBeVisible();
});
