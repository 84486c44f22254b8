/**
 * A walk through the main views in light and dark mode, with screenshots attached to the report
 * (test-results/…/*.png) for a human to look at.
 */
import { expect, test } from './support/fixtures';
import type { Page } from './support/fixtures';
import { addConfigChange, addExperiment, addMetric, createProfile, createStudy, editExperiment, setRequirements } from './support/ui';

async function shot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

test('main views render (light and dark)', async ({ page }) => {
  // a study typed through the UI and seven screenshots: 38–44 s on a 2-core VM, near the 60 s default when it is loaded
  test.setTimeout(120_000);
  await expect(page.getByRole('heading', { level: 1, name: 'Tunebook' })).toBeVisible();
  await shot(page, '01-home');

  await createProfile(page, {
    name: 'Cloud VM 4C/8G', cpuModel: 'Intel Xeon Platinum 8163 @ 2.50GHz', cores: '4', threads: '4', memory: '8', memoryUnit: 'GiB',
    os: 'CentOS 7.5', kernel: '3.10.0-862.el7.x86_64', cloud: 'cloud VM 4C8G', software: 'nginx 1.15, PHP-FPM + Laravel 5.7, MySQL 5.7, Redis 5',
    disks: [{ name: 'vda', size: '40', sizeUnit: 'GiB', logical: '512', physical: '512', block: '4096', kind: 'ssd' }],
  });
  await shot(page, '02-profiles');

  await createStudy(page, 'health-check QPS', 'Health endpoint from 140 req/s to as far as it goes on 4 cores.');
  await setRequirements(page, [{ metric: 'requests_per_second', comparator: '>=', threshold: '250', unit: '1/s', label: 'target' }]);
  const values = [['Baseline', '140'], ['opcache without timestamp checks', '205'], ['phpredis instead of predis', '286'], ['pm.max_children 200', '270']] as const;
  for (const [title, value] of values) {
    const d = await addExperiment(page, title);
    await editExperiment(page, title, { status: title.startsWith('pm.') ? 'reverted' : 'kept', profile: 'Cloud VM 4C/8G' });
    await addMetric(d, { name: 'requests_per_second', value, unit: '1/s', primary: true });
  }
  await page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('button', { name: /^opcache/ }).click();
  const d = page.getByRole('region', { name: 'Experiment opcache without timestamp checks' });
  await addConfigChange(d, { scope: 'php.ini', key: 'opcache.validate_timestamps', before: '1', after: '0', why: 'strace: stat() on every request' });
  await editExperiment(page, 'opcache without timestamp checks', { notes: 'Evidence: `strace -c -f -p $(pgrep php-fpm)` shows **stat()** first.\n\n- cs ≈ 7,000/s\n- in ≈ 14,000/s (RES)\n\nSee [opcache docs](https://www.php.net/opcache).' });
  await expect(page.getByTestId('chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await shot(page, '03-study');
  await page.getByRole('region', { name: 'Experiment opcache without timestamp checks' }).scrollIntoViewIfNeeded();
  await shot(page, '04-experiment');

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search notebook' }).fill('opcache');
  await expect(page.getByRole('option').first()).toBeVisible();
  await shot(page, '05-search');
  await page.keyboard.press('Escape');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('main').evaluate((el) => el.scrollTo(0, 0));
  await shot(page, '06-study-dark');
  await page.getByRole('button', { name: 'Open notebook…' }).click();
  await shot(page, '07-open-dark');
});
