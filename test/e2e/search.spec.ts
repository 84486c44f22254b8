/** Full-text search (Ctrl+K or /) finds a config change and navigates to its experiment. */
import { expect, test } from './support/fixtures';
import { addConfigChange, addExperiment, createStudy } from './support/ui';

test('search finds a config change and opens its experiment', async ({ page }) => {
  await createStudy(page, '50k QPS');
  await addExperiment(page, 'Baseline');
  const step = await addExperiment(page, 'TIME_WAIT tuning');
  await addConfigChange(step, { scope: 'sysctl', key: 'net.ipv4.tcp_max_tw_buckets', before: '180000', after: '6000', why: 'ss -s: too many TIME_WAIT sockets' });
  await addConfigChange(step, { scope: 'sysctl', key: 'net.ipv4.ip_local_port_range', before: '32768 60999', after: '1024 65000', why: 'more ephemeral ports' });
  // go elsewhere first, so the navigation is visible
  await page.getByRole('button', { name: 'Baseline' }).first().click();
  await expect(page.getByRole('region', { name: 'Experiment Baseline' })).toBeVisible();

  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: 'Search notebook' });
  await expect(box).toBeFocused();
  await box.fill('tcp_max_tw_buckets');
  const results = page.getByRole('listbox', { name: 'Search results' });
  const hit = results.getByRole('option').filter({ hasText: 'config' }).first();
  await expect(hit).toBeVisible();
  await expect(hit.locator('mark').first()).toBeVisible();
  await hit.click();
  const detail = page.getByRole('region', { name: 'Experiment TIME_WAIT tuning' });
  await expect(detail).toBeVisible();
  await expect(detail.getByTestId('config-change-row').filter({ hasText: 'net.ipv4.tcp_max_tw_buckets' })).toBeVisible();

  // "/" focuses the search too, and the keyboard picks a result
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await box.fill('ephemeral');
  await expect(results.getByRole('option').first()).toBeVisible();
  await box.press('Enter');
  await expect(detail).toBeVisible();
});
