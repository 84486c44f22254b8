/**
 * Issue 12, "What got in the way" in a new user's first hour: dialogs open with the focus in their
 * first field and give it back on closing; the focus lands on what was just created, or next to
 * what was just deleted; the study list keeps a stable order of the user's choice; a profile reads
 * as a machine; requirements read as statements with verdicts; truncated titles show in full on hover.
 */
import { expect, test } from './support/fixtures';
import type { Locator, Page } from './support/fixtures';
import { addExperiment, addMetric, createProfile, createStudy, openStudy, setRequirements } from './support/ui';

const studiesNav = (page: Page) => page.getByRole('navigation', { name: 'Studies' });
const studyRow = (page: Page, title: string) => studiesNav(page).getByRole('button', { name: new RegExp(`^${title}`) });
const experimentRow = (page: Page, title: string): Locator =>
  page.getByTestId('experiment-item').filter({ hasText: title }).getByRole('button');

test('every dialog opens in its first field, keeps the focus inside, and gives it back on Escape', async ({ page }) => {
  // New study: typing straight away goes into the title; Enter creates the study, focused in the list
  const newStudy = studiesNav(page).getByRole('button', { name: 'New study' });
  await newStudy.click();
  const dialog = page.getByRole('dialog', { name: 'New study' });
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await page.keyboard.type('health check QPS');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'health check QPS' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(studyRow(page, 'health check QPS')).toBeFocused();

  // a space typed first is a space in the title, not a click on Close
  await newStudy.click();
  await page.keyboard.type(' x');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue(' x');

  // Tab cycles inside the dialog: Close, Title, Goal, Cancel (Create is disabled while the title is blank)
  await dialog.getByLabel('Title').fill('');
  await dialog.getByLabel('Title').focus();
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Goal')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Title')).toBeFocused();

  // Escape closes it, and the focus is back on the button that opened it
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(newStudy).toBeFocused();

  // Open notebook…: the path field
  const openNotebook = page.getByRole('button', { name: 'Open notebook…' });
  await openNotebook.click();
  await expect(page.getByRole('dialog', { name: 'Open notebook' }).getByLabel('Notebook file path')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Open notebook' })).toBeHidden();
  await expect(openNotebook).toBeFocused();

  // Export…: the chosen format
  const exportButton = page.getByRole('button', { name: 'Export…' });
  await exportButton.click();
  const exportDialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(exportDialog.getByRole('radio', { name: /HTML report/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(exportDialog).toBeHidden();
  await expect(exportButton).toBeFocused();

  // Store on experiment… (Captures view): the study
  await page.getByRole('button', { name: 'Captures', exact: true }).click();
  await page.getByRole('textbox', { name: 'Paste capture' }).fill('net.core.somaxconn = 4096\nvm.swappiness = 10\n');
  await page.getByRole('button', { name: 'Parse', exact: true }).click();
  const store = page.getByRole('button', { name: 'Store on experiment…' });
  await store.click();
  const attach = page.getByRole('dialog', { name: /^Store/ });
  await expect(attach.getByLabel('Study')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(attach).toBeHidden();
  await expect(store).toBeFocused();

  // a confirmation of what cannot be undone starts on Cancel
  await openStudy(page, 'health check QPS');
  await page.getByRole('button', { name: 'Delete study' }).click();
  await page.getByRole('button', { name: /^Trash/ }).click();
  const forever = page.getByRole('button', { name: 'Delete health check QPS forever' });
  await forever.click();
  const confirm = page.getByRole('dialog', { name: /forever\?$/ });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(forever).toBeFocused();
});

test('the focus lands on what was created, and next to what was deleted', async ({ page }) => {
  for (const t of ['study A', 'study B', 'study C']) {
    await createStudy(page, t);
    await expect(studyRow(page, t)).toBeFocused();
  }
  // newest first: C, B, A. Deleting B focuses A (the next); then A focuses C (the one before); then the list is empty
  await openStudy(page, 'study B');
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(studyRow(page, 'study B')).toHaveCount(0);
  await expect(studyRow(page, 'study A')).toBeFocused();
  await openStudy(page, 'study A');
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(studyRow(page, 'study C')).toBeFocused();
  await openStudy(page, 'study C');
  await page.getByRole('button', { name: 'Delete study' }).click();
  await expect(studiesNav(page).getByRole('button', { name: 'New study' })).toBeFocused();

  // experiments
  await createStudy(page, 'experiments');
  for (const t of ['Baseline', 'Step one', 'Step two']) {
    await addExperiment(page, t);
    await expect(experimentRow(page, t)).toBeFocused();
  }
  await experimentRow(page, 'Step one').click();
  await page.getByRole('region', { name: 'Experiment Step one' }).getByRole('button', { name: 'Delete experiment' }).click();
  await expect(page.getByTestId('experiment-item')).toHaveCount(2);
  await expect(experimentRow(page, 'Step two')).toBeFocused();
  await page.getByRole('region', { name: 'Experiment Step two' }).getByRole('button', { name: 'Delete experiment' }).click();
  await expect(page.getByTestId('experiment-item')).toHaveCount(1);
  await expect(experimentRow(page, 'Baseline')).toBeFocused();
  await page.getByRole('region', { name: 'Experiment Baseline' }).getByRole('button', { name: 'Delete experiment' }).click();
  await expect(page.getByTestId('experiment-item')).toHaveCount(0);
  await expect(page.getByLabel('New experiment title')).toBeFocused();

  // results: the new row, then its neighbour, then the add form's first field
  const detail = await addExperiment(page, 'Baseline');
  await addMetric(detail, { name: 'requests_per_second', value: '140', unit: '1/s', primary: true });
  await expect(detail.getByTestId('metric-row').filter({ hasText: 'requests_per_second' })).toBeFocused();
  await addMetric(detail, { name: 'latency_mean_seconds', value: '0.2', unit: 's', better: 'lower', primary: false });
  await detail.getByRole('button', { name: 'Delete metric requests_per_second' }).click();
  await expect(detail.getByTestId('metric-row')).toHaveCount(1);
  await expect(detail.getByTestId('metric-row').filter({ hasText: 'latency_mean_seconds' })).toBeFocused();
  await detail.getByRole('button', { name: 'Delete metric latency_mean_seconds' }).click();
  await expect(detail.getByTestId('metric-row')).toHaveCount(0);
  await expect(detail.getByRole('form', { name: 'Add metric' }).getByLabel('Metric')).toBeFocused();
});

test('the study list keeps its order while studies are edited; the sort choice is kept', async ({ page }) => {
  for (const t of ['Beta', 'alpha', 'Gamma']) await createStudy(page, t);
  const titles = studiesNav(page).locator('.nav-title');
  await expect(titles).toHaveText(['Gamma', 'alpha', 'Beta']);

  // editing the oldest study does not bring it to the top
  await openStudy(page, 'Beta');
  await page.getByLabel('Goal').fill('Explain the gap.');
  await page.getByRole('button', { name: 'Save goal' }).click();
  await expect(page.getByRole('button', { name: 'Save goal' })).toBeHidden();
  await addExperiment(page, 'Baseline');
  await expect(studyRow(page, 'Beta')).toContainText('1 exp.');
  await expect(titles).toHaveText(['Gamma', 'alpha', 'Beta']);

  const sort = studiesNav(page).getByLabel('Sort studies');
  await sort.selectOption({ label: 'Title (A–Z)' });
  await expect(titles).toHaveText(['alpha', 'Beta', 'Gamma']);
  await page.reload();
  await expect(titles).toHaveText(['alpha', 'Beta', 'Gamma']);
  await expect(studiesNav(page).getByLabel('Sort studies')).toHaveValue('title');

  await studiesNav(page).getByLabel('Sort studies').selectOption({ label: 'Last edited' });
  await expect(titles).toHaveText(['Beta', 'Gamma', 'alpha']);
  await studiesNav(page).getByLabel('Sort studies').selectOption({ label: 'Newest first' });
  await expect(titles).toHaveText(['Gamma', 'alpha', 'Beta']);
});

test('a hardware profile reads as the machine it is', async ({ page }) => {
  await createProfile(page, {
    name: 'ECS 4C8G', cores: '4', threads: '4', memory: '8', memoryUnit: 'GiB', os: 'CentOS 7',
    disks: [{ name: 'vda', size: '50', sizeUnit: 'GiB', logical: '512', physical: '512', block: '4096', kind: 'virtual' }],
  });
  const summary = '4C/8G · vda 50 GiB, 512 B sectors, 4 KiB blocks · CentOS 7';
  const profiles = page.getByRole('navigation', { name: 'Profiles' });
  await expect(profiles.getByTestId('profile-summary')).toHaveText(`${summary} · used by 0`);
  await expect(profiles.getByRole('button', { name: /^ECS 4C8G/ })).toBeFocused();

  await createStudy(page, 'with a profile');
  const detail = await addExperiment(page, 'Baseline');
  await detail.getByLabel('Hardware profile').selectOption({ label: 'ECS 4C8G' });
  await expect(detail.getByTestId('profile-summary')).toHaveText(summary);
});

test('requirements read as statements with their verdicts; Edit opens the editor', async ({ page }) => {
  await createStudy(page, 'Python service to 50k QPS');
  await setRequirements(page, [{ metric: 'requests_per_second', comparator: '>=', threshold: '30000', unit: '1/s', label: 'QPS' }]);
  const statement = page.getByTestId('requirement-statement');
  await expect(statement).toHaveCount(1);
  await expect(statement).toContainText('QPS ≥ 30');
  await expect(statement.getByTestId('requirement-verdict')).toHaveText('— not measured yet');
  await expect(page.getByLabel('Requirement 1 metric')).toHaveCount(0); // no fields until asked for

  const base = await addExperiment(page, 'Baseline');
  await addMetric(base, { name: 'requests_per_second', value: '6000', unit: '1/s', primary: true });
  await keep(base);
  await expect(statement.getByTestId('requirement-verdict')).toHaveText('— not met yet: 6,000 req/s at the baseline');
  const step = await addExperiment(page, 'sysctl TIME_WAIT tuning');
  await addMetric(step, { name: 'requests_per_second', value: '50000', unit: '1/s', primary: true });
  await keep(step);
  await expect(statement.getByTestId('requirement-verdict')).toHaveText('— met by step 1');

  // Edit: the editor, focused on that requirement; Escape (nothing changed) goes back to the statement
  const edit = statement.getByRole('button', { name: /^Edit requirement 1/ });
  await edit.click();
  await expect(page.getByLabel('Requirement 1 metric')).toBeFocused();
  await expect(page.getByLabel('Requirement 1 threshold')).toHaveValue(/^30/);
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Requirement 1 metric')).toHaveCount(0);
  await expect(edit).toBeFocused();

  // a draft is kept across a reload, the editor open on it
  await edit.click();
  await page.getByLabel('Requirement 1 threshold').fill('60000');
  page.on('dialog', (d) => void d.accept()); // leaving with a draft asks first
  await page.reload();
  await openStudy(page, 'Python service to 50k QPS');
  await expect(page.getByLabel('Requirement 1 threshold')).toHaveValue('60000');
  await expect(page.getByText('Unsaved draft kept from before')).toBeVisible();
  await page.getByRole('button', { name: 'Save requirements' }).click();
  await expect(page.getByLabel('Requirement 1 metric')).toHaveCount(0);
  await expect(statement.getByTestId('requirement-verdict')).toHaveText('— not met yet: 50.0k req/s at step 1');
});

/** The experiment's status set to kept (a planned one is not judged). */
async function keep(detail: Locator): Promise<void> {
  const form = detail.getByRole('form', { name: 'Experiment details' });
  await form.getByLabel('Status').selectOption('kept');
  const save = form.getByRole('button', { name: 'Save experiment' });
  if (await save.isEnabled()) await save.click();
  await expect(save).toBeDisabled();
}

test('titles cut off in the sidebar and the experiment list show in full on hover', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const long = 'Health-check endpoint of the Laravel service behind nginx and PHP-FPM on the 4C8G cloud VM';
  await createStudy(page, long);
  await addExperiment(page, `${long} — opcache.validate_timestamps off`);
  const title = studiesNav(page).locator('.nav-title', { hasText: 'Health-check' });
  await expect(title).toHaveAttribute('title', long);
  expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true); // it is cut off
  await expect(studyRow(page, 'Health-check endpoint')).toHaveAccessibleName(new RegExp(`^${long} 1 exp\\.$`));
  const expTitle = page.getByTestId('experiment-item').locator('.exp-title');
  await expect(expTitle).toHaveAttribute('title', `${long} — opcache.validate_timestamps off`);
  expect(await expTitle.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // and in the trash
  await page.getByRole('button', { name: 'Delete study' }).click();
  await page.getByRole('button', { name: /^Trash/ }).click();
  await expect(page.getByTestId('trash-item').locator('.trash-name')).toHaveAttribute('title', long);
});
