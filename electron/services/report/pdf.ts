/**
 * PDF from a report's HTML, for the CLI and browser mode: the system's Chromium driven by
 * playwright-core (the desktop app prints with Electron's own printToPDF instead). The page is
 * the self-contained report file; every request but that file is refused as well, so printing can
 * never fetch anything. Pages are A4 with the report's print styles and a page number at the foot.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type * as PlaywrightCore from 'playwright-core';
import { TunebookError } from '../../../shared/api';

/** Where Chromium is looked for, in order (TUNEBOOK_CHROMIUM first). */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.TUNEBOOK_CHROMIUM;
  if (chosen) return existsSync(chosen) ? chosen : null;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** The page number at the foot of every page (Chromium's print template; no user text in it). */
export const PDF_FOOTER = '<div style="font: 8px system-ui, sans-serif; color: #777; width: 100%; text-align: center;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>';

export type PdfPrinter = (htmlFile: string, pdfFile: string) => Promise<void>;

export const printWithChromium: PdfPrinter = async (htmlFile, pdfFile) => {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new TunebookError('refused', `PDF export needs Chromium or Chrome, and none was found${process.env.TUNEBOOK_CHROMIUM ? ` at TUNEBOOK_CHROMIUM=${process.env.TUNEBOOK_CHROMIUM}` : ''}. `
      + 'Install it (Debian: apt-get install chromium) or point TUNEBOOK_CHROMIUM at it; the HTML export prints to PDF from any browser too.');
  }
  let pw: typeof PlaywrightCore;
  try {
    pw = await import('playwright-core');
  } catch {
    throw new TunebookError('refused', 'PDF export from the command line needs the playwright-core package (npm install).');
  }
  const browser = await pw.chromium.launch({
    executablePath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const url = pathToFileURL(htmlFile).href;
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    await page.goto(url, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    await page.pdf({
      path: pdfFile, printBackground: true, preferCSSPageSize: true,
      displayHeaderFooter: true, headerTemplate: '<span></span>', footerTemplate: PDF_FOOTER,
    });
  } finally {
    await browser.close();
  }
};
