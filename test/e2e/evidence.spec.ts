/**
 * Evidence in the app beyond case study C: pasted captures, notes and removal with Undo; settings
 * snapshots on consecutive experiments proposing config changes and hardware facts proposing a
 * profile; the Captures view storing a previewed capture on an experiment; search finding a
 * stored capture; captures dropped on a study proposing a new experiment.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { addExperiment, captureLinks, createStudy, dropFiles, experimentDetail, pasteCapture } from './support/ui';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, '..', 'fixtures', 'captures');
const SYSCTL = readFileSync(path.join(FIXTURES, 'sysctl', 'sysctl-a.txt'), 'utf8');
const FDISK = path.join(FIXTURES, 'fdisk', 'fdisk-l-vda.txt');
const TUNE2FS = path.join(FIXTURES, 'tune2fs', 'tune2fs-block-size.txt');
const FIO = path.join(FIXTURES, 'fio', 'fio-randwrite-4k-qd64-j64.txt');

test('pasted captures, notes, and removal with Undo', async ({ page }) => {
  await createStudy(page, 'TIME_WAIT tuning');
  const d = await addExperiment(page, 'baseline');
  await pasteCapture(d, 'sysctl-before.txt', SYSCTL);
  await expect(captureLinks(d)).toHaveCount(1);
  await expect(captureLinks(d).first()).toContainText('sysctl');

  await d.getByRole('button', { name: 'Add a note on sysctl-before.txt' }).click();
  await d.getByLabel('Note on sysctl-before.txt').fill('taken before the change, as root');
  await d.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(captureLinks(d).first()).toContainText('taken before the change, as root');

  await d.getByRole('button', { name: 'Remove sysctl-before.txt' }).click();
  await expect(captureLinks(d)).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(captureLinks(d)).toHaveCount(1);
  await expect(captureLinks(d).first()).toContainText('taken before the change, as root');
});

test('snapshots on consecutive experiments propose config changes; hardware facts propose a profile', async ({ page }) => {
  await createStudy(page, 'Python service to 50k QPS');
  const before = await addExperiment(page, 'step 3: ulimit');
  await pasteCapture(before, 'sysctl-a.txt', SYSCTL);
  await dropFiles(before.getByRole('button', { name: /Drop captures on step 3/ }), [FDISK, TUNE2FS]);
  await expect(captureLinks(before)).toHaveCount(3);
  const profile = before.getByTestId('profile-proposal');
  await expect(profile).toContainText('fdisk-l-vda.txt');
  await profile.getByLabel('Name').fill('VM 2C, vda 50 GiB');
  await profile.getByRole('button', { name: 'Create profile' }).click();
  await expect(before.getByLabel('Hardware profile')).toHaveValue(/\d+/);
  await expect(before.getByLabel('Hardware profile').locator('option:checked')).toHaveText('VM 2C, vda 50 GiB');
  await expect(before.getByTestId('profile-proposal')).toHaveCount(0);

  const after = await addExperiment(page, 'step 4: TIME_WAIT');
  const changed = SYSCTL
    .replace(/^net\.ipv4\.ip_local_port_range = .*$/m, 'net.ipv4.ip_local_port_range = 1024\t65000')
    .replace(/^net\.ipv4\.tcp_tw_reuse = .*$/m, 'net.ipv4.tcp_tw_reuse = 1');
  await pasteCapture(after, 'sysctl-a.txt', changed);
  const proposal = after.getByTestId('config-proposal');
  await expect(proposal).toContainText('differs from sysctl-a.txt on “step 3: ulimit” in 2 settings');
  await proposal.getByRole('button', { name: 'Add 2 config changes' }).click();
  await expect(after.getByTestId('config-change-row')).toHaveCount(2);
  await expect(after.getByTestId('config-change-row').filter({ hasText: 'net.ipv4.tcp_tw_reuse' })).toContainText('1');
  await expect(after.getByTestId('config-proposal')).toHaveCount(0);
});

test('the Captures view stores a previewed capture on an experiment; search finds it', async ({ page }) => {
  await createStudy(page, 'vda writes');
  await addExperiment(page, 'random writes');
  await page.getByRole('navigation', { name: 'Notebook' }).getByRole('button', { name: 'Captures', exact: true }).click();
  await page.getByLabel('Capture files', { exact: true }).setInputFiles([FIO]);
  const card = page.getByRole('article', { name: 'fio-randwrite-4k-qd64-j64.txt' });
  await expect(card.locator('.capture-kind')).toHaveText('fio');
  await card.getByRole('button', { name: 'Store on experiment…' }).click();
  const dialog = page.getByRole('dialog', { name: /Store fio-randwrite-4k-qd64-j64.txt on an experiment/ });
  await expect(dialog.getByLabel('Study')).toHaveValue(/\d+/);
  await expect(dialog.getByLabel('Experiment', { exact: true })).toHaveText(/random writes/);
  await dialog.getByRole('button', { name: 'Store captures' }).click();
  const d = experimentDetail(page, 'random writes');
  await expect(captureLinks(d)).toHaveCount(1);
  await expect(d.getByTestId('result-proposal')).toContainText('2,197 IOPS');

  // back in the Captures view: the preview is still there, and the notebook's stored captures are listed
  await page.getByRole('navigation', { name: 'Notebook' }).getByRole('button', { name: 'Captures', exact: true }).click();
  await expect(page.getByRole('article', { name: 'fio-randwrite-4k-qd64-j64.txt' }).getByRole('button', { name: 'Store again…' })).toBeVisible();
  const stored = page.getByRole('region', { name: 'Stored captures' });
  await expect(stored.getByRole('heading')).toContainText('Stored in this notebook 1');
  await expect(stored.getByTestId('stored-capture')).toContainText('vda writes › random writes');
  await stored.getByRole('button', { name: 'fio-randwrite-4k-qd64-j64.txt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'fio-randwrite-4k-qd64-j64.txt' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Search notebook' }).fill('iops');
  await page.getByRole('option').filter({ hasText: 'fio-randwrite-4k-qd64-j64.txt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'fio-randwrite-4k-qd64-j64.txt' })).toBeVisible();
});

test('captures dropped on a study (not on an experiment) go on a new experiment', async ({ page }) => {
  await createStudy(page, 'disk facts');
  await addExperiment(page, 'baseline');
  await dropFiles(page.getByRole('heading', { level: 1, name: 'disk facts' }), [FDISK]);
  const dialog = page.getByRole('dialog', { name: /Store fdisk-l-vda.txt on an experiment/ });
  await expect(dialog.getByLabel('Experiment', { exact: true })).toHaveValue('-1');
  await dialog.getByLabel('New experiment title').fill('facts of the VM');
  await dialog.getByRole('button', { name: 'Store captures' }).click();
  const d = experimentDetail(page, 'facts of the VM');
  await expect(captureLinks(d)).toHaveCount(1);
  await expect(page.getByTestId('experiment-item')).toHaveCount(2);
});

test('notebook upkeep: re-parse every capture, and compact the notebook to give removed captures\' space back', async ({ page }) => {
  await createStudy(page, 'upkeep');
  const d = await addExperiment(page, 'baseline');
  await pasteCapture(d, 'sysctl-a.txt', SYSCTL);
  await expect(captureLinks(d)).toHaveCount(1);
  const upkeep = page.locator('summary[aria-label="Notebook upkeep"]');
  await upkeep.click();
  await page.getByRole('button', { name: 'Re-parse all captures' }).click();
  await expect(page.getByText('Re-parsed 1 capture.')).toBeVisible({ timeout: 20_000 });
  // the capture is still read as it was
  await expect(captureLinks(d).first()).toContainText('sysctl');
  await upkeep.click();
  await page.getByRole('button', { name: 'Compact notebook' }).click();
  await expect(page.getByText(/Notebook compacted: [\d.,]+ \w+ → [\d.,]+ \w+\./)).toBeVisible({ timeout: 20_000 });
});
