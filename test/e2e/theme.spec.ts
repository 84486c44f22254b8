/**
 * Dark theme: the app follows the system's colour scheme (prefers-color-scheme), text keeps WCAG AA
 * contrast in both, and the charts (plotly) redraw in the scheme's colours when it changes.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addExperiment, addMetric, createStudy } from './support/ui';

type Rgb = [number, number, number];

function parse(color: string): Rgb {
  const m = color.match(/rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/);
  if (!m) throw new Error(`not an rgb() colour: ${color}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
function luminance(color: string): number {
  const [r, g, b] = parse(color).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The page's colours: body, and each text colour variable resolved by the browser to rgb(). */
async function colours(page: Page) {
  return page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const resolve = (v: string) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
    const out = {
      body: { bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color },
      vars: Object.fromEntries(['--bg', '--bg-panel', '--bg-sunken', '--fg', '--fg-muted', '--accent', '--accent-fg', '--good', '--bad', '--warn', '--good-bg', '--danger-bg', '--warn-bg', '--bg-hover', '--bg-active', '--mark', '--bg-code'].map((v) => [v, resolve(v)])),
    };
    probe.remove();
    return out;
  });
}

/** The drawn chart's background (plotly's paper) and the colour of its axis labels. */
async function chartColours(page: Page) {
  const chart = page.getByTestId('chart').first();
  await expect(chart).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  return chart.evaluate((el) => ({
    paper: getComputedStyle(el.querySelector('svg.main-svg')!).backgroundColor,
    plot: el.querySelector('.bglayer rect.bg')?.getAttribute('style') ?? '',
    tick: getComputedStyle(el.querySelector('.ytick text')!).fill,
  }));
}

function expectAA(c: Awaited<ReturnType<typeof colours>>) {
  const v = c.vars;
  // body text and muted text on every surface they sit on
  for (const bg of ['--bg', '--bg-panel', '--bg-sunken', '--bg-hover', '--bg-active', '--bg-code']) {
    expect.soft(contrast(v['--fg']!, v[bg]!), `--fg on ${bg}`).toBeGreaterThanOrEqual(4.5);
    expect.soft(contrast(v['--fg-muted']!, v[bg]!), `--fg-muted on ${bg}`).toBeGreaterThanOrEqual(4.5);
  }
  expect.soft(contrast(v['--fg']!, v['--mark']!), '--fg on --mark').toBeGreaterThanOrEqual(4.5);
  for (const fg of ['--accent', '--good', '--bad', '--warn']) {
    expect.soft(contrast(v[fg]!, v['--bg-panel']!), `${fg} on --bg-panel`).toBeGreaterThanOrEqual(4.5);
    expect.soft(contrast(v[fg]!, v['--bg']!), `${fg} on --bg`).toBeGreaterThanOrEqual(4.5);
  }
  expect.soft(contrast(v['--good']!, v['--good-bg']!), 'status badge kept').toBeGreaterThanOrEqual(4.5);
  expect.soft(contrast(v['--bad']!, v['--danger-bg']!), 'status badge failed').toBeGreaterThanOrEqual(4.5);
  expect.soft(contrast(v['--warn']!, v['--warn-bg']!), 'status badge reverted').toBeGreaterThanOrEqual(4.5);
  expect.soft(contrast(v['--accent-fg']!, v['--accent']!), 'primary button').toBeGreaterThanOrEqual(4.5);
}

test('the app and its chart follow the system colour scheme, dark and back to light', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await createStudy(page, 'theme study');
  const e = await addExperiment(page, 'Baseline');
  await addMetric(e, { name: 'requests_per_second', value: '140', unit: '1/s', better: 'higher', primary: true });

  const light = await colours(page);
  expect(luminance(light.body.bg)).toBeGreaterThan(0.8);
  expect(luminance(light.body.fg)).toBeLessThan(0.1);
  expectAA(light);
  const lightChart = await chartColours(page);
  expect(luminance(lightChart.paper)).toBeGreaterThan(0.8);
  expect(luminance(lightChart.tick)).toBeLessThan(0.2);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => luminance((await colours(page)).body.bg)).toBeLessThan(0.05);
  const dark = await colours(page);
  expect(luminance(dark.body.fg)).toBeGreaterThan(0.6);
  expectAA(dark);
  // the chart is drawn again in the dark colours: its background and labels follow the page
  await expect.poll(async () => luminance((await chartColours(page)).paper)).toBeLessThan(0.05);
  const darkChart = await chartColours(page);
  expect(luminance(darkChart.tick)).toBeGreaterThan(0.5);
  expect(contrast(darkChart.tick, darkChart.paper)).toBeGreaterThanOrEqual(4.5);
  await testInfo.attach('dark-mode', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(async () => luminance((await colours(page)).body.bg)).toBeGreaterThan(0.8);
  await expect.poll(async () => luminance((await chartColours(page)).paper)).toBeGreaterThan(0.8);
  expect(luminance((await chartColours(page)).tick)).toBeLessThan(0.2);
});
