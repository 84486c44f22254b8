/**
 * Nothing lost by a slip of the hand (issue 10): the trash holds deleted studies, experiments and
 * captures until it is emptied; Ctrl+Z takes back the last change (not inside a text field); a goal
 * being typed survives switching study and a reload.
 */
import { expect, test } from './support/fixtures';
import type { Locator, Page } from './support/fixtures';
import { addExperiment, captureLinks, createStudy, experimentDetail, openStudy, pasteCapture } from './support/ui';

const trashNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Notebook' }).getByRole('button', { name: /^Trash/ });
const trashItem = (page: Page, name: string): Locator => page.getByRole('list', { name: 'Trash' }).getByTestId('trash-item').filter({ hasText: name });
const undoKey = process.platform === 'darwin' ? 'Meta+z' : 'Control+z';

test('delete a study, an experiment and a capture; restore one, delete one forever, empty the trash', async ({ page }) => {
  await createStudy(page, 'old study');
  await addExperiment(page, 'old baseline');
  await createStudy(page, 'kept study');
  const base = await addExperiment(page, 'baseline');
  await pasteCapture(base, 'vmstat-1.txt', 'procs -----------memory---------- ---swap--\n r  b   swpd   free\n 1  0      0 812345\n');
  await expect(captureLinks(base)).toHaveCount(1);

  // a capture, an experiment, a study
  await base.getByRole('button', { name: 'Remove vmstat-1.txt' }).click();
  await expect(captureLinks(base)).toHaveCount(0);
  await addExperiment(page, 'step one');
  await experimentDetail(page, 'step one').getByRole('button', { name: 'Delete experiment' }).click();
  await expect(experimentDetail(page, 'step one')).toHaveCount(0);
  await openStudy(page, 'old study');
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /^old study/ })).toHaveCount(0);

  // the trash, reached from the sidebar with the keyboard, says how much it holds
  await expect(trashNav(page)).toHaveAccessibleName('Trash, 3 items');
  await trashNav(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Trash' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Trash' }).getByTestId('trash-item');
  await expect(items).toHaveCount(3);
  // newest first
  await expect(items.nth(0)).toContainText('old study');
  await expect(items.nth(0)).toContainText('with 1 experiment');
  await expect(items.nth(1)).toContainText('step one');
  await expect(items.nth(1)).toContainText('experiment of “kept study”');
  await expect(items.nth(2)).toContainText('vmstat-1.txt');
  await expect(items.nth(2)).toContainText('capture of “baseline” in “kept study”');

  // restore the experiment: back in its study, in its place
  await trashItem(page, 'step one').getByRole('button', { name: 'Restore step one' }).click();
  await expect(items).toHaveCount(2);
  await expect(trashNav(page)).toHaveAccessibleName('Trash, 2 items');
  await page.getByRole('status').filter({ hasText: '“step one” restored' }).getByRole('button', { name: 'Open' }).click();
  await expect(experimentDetail(page, 'step one')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('button', { name: /^step one/ })).toBeVisible();

  // delete the capture forever (asked first; Cancel keeps it)
  await trashNav(page).click();
  await trashItem(page, 'vmstat-1.txt').getByRole('button', { name: 'Delete vmstat-1.txt forever' }).click();
  let dialog = page.getByRole('dialog', { name: 'Delete “vmstat-1.txt” forever?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(items).toHaveCount(2);
  await trashItem(page, 'vmstat-1.txt').getByRole('button', { name: 'Delete vmstat-1.txt forever' }).click();
  dialog = page.getByRole('dialog', { name: 'Delete “vmstat-1.txt” forever?' });
  await dialog.getByRole('button', { name: 'Delete forever' }).click();
  await expect(items).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'deleted for good' })).toContainText('1 stored capture');

  // empty the trash
  await page.getByRole('button', { name: 'Empty trash…' }).click();
  dialog = page.getByRole('dialog', { name: 'Empty the trash?' });
  await expect(dialog).toContainText('1 item will be deleted for good');
  await dialog.getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Trash emptied' })).toContainText('1 study, 1 experiment');
  await expect(trashNav(page)).toHaveAccessibleName('Trash');
  await expect(page.getByRole('button', { name: 'Empty trash…' })).toBeDisabled();

  // nothing of it comes back after a reload; what was kept is there
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /^old study/ })).toHaveCount(0);
  await openStudy(page, 'kept study');
  await expect(page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('button', { name: /^(baseline|step one)/ })).toHaveCount(2);
});

