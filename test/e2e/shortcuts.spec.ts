/**
 * Keyboard shortcuts: each one in the Keyboard shortcuts sheet does its action; the sheet lists
 * exactly them; none fires while typing in a text field (but Ctrl+K) or while a dialog is open.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { addExperiment, addMetric, captureLinks, createStudy, experimentDetail } from './support/ui';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIO = path.join(HERE, '..', 'fixtures', 'captures', 'fio', 'fio-randwrite-4k-qd64-j64.txt');

const LABELS = ['New experiment', 'Add result', 'Attach captures', 'Compare side by side', 'Search', 'Undo', 'Back', 'Forward', 'Keyboard shortcuts'];

/** Leave any text field: the focus on the main view, as after a click on it. */
async function outOfFields(page: Page) {
  await page.locator('#main').focus();
}

const sheet = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });
const search = (page: Page) => page.getByRole('combobox', { name: 'Search notebook' });

test('the sheet lists every shortcut with its keys, opens with ?, F1 and its button, and blocks the others', async ({ page }) => {
  await outOfFields(page);
  await page.keyboard.press('Shift+Slash'); // "?"
  await expect(sheet(page)).toBeVisible();
  const rows = sheet(page).getByTestId('shortcut-row');
  await expect(rows.locator('.shortcut-label')).toHaveText(LABELS);
  await expect(rows.filter({ hasText: 'Search' }).locator('kbd kbd')).toHaveText(['Ctrl', 'K', '/']);
  await expect(rows.filter({ hasText: 'Undo' }).locator('kbd kbd')).toHaveText(['Ctrl', 'Z']);
  await expect(rows.filter({ hasText: 'New experiment' }).locator('kbd kbd')).toHaveText(['Alt', 'N']);
  await expect(rows.filter({ hasText: 'Back' }).locator('kbd kbd')).toHaveText(['Alt', '←']);
  // while the sheet is open, the others wait (Ctrl+K would otherwise take the focus to search)
  await page.keyboard.press('Control+KeyK');
  await expect(search(page)).not.toBeFocused();
  await expect(sheet(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet(page)).toBeHidden();

  await page.keyboard.press('F1');
  await expect(sheet(page)).toBeVisible();
  await sheet(page).getByRole('button', { name: 'Close' }).click();
  await expect(sheet(page)).toBeHidden();

  await page.getByRole('navigation', { name: 'Help' }).getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(sheet(page)).toBeVisible();
  await expect(sheet(page).getByTestId('shortcut-row')).toHaveCount(LABELS.length);
});

test('each shortcut does its action', async ({ page }) => {
  // without a study, New experiment says what it needs
  await outOfFields(page);
  await page.keyboard.press('Alt+KeyN');
  await expect(page.getByText('Open a study to add an experiment to it.')).toBeVisible();

  await createStudy(page, 'shortcut study');
  await outOfFields(page);
  await page.keyboard.press('Alt+KeyN');
  const title = page.getByRole('form', { name: 'Add experiment' }).getByLabel('New experiment title');
  await expect(title).toBeFocused();
  await title.fill('Baseline');
  await page.keyboard.press('Enter');
  const detail = experimentDetail(page, 'Baseline');
  await expect(detail).toBeVisible();

  await outOfFields(page);
  await page.keyboard.press('Alt+KeyR');
  await expect(detail.getByRole('form', { name: 'Add metric' }).getByLabel('Metric')).toBeFocused();

  await outOfFields(page);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Control+KeyI');
  await (await chooser).setFiles(FIO);
  await expect(captureLinks(detail)).toHaveCount(1, { timeout: 20_000 });

  await outOfFields(page);
  await page.keyboard.press('Slash');
  await expect(search(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await title.focus();
  await page.keyboard.press('Control+KeyK'); // Ctrl+K also from a text field
  await expect(search(page)).toBeFocused();
  await page.keyboard.press('Escape');

  await addMetric(detail, { name: 'requests_per_second', value: '140', unit: '1/s', better: 'higher', primary: true });
  const metric = detail.getByTestId('metric-row').filter({ hasText: 'requests_per_second' });
  await expect(metric).toHaveCount(1);
  await outOfFields(page);
  await page.keyboard.press('Control+KeyZ');
  await expect(metric).toHaveCount(0);

  await page.keyboard.press('Alt+KeyC');
  await expect(page.getByRole('heading', { level: 1, name: 'Side by side' })).toBeVisible();
  // the selected experiment is A
  const a = page.getByRole('combobox', { name: 'Experiment A' });
  await expect.poll(() => a.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')).toContain('Baseline');
  await expect(page.getByRole('combobox', { name: 'Experiment B' })).toHaveValue('');
});

test('shortcuts typed in a text field are typing, not actions', async ({ page }) => {
  await createStudy(page, 'typing study');
  const detail = await addExperiment(page, 'Baseline');
  await addMetric(detail, { name: 'requests_per_second', value: '140', unit: '1/s', better: 'higher', primary: true });
  const metric = detail.getByTestId('metric-row').filter({ hasText: 'requests_per_second' });

  const title = page.getByRole('form', { name: 'Add experiment' }).getByLabel('New experiment title');
  await title.focus();
  await page.keyboard.type('a/b?');
  await expect(title).toHaveValue('a/b?');
  await expect(sheet(page)).toBeHidden();
  await expect(search(page)).not.toBeFocused();

  for (const key of ['Alt+KeyR', 'Alt+KeyC', 'Control+KeyZ']) await page.keyboard.press(key);
  await expect(title).toBeFocused();
  await expect(page.getByRole('heading', { level: 1, name: 'typing study' })).toBeVisible(); // Alt+C did not go to Side by side
  await expect(metric).toHaveCount(1); // Ctrl+Z was the field's own undo, not the notebook's
  await expect(sheet(page)).toBeHidden();

  // Ctrl+I in a text field opens no file chooser
  let chose = false;
  page.on('filechooser', () => { chose = true; });
  await page.keyboard.press('Control+KeyI');
  await page.keyboard.press('F1'); // F1 types nothing, so it works in a field too: once the sheet is open, Ctrl+I was handled
  await expect(sheet(page)).toBeVisible();
  expect(chose).toBe(false);
});
