/**
 * Case study C (product.md) from its captures alone: the seed fio and iostat output dropped on two
 * experiments, the headline figures proposed and accepted as results, 2,197 → 43.0k IOPS
 * (+1,857.2 %), the bandwidth 8,788 KiB/s → 168 MiB/s taken from the capture view against
 * "≥ 100 MiB/s", the raw text, search and a finding's evidence, a series chart, and the stored
 * bytes given back identical by `tunebook cat`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { addExperiment, captureLinks, createStudy, dropFiles, experimentDetail, setRequirements, timelineRows } from './support/ui';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..', '..');
const FIXTURES = path.join(HERE, '..', 'fixtures', 'captures');
const FIO_RANDOM = path.join(FIXTURES, 'fio', 'fio-randwrite-4k-qd64-j64.txt');
const FIO_SEQ = path.join(FIXTURES, 'fio', 'fio-write-4k-qd64-j64.txt');
const IOSTAT_RANDOM = path.join(FIXTURES, 'iostat', 'iostat-x-d-1-during-randwrite.txt');
const IOSTAT_SEQ = path.join(FIXTURES, 'iostat', 'iostat-x-d-1-during-seqwrite.txt');

test('case study C: fio random vs sequential writes from the seed captures alone', async ({ page, notebookPath, userDataDir }, testInfo) => {
  await createStudy(page, 'vda: random vs sequential writes', 'Why are 4k random writes so slow on the virtio disk?');
  await setRequirements(page, [{ metric: 'bandwidth_bytes_per_second', comparator: '>=', threshold: '100 MiB/s', unit: '', label: 'write bandwidth' }]);

  // 1. random writes: fio + iostat dropped on the experiment's panel
  const random = await addExperiment(page, 'random writes, bs 4k');
  await dropFiles(random.getByRole('button', { name: /Drop captures on random writes/ }), [FIO_RANDOM, IOSTAT_RANDOM]);
  await expect(captureLinks(random)).toHaveCount(2);
  await expect(captureLinks(random).nth(0)).toContainText('fio');
  await expect(captureLinks(random).nth(1)).toContainText('iostat');
  await expect(captureLinks(random).nth(1)).toContainText('info'); // io.random-writes
  const proposal = random.getByTestId('result-proposal');
  await expect(proposal).toContainText('fio-randwrite-4k-qd64-j64.txt');
  await proposal.getByRole('button', { name: 'Use 2,197 IOPS as primary result' }).click();
  await expect(random.getByTestId('metric-row')).toHaveCount(1);
  await expect(random.getByTestId('metric-value')).toHaveText('2,197 IOPS');
  await expect(random.getByTestId('metric-source')).toHaveText('fio-randwrite-4k-qd64-j64.txt · line 9');

  // 2. sequential writes: dropped on the experiment's row in the list
  await addExperiment(page, 'sequential writes, bs 4k');
  const row = page.getByTestId('experiment-item').filter({ hasText: 'sequential writes' });
  await dropFiles(row, [FIO_SEQ, IOSTAT_SEQ]);
  const seq = experimentDetail(page, 'sequential writes, bs 4k');
  await expect(captureLinks(seq)).toHaveCount(2);
  await seq.getByTestId('result-proposal').getByRole('button', { name: 'Use 43.0k IOPS as primary result' }).click();
  await expect(seq.getByTestId('metric-value')).toHaveText('43.0k IOPS');

  const rows = timelineRows(page);
  await expect(rows.nth(0).getByTestId('timeline-value')).toHaveText('2,197 IOPS');
  await expect(rows.nth(1).getByTestId('timeline-value')).toHaveText('43.0k IOPS');
  await expect(rows.nth(1).getByTestId('timeline-step')).toHaveText('+1,857.2 %');
  await expect(page.getByTestId('chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await page.screenshot({ path: testInfo.outputPath('case-c-timeline.png'), fullPage: true });

  // 3. the capture view: bandwidth as a second result, the link both ways, raw text, evidence, charts
  await seq.getByRole('button', { name: 'fio-write-4k-qd64-j64.txt', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'fio-write-4k-qd64-j64.txt' })).toBeVisible();
  const iops = page.getByTestId('capture-metric').filter({ hasText: 'iops' }).first();
  await expect(iops).toContainText('primary result');
  const bw = page.getByTestId('capture-metric').filter({ hasText: 'bandwidth_bytes_per_second' }).first();
  await expect(bw).toContainText('168 MiB/s');
  await bw.getByRole('button', { name: /as result$/ }).click();
  await expect(bw).toContainText('result');
  await page.getByRole('button', { name: /sequential writes, bs 4k/ }).first().click();
  await expect(seq.getByTestId('metric-row').filter({ hasText: 'bandwidth' }).getByTestId('metric-value')).toHaveText('168 MiB/s');

  await page.getByTestId('experiment-item').filter({ hasText: 'random writes' }).getByRole('button').first().click();
  await random.getByRole('button', { name: 'fio-randwrite-4k-qd64-j64.txt', exact: true }).click();
  await page.getByTestId('capture-metric').filter({ hasText: 'bandwidth_bytes_per_second' }).first().getByRole('button', { name: /as result$/ }).click();
  await page.getByRole('tab', { name: 'Raw text' }).click();
  await page.getByRole('search', { name: 'Find in capture' }).getByRole('searchbox').fill('IOPS=');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('find-status')).toHaveText('1 of 1 (line 9)');
  await expect(page.locator('.raw-line.target')).toContainText('IOPS=2197');
  await page.getByRole('tab', { name: 'Figures' }).click();
  await page.getByRole('button', { name: /^lines \d+-\d+$|^line \d+$/ }).first().click();
  await expect(page.getByRole('tab', { name: 'Raw text' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.raw-line.target').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('case-c-raw-text.png') });

  // both bandwidth results against "≥ 100 MiB/s": judged in base units
  await page.getByRole('button', { name: /random writes, bs 4k/ }).first().click();
  await expect(random.getByTestId('metric-row').filter({ hasText: 'bandwidth' }).getByTestId('metric-value')).toHaveText('8,788 KiB/s');
  // and the verdicts: 8,788 KiB/s misses 100 MiB/s, 168 MiB/s meets it (a unit-blind comparison would say the opposite)
  const bandwidthVerdicts = page.getByTestId('verdict-table').getByTestId('verdict-row').filter({ hasText: 'write bandwidth' }).getByTestId('verdict-cell');
  await expect(bandwidthVerdicts).toHaveText([/8,788 KiB\/s\s*✗/, /168 MiB\/s\s*✓/]);

  // the iostat series on a chart
  await random.getByRole('button', { name: 'iostat-x-d-1-during-randwrite.txt', exact: true }).click();
  await page.getByRole('tab', { name: 'Charts' }).click();
  await page.getByLabel('Column').selectOption({ label: 'w/s (writes_per_second)' });
  await expect(page.getByTestId('series-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('series-points')).toContainText('20 points');
  await page.screenshot({ path: testInfo.outputPath('case-c-chart.png') });

  // 4. search finds the fio run by its figure, and says the study
  await page.getByRole('combobox', { name: 'Search notebook' }).fill('2197');
  const hit = page.getByRole('option').filter({ hasText: 'fio-randwrite-4k-qd64-j64.txt' });
  await expect(hit).toContainText('in vda: random vs sequential writes');

  // 5. side by side: pick the two rows in the timeline
  await page.keyboard.press('Escape');
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /vda: random vs sequential/ }).click();
  await page.getByRole('checkbox', { name: 'Compare random writes, bs 4k' }).check();
  await page.getByRole('checkbox', { name: 'Compare sequential writes, bs 4k' }).check();
  await page.getByRole('button', { name: 'Compare the two side by side' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Side by side' })).toBeVisible();
  const delta = (name: string) => page.getByTestId('metric-delta').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(delta('iops')).toContainText('2,197 IOPS');
  await expect(delta('iops')).toContainText('43.0k IOPS');
  await expect(delta('iops').getByTestId('delta-abs')).toHaveText('+40.8k IOPS');
  await expect(delta('iops').getByTestId('delta-percent')).toHaveText('+1,857.2 %');
  await expect(delta('bandwidth_bytes_per_second').getByTestId('delta-percent')).toHaveText('+1,857.6 %');
  await expect(delta('bandwidth_bytes_per_second')).toContainText('8,788 KiB/s');
  await expect(delta('bandwidth_bytes_per_second')).toContainText('168 MiB/s');
  await expect(page.getByTestId('bar-chart').first()).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('bar-chart').first().locator('.bartext')).toHaveText(['2,197 IOPS', '43.0k IOPS']);
  // the iostat of both runs on one chart: w/s
  const overlay = page.getByRole('region', { name: 'Series, overlaid' });
  await expect(overlay.getByLabel('Column')).toHaveValue('w/s');
  await expect(overlay.getByTestId('series-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(overlay.getByTestId('overlay-points')).toHaveText('20 and 14 samples');
  await overlay.getByLabel('Column').selectOption('avgrq-sz');
  await expect(overlay.getByTestId('series-chart')).toHaveAttribute('data-state', 'ready');
  await page.screenshot({ path: testInfo.outputPath('case-c-side-by-side.png'), fullPage: true });

  // 6. the bytes come back identical
  const show = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'dist', 'cli.cjs'), 'show', '--notebook', notebookPath, '--json', 'vda: random vs sequential writes'],
    { encoding: 'utf8', env: { ...process.env, TUNEBOOK_USER_DATA: userDataDir } })) as { experiments: { captures: { id: number; name: string }[] }[]; timeline: { stepChangePercent: number | null }[] };
  expect(show.timeline[1]!.stepChangePercent).toBe(1857.2);
  for (const c of show.experiments.flatMap((e) => e.captures)) {
    const bytes = execFileSync(process.execPath, [path.join(ROOT, 'dist', 'cli.cjs'), 'cat', '--notebook', notebookPath, String(c.id)], { env: { ...process.env, TUNEBOOK_USER_DATA: userDataDir } });
    const original = [FIO_RANDOM, FIO_SEQ, IOSTAT_RANDOM, IOSTAT_SEQ].find((f) => path.basename(f) === c.name)!;
    expect(bytes.equals(readFileSync(original)), c.name).toBe(true);
  }
});
