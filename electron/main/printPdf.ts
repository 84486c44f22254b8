/**
 * The desktop app prints a report's HTML to PDF with Electron's own Chromium (printToPDF), in a
 * hidden window that runs no script, on a session of its own whose only allowed request is the
 * report file itself (the report's CSP forbids any other load as well).
 */
import { BrowserWindow, session } from 'electron';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { PDF_FOOTER } from '../services/report/pdf';
import type { PdfPrinter } from '../services/report/pdf';

export const printReportPdf: PdfPrinter = async (htmlFile, pdfFile) => {
  const url = pathToFileURL(htmlFile).href;
  const ses = session.fromPartition('tunebook-print');
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: details.url !== url }));
  const win = new BrowserWindow({
    show: false,
    webPreferences: { session: ses, javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true },
  });
  try {
    await win.loadURL(url);
    const data = await win.webContents.printToPDF({
      pageSize: 'A4', printBackground: true, preferCSSPageSize: true,
      displayHeaderFooter: true, headerTemplate: '<span></span>', footerTemplate: PDF_FOOTER,
    });
    await writeFile(pdfFile, data);
  } finally {
    win.destroy();
  }
};
