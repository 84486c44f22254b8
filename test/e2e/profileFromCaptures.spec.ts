/**
 * Fill a hardware profile from captures: the case-study C seeds (fdisk -l of vda, tune2fs block
 * size) plus lscpu and free from the fixtures, chosen as files; then uname and os-release pasted.
 * The values land in the form with the file each came from, and are stored only on Save.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { createProfile } from './support/ui';

// package.json is "type": "module", so specs run as ES modules: no __dirname.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, '..', 'fixtures', 'captures');
const FDISK = path.join(FIXTURES, 'fdisk', 'fdisk-l-vda.txt');
const TUNE2FS = path.join(FIXTURES, 'tune2fs', 'tune2fs-block-size.txt');
const LSCPU = path.join(FIXTURES, 'lscpu', 'lscpu.txt');
const FREE = path.join(FIXTURES, 'free', 'free.txt');

async function newProfile(page: Page) {
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('button', { name: 'New profile' }).click();
  return page.getByRole('form', { name: 'New profile' });
}

function filledRow(page: Page, field: string) {
  return page.getByRole('table', { name: 'Filled fields' }).getByTestId('filled-field')
    .filter({ has: page.getByRole('cell', { name: field, exact: true }) });
}

test('new profile filled from the seed captures plus lscpu and free, then saved', async ({ page }) => {
  const form = await newProfile(page);
  await form.getByLabel('Cloud / instance').fill('Alibaba ECS 2C');

  await form.getByRole('button', { name: 'Fill from captures…' }).click();
  const panel = form.getByRole('region', { name: 'Fill from captures' });
  await expect(panel).toBeVisible();
  await panel.getByLabel('Capture files').setInputFiles([FDISK, TUNE2FS, LSCPU, FREE]);

  // the form fields, not saved yet
  await expect(form.getByLabel('CPU model')).toHaveValue('AMD EPYC');
  await expect(form.getByLabel('Cores')).toHaveValue('2');
  await expect(form.getByLabel('Threads')).toHaveValue('2');
  // free without its command line: 24684092 KiB, shown rounded as 23.54 GiB (the exact bytes are kept)
  await expect(form.getByLabel('Memory', { exact: true })).toHaveValue('23.54');
  await expect(form.getByLabel('Memory unit')).toHaveValue('GiB');
  await expect(form.getByLabel('Disk 1 name')).toHaveValue('vda');
  // 53687091200 bytes: fdisk's "53.7 GB", which the size input shows as exactly 50 GiB
  await expect(form.getByLabel('Disk 1 size', { exact: true })).toHaveValue('50');
  await expect(form.getByLabel('Disk 1 size unit')).toHaveValue('GiB');
  await expect(form.getByLabel('Disk 1 logical sector bytes')).toHaveValue('512');
  await expect(form.getByLabel('Disk 1 physical sector bytes')).toHaveValue('512');
  await expect(form.getByLabel('Disk 1 block bytes')).toHaveValue('4096');
  await expect(form.getByLabel('Disk 1 kind')).toHaveValue('virtual');
  await expect(form.getByLabel('Disk 2 name')).toHaveCount(0);
  // a field the captures say nothing about keeps what was typed
  await expect(form.getByLabel('Cloud / instance')).toHaveValue('Alibaba ECS 2C');

  // where each value came from, and the notes
  await expect(filledRow(page, 'CPU model')).toContainText('lscpu.txt');
  await expect(filledRow(page, 'Cores')).toContainText('lscpu.txt');
  await expect(filledRow(page, 'Memory')).toContainText('23.54 GiB');
  await expect(filledRow(page, 'Memory')).toContainText('free.txt');
  const disk = filledRow(page, 'Disk vda');
  await expect(disk).toContainText('53.7 GB');
  await expect(disk).toContainText('512-byte sectors');
  await expect(disk).toContainText('virtual');
  await expect(disk).toContainText('fdisk-l-vda.txt');
  await expect(filledRow(page, 'Disk vda FS block')).toContainText('4096 B');
  await expect(filledRow(page, 'Disk vda FS block')).toContainText('tune2fs-block-size.txt');
  const notes = panel.getByRole('list', { name: 'Remarks on the filled fields' });
  await expect(notes).toContainText('hypervisor KVM');
  await expect(notes).toContainText('free.txt: no command line');

  // nothing stored yet
  await expect(page.getByRole('navigation', { name: 'Profiles' })).toContainText('No profiles yet');

  await page.screenshot({ path: test.info().outputPath('filled-form.png'), fullPage: true });

  await form.getByLabel('Name', { exact: true }).fill('virtio VM from captures');
  await form.getByRole('button', { name: 'Create profile' }).click();
  const saved = page.getByRole('form', { name: 'Profile virtio VM from captures' });
  await expect(saved).toBeVisible();
  const item = page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /virtio VM from captures/ });
  await expect(item).toBeVisible();
  await expect(item).toContainText('2C');

  // stored: after a reload the profile has the captured values
  await page.reload();
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /virtio VM from captures/ }).click();
  await expect(saved.getByLabel('CPU model')).toHaveValue('AMD EPYC');
  await expect(saved.getByLabel('Disk 1 name')).toHaveValue('vda');
  await expect(saved.getByLabel('Disk 1 size', { exact: true })).toHaveValue('50');
  await expect(saved.getByLabel('Disk 1 block bytes')).toHaveValue('4096');
  await expect(saved.getByLabel('Disk 1 kind')).toHaveValue('virtual');
  await expect(saved.getByLabel('Cloud / instance')).toHaveValue('Alibaba ECS 2C');
});

test('pasted uname and os-release fill kernel and OS; unknown text changes nothing and stays text', async ({ page }) => {
  const form = await newProfile(page);
  await form.getByLabel('CPU model').fill('typed by hand');
  await form.getByRole('button', { name: 'Fill from captures…' }).click();
  const panel = form.getByRole('region', { name: 'Fill from captures' });
  const paste = panel.getByLabel(/paste one tool/);

  await paste.fill('$ uname -a\nLinux vm 6.18.44-fc-v657 #1 SMP PREEMPT_DYNAMIC @0 x86_64 GNU/Linux\n');
  await panel.getByRole('button', { name: 'Fill from pasted text' }).click();
  await expect(form.getByLabel('Kernel')).toHaveValue('6.18.44-fc-v657');
  await expect(paste).toHaveValue('');

  await paste.fill('PRETTY_NAME="CentOS Linux 7 (Core)"\nNAME="CentOS Linux"\nVERSION_ID="7"\nVERSION="7 (Core)"\nID="centos"\n');
  await panel.getByRole('button', { name: 'Fill from pasted text' }).click();
  await expect(form.getByLabel('OS', { exact: true })).toHaveValue('CentOS Linux 7 (Core)');
  await expect(form.getByLabel('Kernel')).toHaveValue('6.18.44-fc-v657');
  await expect(form.getByLabel('CPU model')).toHaveValue('typed by hand');
  await expect(filledRow(page, 'Kernel')).toContainText(/pasted-\d+\.txt/);
  await expect(filledRow(page, 'OS')).toContainText(/pasted-\d+\.txt/);

  await paste.fill('we rebooted the box\n<img src=x onerror="document.title=\'pwned\'"><b>bold</b>\n');
  await panel.getByRole('button', { name: 'Fill from pasted text' }).click();
  await expect(panel.getByRole('list', { name: 'Remarks on the filled fields' })).toContainText(/Nothing about the hardware in pasted-\d+\.txt \(text\)/);
  await expect(page.locator('main img, main b')).toHaveCount(0);
  await expect(page).not.toHaveTitle('pwned');
  await expect(form.getByLabel('OS', { exact: true })).toHaveValue('CentOS Linux 7 (Core)');
});

/** Drops files on the fill panel's drop zone the way a browser does (a DataTransfer of Files). */
async function dropFiles(page: Page, paths: string[]) {
  const files = paths.map((p) => ({ name: path.basename(p), text: readFileSync(p, 'utf8') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  const zone = page.getByRole('button', { name: /Drop the machine's captures here/ });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expect(zone).toContainText('Release to read');
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('an existing profile: dropped in two batches, the block size finds its disk; Save stores it', async ({ page }) => {
  await createProfile(page, {
    name: 'old VM', cores: '4', threads: '8', memory: '8', memoryUnit: 'GiB', software: 'fio 3.7',
    disks: [{ name: 'vdb', size: '100', sizeUnit: 'GB', logical: '512', physical: '4096', block: '4096', kind: 'virtual' }],
  });
  const form = page.getByRole('form', { name: 'Profile old VM' });
  await expect(form.getByRole('button', { name: 'Save profile' })).toBeDisabled();
  await form.getByRole('button', { name: 'Fill from captures…' }).click();

  await dropFiles(page, [FDISK]);
  await expect(form.getByLabel('Disk 2 name')).toHaveValue('vda');
  await expect(form.getByLabel('Disk 2 block bytes')).toHaveValue('');
  // the tune2fs grep line alone names /dev/vda1: it goes onto vda, found in the earlier batch
  await dropFiles(page, [TUNE2FS]);
  await expect(form.getByLabel('Disk 2 block bytes')).toHaveValue('4096');
  await expect(filledRow(page, 'Disk vda FS block')).toContainText('tune2fs-block-size.txt');
  // untouched: the other disk and the fields the captures say nothing about
  await expect(form.getByLabel('Disk 1 name')).toHaveValue('vdb');
  await expect(form.getByLabel('Disk 1 physical sector bytes')).toHaveValue('4096');
  await expect(form.getByLabel('Cores')).toHaveValue('4');
  await expect(form.getByLabel('Memory', { exact: true })).toHaveValue('8');
  await expect(form.getByLabel('Software stack')).toHaveValue('fio 3.7');

  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByRole('button', { name: 'Save profile' })).toBeDisabled();
  await page.reload();
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /old VM/ }).click();
  await expect(form.getByLabel('Disk 2 name')).toHaveValue('vda');
  await expect(form.getByLabel('Disk 2 size', { exact: true })).toHaveValue('50');
  await expect(form.getByLabel('Disk 2 block bytes')).toHaveValue('4096');
  await expect(form.getByLabel('Disk 2 kind')).toHaveValue('virtual');
});