test('Ctrl+Z restores a deleted experiment, but in a text field it is the field’s own undo', async ({ page }) => {
  await createStudy(page, 'undo study');
  await addExperiment(page, 'baseline');
  await addExperiment(page, 'risky step');
  await experimentDetail(page, 'risky step').getByRole('button', { name: 'Delete experiment' }).click();
  await expect(experimentDetail(page, 'risky step')).toHaveCount(0);
  const deleted = page.getByRole('status').filter({ hasText: /^Experiment “risky step” deleted/ });
  await expect(deleted).toBeVisible();
  const list = page.getByRole('region', { name: 'Experiments', exact: true });
  await expect(list.getByRole('button', { name: /^risky step/ })).toHaveCount(0);

  // in a text field Ctrl+Z does not restore anything
  const title = experimentDetail(page, 'baseline').getByLabel('Title');
  await title.click();
  await page.keyboard.press(undoKey);
  await expect(list.getByRole('button', { name: /^risky step/ })).toHaveCount(0);

  // outside one it does, and the experiment is shown again
  await page.getByRole('heading', { level: 1, name: 'undo study' }).click();
  await page.keyboard.press(undoKey);
  await expect(experimentDetail(page, 'risky step')).toBeVisible();
  await expect(list.getByRole('button', { name: /^risky step/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Undone' })).toContainText('risky step');
  // the toast's Undo button and Ctrl+Z share one list: undone by the key, the toast offering it is gone
  await expect(deleted.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // the next Ctrl+Z takes back the change before: adding the experiment (it goes to the trash)
  await page.getByRole('heading', { level: 1, name: 'undo study' }).click();
  await page.keyboard.press(undoKey);
  await expect(list.getByRole('button', { name: /^risky step/ })).toHaveCount(0);
  await expect(trashNav(page)).toHaveAccessibleName('Trash, 1 item');

  // an edit is undone too: the study's title back to what it was
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Study title' }).fill('renamed study');
  await page.getByRole('textbox', { name: 'Study title' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'renamed study' })).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'renamed study' }).click();
  await page.keyboard.press(undoKey);
  await expect(page.getByRole('heading', { level: 1, name: 'undo study' })).toBeVisible();
});

test('a goal being typed survives switching study and a reload', async ({ page }) => {
  await createStudy(page, 'first study', 'the saved goal');
  await createStudy(page, 'second study');
  await openStudy(page, 'first study');
  const goal = page.getByLabel('Goal');
  await expect(goal).toHaveValue('the saved goal');
  await goal.fill('the saved goal, and half a thought');
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // another study, then back: the draft is there
  await openStudy(page, 'second study');
  await expect(goal).toHaveValue('');
  await openStudy(page, 'first study');
  await expect(goal).toHaveValue('the saved goal, and half a thought');

  // a reload: the page asks first, and the draft is offered back, marked as such
  const asked: string[] = [];
  page.on('dialog', (d) => { asked.push(d.type()); void d.accept(); });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await openStudy(page, 'first study');
  await expect(goal).toHaveValue('the saved goal, and half a thought');
  await expect(page.getByText('Unsaved draft kept from before')).toBeVisible();

  // saved: no draft any more, nothing asked on leaving
  await page.getByRole('button', { name: 'Save goal' }).click();
  await expect(page.getByRole('button', { name: 'Save goal' })).toBeHidden();
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await openStudy(page, 'first study');
  await expect(goal).toHaveValue('the saved goal, and half a thought');
  await expect(page.getByText(/Unsaved/)).toHaveCount(0);

  // Discard drops the draft for good
  await goal.fill('nonsense');
  await openStudy(page, 'second study');
  await openStudy(page, 'first study');
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(goal).toHaveValue('the saved goal, and half a thought');
  await page.reload();
  await openStudy(page, 'first study');
  await expect(goal).toHaveValue('the saved goal, and half a thought');
});

test('experiment notes being typed survive switching study and a reload; Ctrl+Z brings back a removed capture', async ({ page }) => {
  await createStudy(page, 'notes study');
  const d = await addExperiment(page, 'baseline');
  await pasteCapture(d, 'iostat-1.txt', 'Device  r/s  w/s\nvda  1.0  2197.0\n');
  await expect(captureLinks(d)).toHaveCount(1);
  await d.getByLabel(/^Notes/).fill('fio shows 2197 IOPS; next: check the queue depth');
  await expect(d.getByText('Unsaved changes')).toBeVisible();
  await createStudy(page, 'elsewhere');
  await openStudy(page, 'notes study');
  await expect(d.getByLabel(/^Notes/)).toHaveValue('fio shows 2197 IOPS; next: check the queue depth');
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await openStudy(page, 'notes study');
  await expect(d.getByLabel(/^Notes/)).toHaveValue('fio shows 2197 IOPS; next: check the queue depth');
  await expect(d.getByText('Unsaved draft kept from before')).toBeVisible();
  await d.getByRole('button', { name: 'Save experiment' }).click();
  await expect(d.getByRole('button', { name: 'Save experiment' })).toBeDisabled();

  await d.getByRole('button', { name: 'Remove iostat-1.txt' }).click();
  await expect(captureLinks(d)).toHaveCount(0);
  await page.getByRole('heading', { level: 1, name: 'notes study' }).click();
  await page.keyboard.press(undoKey);
  await expect(captureLinks(d)).toHaveCount(1);
  // the next Ctrl+Z takes back the notes' save
  await page.keyboard.press(undoKey);
  await expect(d.getByTestId('notes-preview')).toHaveCount(0);
  await expect(d.getByLabel(/^Notes/)).toHaveValue('');
});
