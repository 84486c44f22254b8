/** Hardware profiles: sizes entered in GB/GiB, disks, reuse, and delete refused while used. */
import { expect, test } from './support/fixtures';
import { addExperiment, createProfile, createStudy, editExperiment } from './support/ui';

test('profile with disks; delete is refused while an experiment uses it', async ({ page }) => {
  await createProfile(page, {
    name: 'virtio VM 2 vCPU',
    cores: '2', threads: '2', memory: '4', memoryUnit: 'GiB',
    os: 'Debian 12', kernel: '6.1.0-18-amd64',
    disks: [{ name: 'vda', size: '53.7', sizeUnit: 'GB', logical: '512', physical: '512', block: '4096', kind: 'virtual' }],
  });
  await page.reload();
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /virtio VM/ }).click();
  const form = page.getByRole('form', { name: 'Profile virtio VM 2 vCPU' });
  await expect(form.getByLabel('Memory', { exact: true })).toHaveValue('4');
  await expect(form.getByLabel('Memory unit')).toHaveValue('GiB');
  await expect(form.getByLabel('Disk 1 size', { exact: true })).toHaveValue('53.7');
  await expect(form.getByLabel('Disk 1 size unit')).toHaveValue('GB');
  await expect(form.getByLabel('Disk 1 kind')).toHaveValue('virtual');
  await expect(form.getByLabel('Disk 1 block bytes')).toHaveValue('4096');

  // edit
  await form.getByLabel('Kernel').fill('6.1.0-21-amd64');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByRole('button', { name: 'Save profile' })).toBeDisabled();

  // used by an experiment → delete refused with the back end's message
  await createStudy(page, 'random vs sequential writes');
  await addExperiment(page, 'fio randwrite 4k');
  await editExperiment(page, 'fio randwrite 4k', { profile: 'virtio VM 2 vCPU' });
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /virtio VM/ }).click();
  await form.getByRole('button', { name: 'Delete profile' }).click();
  await expect(form.getByRole('alert')).toBeVisible();
  await expect(form.getByRole('alert')).not.toBeEmpty();
  await expect(page.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /virtio VM/ })).toBeVisible();
});
