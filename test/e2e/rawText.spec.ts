/**
 * The raw text of a stored capture (issue 6): a finding's evidence "lines 15-17" marks all three
 * lines, not only the first; Find steps past its first page of 1,000 matches to the next, saying
 * where it is honestly ("1,001 of 1,200"), instead of wrapping back to match 1.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addExperiment, captureLinks, createStudy, dropFiles } from './support/ui';

const FIO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures', 'fio', 'fio-randwrite-4k-qd64-j64.txt');

/** Click ↓ `times` times, each after the page has drawn the last (a thousand Playwright clicks take a minute). */
async function stepDown(page: Page, times: number): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) {
      document.querySelector<HTMLButtonElement>('button[aria-label="Next match"]')!.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }, times);
}

test('raw text: a finding\'s evidence over a range of lines marks all of them', async ({ page }) => {
  await createStudy(page, 'raw text');
  const e = await addExperiment(page, 'reading');
  await dropFiles(e.getByRole('button', { name: /Drop captures on reading/ }), [FIO]);
  await expect(captureLinks(e)).toHaveCount(1);

  // a finding's evidence over three lines: all three are marked, and nothing else
  await e.getByRole('button', { name: 'fio-randwrite-4k-qd64-j64.txt', exact: true }).click();
  await page.getByRole('button', { name: 'lines 15-17' }).click();
  await expect(page.getByRole('tab', { name: 'Raw text' })).toHaveAttribute('aria-selected', 'true');
  const marked = page.locator('.raw-line.target');
  await expect(marked).toHaveCount(3);
  expect(await marked.evaluateAll((els) => els.map((el) => el.getAttribute('data-line')))).toEqual(['15', '16', '17']);
  for (const n of [15, 17]) await expect(page.locator(`.raw-line[data-line="${n}"]`)).toBeInViewport();
  // Go to line marks one line again
  await page.getByLabel('Line number').fill('30');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveAttribute('data-line', '30');
  // a single-line evidence marks one line
  await page.getByRole('tab', { name: 'Figures' }).click();
  await page.getByRole('button', { name: 'line 34', exact: true }).click();
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveAttribute('data-line', '34');

});

test('raw text: Find reaches the matches past its first page of 1,000', async ({ page }, testInfo) => {
  test.setTimeout(120_000); // a thousand steps, on a loaded machine
  // 1,300 lines, lines 101 to 1,300 match "needle": 1,200 matches
  const lines = Array.from({ length: 1_300 }, (_, i) => (i < 100 ? `hay ${i + 1}` : `needle ${i + 1}`));
  const many = testInfo.outputPath('many-needles.log');
  writeFileSync(many, `${lines.join('\n')}\n`);
  await createStudy(page, 'needles');
  const e = await addExperiment(page, 'many matches');
  await dropFiles(e.getByRole('button', { name: /Drop captures on many matches/ }), [many]);
  await expect(captureLinks(e)).toHaveCount(1);

  // a page of 1,000, then the next page when stepping past its last match
  await e.getByRole('button', { name: 'many-needles.log', exact: true }).click();
  await page.getByRole('tab', { name: 'Raw text' }).click();
  const search = page.getByRole('search', { name: 'Find in capture' }).getByRole('searchbox');
  await search.fill('NEEDLE');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const status = page.getByTestId('find-status');
  await expect(status).toHaveText('1 of 1,000+ (line 101)');
  // the last match is not known yet: ↑ does not wrap to the 1,000th
  await expect(page.getByRole('button', { name: 'Previous match' })).toHaveAttribute('aria-disabled', 'true');
  await search.press('Shift+Enter');
  await expect(status).toHaveText('1 of 1,000+ (line 101)');
  // Enter steps on, like ↓
  await search.press('Enter');
  await expect(status).toHaveText('2 of 1,000+ (line 102)');
  await stepDown(page, 998);
  await expect(status).toHaveText('1,000 of 1,000+ (line 1,100)');
  await page.getByRole('button', { name: 'Next match' }).click();
  await expect(status).toHaveText('1,001 of 1,200 (line 1,101)');
  await expect(page.locator('.raw-line.target')).toHaveAttribute('data-line', '1101');
  await expect(page.locator('.raw-line.target')).toContainText('needle 1101');
  // all loaded now: ↓ past the last wraps to the first, ↑ from the first to the last
  await stepDown(page, 199);
  await expect(status).toHaveText('1,200 of 1,200 (line 1,300)');
  await page.getByRole('button', { name: 'Next match' }).click();
  await expect(status).toHaveText('1 of 1,200 (line 101)');
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(status).toHaveText('1,200 of 1,200 (line 1,300)');
});
