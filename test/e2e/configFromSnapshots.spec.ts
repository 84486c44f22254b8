/**
 * Config changes "From two snapshots…": case study B step 4 (four sysctl changes) pasted as two
 * sysctl snapshots; case study A change 1 (opcache in php.ini) from two php.ini files chosen as
 * files; a pair that cannot be compared is refused with a clear message and adds nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import type { Locator, Page } from '@playwright/test';
import { addExperiment, createStudy } from './support/ui';

// package.json is "type": "module", so specs run as ES modules: no __dirname.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, '..', 'fixtures', 'captures');
const PHP_INI = path.join(FIXTURES, 'ini', 'php-ini.txt');
const FIO = path.join(FIXTURES, 'fio', 'fio-write-4k-qd64-j64.txt');
const AB = path.join(FIXTURES, 'ab', 'plain.txt');

const SYSCTL_BEFORE = [
  'net.ipv4.tcp_max_tw_buckets = 262144',
  'net.ipv4.ip_local_port_range = 32768\t60999',
  'net.ipv4.tcp_tw_reuse = 0',
  'vm.swappiness = 30',
].join('\n') + '\n';
const SYSCTL_AFTER = [
  'net.ipv4.tcp_max_tw_buckets = 6000',
  'net.ipv4.ip_local_port_range = 1024\t65000',
  'net.ipv4.tcp_tw_reuse = 1',
  'net.ipv4.tcp_tw_recycle = 1',
  'vm.swappiness = 30',
].join('\n') + '\n';

async function openSnapshots(detail: Locator): Promise<Locator> {
  await detail.getByRole('button', { name: 'From two snapshots…' }).click();
  const panel = detail.getByRole('region', { name: 'Config changes from two snapshots' });
  await expect(panel).toBeVisible();
  return panel;
}

function side(panel: Locator, name: 'Before' | 'After'): Locator {
  return panel.getByRole('region', { name, exact: true });
}

function changeRow(detail: Locator, key: string): Locator {
  return detail.getByTestId('config-change-row').filter({ has: detail.page().getByRole('cell', { name: key, exact: true }) });
}

async function newExperiment(page: Page, study: string, title: string): Promise<Locator> {
  await createStudy(page, study);
  return addExperiment(page, title);
}

test('case study B step 4: four sysctl changes from two pasted snapshots', async ({ page }) => {
  const detail = await newExperiment(page, 'API under ab -c 1000', 'TIME_WAIT: ports and buckets');
  const panel = await openSnapshots(detail);

  // keyboard: the drop zones are reachable and labelled
  await expect(side(panel, 'Before').getByRole('button', { name: /Drop the before snapshot here/ })).toBeVisible();
  await side(panel, 'Before').getByLabel('…or paste the before snapshot').fill(SYSCTL_BEFORE);
  await side(panel, 'After').getByLabel('…or paste the after snapshot').fill(SYSCTL_AFTER);
  await panel.getByRole('button', { name: 'Compare snapshots' }).click();

  const table = panel.getByRole('table', { name: 'Differences between the snapshots' });
  const rows = table.getByTestId('snapshot-change-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('net.ipv4.ip_local_port_range');
  await expect(rows.nth(0)).toContainText('32768');
  await expect(rows.nth(0)).toContainText('65000');
  await expect(rows.nth(1)).toContainText('net.ipv4.tcp_max_tw_buckets');
  await expect(rows.nth(2)).toContainText('net.ipv4.tcp_tw_recycle');
  await expect(rows.nth(2)).toContainText('(unset)');
  await expect(rows.nth(3)).toContainText('net.ipv4.tcp_tw_reuse');
  await expect(table).not.toContainText('vm.swappiness'); // unchanged
  for (const key of ['net.ipv4.ip_local_port_range', 'net.ipv4.tcp_max_tw_buckets', 'net.ipv4.tcp_tw_recycle', 'net.ipv4.tcp_tw_reuse']) {
    await expect(panel.getByRole('checkbox', { name: `Include ${key}` })).toBeChecked();
  }
  await expect(panel.getByLabel('Scope')).toHaveValue('sysctl');
  await panel.getByRole('textbox', { name: /^Why \(for every change/ }).fill('ab -c 1000 ran out of local ports: sockets stuck in TIME_WAIT');
  await panel.getByLabel('Why net.ipv4.tcp_tw_recycle').fill('recycle TIME_WAIT sockets (NAT-unsafe; removed in Linux 4.12)');
  await panel.screenshot({ path: test.info().outputPath('snapshot-diff.png') });

  await panel.getByRole('button', { name: 'Add 4 changes' }).click();
  await expect(panel).toBeHidden();
  await expect(detail.getByRole('status').filter({ hasText: 'Added 4 config changes from the snapshots.' })).toBeVisible();

  const stored = detail.getByTestId('config-change-row');
  await expect(stored).toHaveCount(4);
  const expected: [string, string, string][] = [
    ['net.ipv4.ip_local_port_range', '32768\t60999', '1024\t65000'],
    ['net.ipv4.tcp_max_tw_buckets', '262144', '6000'],
    ['net.ipv4.tcp_tw_recycle', '', '1'],
    ['net.ipv4.tcp_tw_reuse', '0', '1'],
  ];
  for (const [key, before, after] of expected) {
    const cells = changeRow(detail, key).getByRole('cell');
    await expect(cells.nth(0)).toHaveText('sysctl');
    await expect(cells.nth(2)).toHaveText(before.replace('\t', ' '), { useInnerText: true });
    await expect(cells.nth(3)).toHaveText(after.replace('\t', ' '), { useInnerText: true });
  }
  await expect(changeRow(detail, 'net.ipv4.tcp_tw_recycle').getByRole('cell').nth(4)).toHaveText('recycle TIME_WAIT sockets (NAT-unsafe; removed in Linux 4.12)');
  await expect(changeRow(detail, 'net.ipv4.tcp_tw_reuse').getByRole('cell').nth(4)).toHaveText('ab -c 1000 ran out of local ports: sockets stuck in TIME_WAIT');

  // the same snapshots again: the changes are already recorded, so none is selected
  await detail.getByRole('button', { name: 'From two snapshots…' }).click();
  await side(panel, 'Before').getByLabel('…or paste the before snapshot').fill(SYSCTL_BEFORE);
  await side(panel, 'After').getByLabel('…or paste the after snapshot').fill(SYSCTL_AFTER);
  await panel.getByRole('button', { name: 'Compare snapshots' }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'already recorded' })).toHaveCount(4);
  await expect(panel.getByRole('checkbox', { name: 'Include net.ipv4.tcp_tw_reuse' })).not.toBeChecked();
  await expect(panel.getByRole('button', { name: 'Add 0 changes' })).toBeDisabled();
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(stored).toHaveCount(4);
});

test('case study A change 1: opcache settings from two php.ini files; unchecked rows are not added', async ({ page }) => {
  // php.ini from the fixtures, edited as before and after the change
  const text = readFileSync(PHP_INI, 'utf8');
  expect(text).toContain('opcache.validate_timestamps=1');
  expect(text).toContain('opcache.revalidate_freq=0');
  const dir = test.info().outputPath('ini');
  mkdirSync(path.join(dir, 'before'), { recursive: true });
  mkdirSync(path.join(dir, 'after'), { recursive: true });
  const beforeFile = path.join(dir, 'before', 'php.ini');
  const afterFile = path.join(dir, 'after', 'php.ini');
  writeFileSync(beforeFile, text.replace('opcache.revalidate_freq=0', 'opcache.revalidate_freq=2').replace('memory_limit = 128M', 'memory_limit = 256M'));
  writeFileSync(afterFile, text.replace('opcache.validate_timestamps=1', 'opcache.validate_timestamps=0'));

  const detail = await newExperiment(page, 'health-check QPS', 'opcache: stop revalidating timestamps');
  const panel = await openSnapshots(detail);
  await side(panel, 'Before').getByLabel('Before snapshot file').setInputFiles(beforeFile);
  await expect(side(panel, 'Before').getByTestId('snapshot-before-file')).toContainText('ini');
  await side(panel, 'After').getByLabel('After snapshot file').setInputFiles(afterFile);
  // two files: compared without another click
  const rows = panel.getByTestId('snapshot-change-row');
  await expect(rows).toHaveCount(3);
  await expect(panel.getByLabel('Scope')).toHaveValue('php.ini');
  await expect(rows.filter({ hasText: 'opcache.validate_timestamps' })).toContainText('1');
  await expect(rows.filter({ hasText: 'opcache.revalidate_freq' })).toContainText('2');

  // memory_limit is not part of this step
  await panel.getByRole('checkbox', { name: 'Include memory_limit' }).uncheck();
  await expect(panel.getByRole('checkbox', { name: 'Include every difference' })).not.toBeChecked();
  await panel.getByRole('button', { name: 'Add 2 changes' }).click();

  const stored = detail.getByTestId('config-change-row');
  await expect(stored).toHaveCount(2);
  await expect(changeRow(detail, 'opcache.validate_timestamps').getByRole('cell').nth(0)).toHaveText('php.ini');
  await expect(changeRow(detail, 'opcache.validate_timestamps').getByRole('cell').nth(2)).toHaveText('1');
  await expect(changeRow(detail, 'opcache.validate_timestamps').getByRole('cell').nth(3)).toHaveText('0');
  await expect(changeRow(detail, 'opcache.revalidate_freq').getByRole('cell').nth(2)).toHaveText('2');
  await expect(changeRow(detail, 'opcache.revalidate_freq').getByRole('cell').nth(3)).toHaveText('0');
  await expect(changeRow(detail, 'memory_limit')).toHaveCount(0);

  // the same file twice: no differences
  await detail.getByRole('button', { name: 'From two snapshots…' }).click();
  await side(panel, 'Before').getByLabel('Before snapshot file').setInputFiles(afterFile);
  await side(panel, 'After').getByLabel('After snapshot file').setInputFiles(afterFile);
  await expect(panel.getByText(/^No differences/)).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Add / })).toHaveCount(0);
});

test('snapshots that cannot be compared are refused and nothing is added', async ({ page }) => {
  const detail = await newExperiment(page, 'disk latency', 'fio is not a settings snapshot');
  const panel = await openSnapshots(detail);

  // different kinds: a sysctl snapshot against fio output
  await side(panel, 'Before').getByLabel('…or paste the before snapshot').fill(SYSCTL_BEFORE);
  // chosen from the keyboard: the drop zone is a button
  const chooser = page.waitForEvent('filechooser');
  await side(panel, 'After').getByRole('button', { name: /Drop the after snapshot here/ }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(FIO);
  await expect(side(panel, 'After').getByTestId('snapshot-after-file')).toContainText('fio-write-4k-qd64-j64.txt');
  await panel.getByRole('button', { name: 'Compare snapshots' }).click();
  await expect(panel.getByRole('alert')).toHaveText(/different kinds: before is sysctl .*, after is fio/);
  await expect(panel.getByTestId('snapshot-change-row')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Add / })).toHaveCount(0);

  // no settings at all: ab output
  await side(panel, 'After').getByRole('button', { name: 'Remove the after file' }).click();
  await side(panel, 'After').getByLabel('After snapshot file').setInputFiles(AB);
  await panel.getByRole('button', { name: 'Compare snapshots' }).click();
  await expect(panel.getByRole('alert')).toHaveText(/after snapshot \(plain\.txt\) holds no settings: it was read as ab/);

  // one side missing: Compare is not offered
  await side(panel, 'After').getByRole('button', { name: 'Remove the after file' }).click();
  await expect(panel.getByRole('button', { name: 'Compare snapshots' })).toBeDisabled();

  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(detail.getByTestId('config-change-row')).toHaveCount(0);
});
