/**
 * Electron entry (bundled to dist/electron/main.cjs): app lifecycle, the single window, the
 * tunebook://app protocol, the menu and dialogs. Everything with a decision in it lives in a plain
 * module next to this one (security.ts, protocol.ts, ipc.ts, menu.ts, notebookActions.ts,
 * launchConfig.ts) and is unit-tested; this file only wires them to Electron.
 *
 * Launch: `electron dist/electron/main.cjs` (or `npm start`). Environment: TUNEBOOK_USER_DATA,
 * TUNEBOOK_NOTEBOOK, TUNEBOOK_DEV (launchConfig.ts); TUNEBOOK_SQLITE_BINDING (scripts/start.mjs,
 * read by electron/db/connection.ts; ignored in packaged builds).
 */
import { BrowserWindow, Menu, app, dialog, ipcMain, nativeTheme, protocol, session, shell } from 'electron';
import type { WebContents } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { NotebookInfo } from '../../shared/model';
import { APP_VERSION, Backend, defaultNotebookPath } from '../services/backend';
import { userDataDir } from '../services/paths';
import { KIT_FILE_NAME, saveKit } from '../services/kit/kit';
import { exportError } from '../services/errors';
import type { RequestedAction } from '../../shared/api';
import { APP_ENTRY_URL, APP_SCHEME, eventChannel } from './channels';
import type { AppWebContentsLike } from './ipc';
import { forwardEvents, registerApiHandlers } from './ipc';
import { notebookFromArgv, resolveLaunchConfig, unpackedPath, windowTitle } from './launchConfig';
import { buildMenuTemplate } from './menu';
import type { DialogLike, NotebookActionDeps } from './notebookActions';
import { describeOpenError, newNotebookInteractive, openNotebookFile, openNotebookInteractive } from './notebookActions';
import { createAppProtocolHandler } from './protocol';
import { printReportPdf } from './printPdf';
import {
  CONTENT_SECURITY_POLICY, decideFrameNavigation, decideNavigation, decidePermission, decideWindowOpen, isAllowedExternalUrl,
  isAllowedRequest, withCspHeader,
} from './security';

const config = resolveLaunchConfig({ env: process.env, argv: process.argv, cwd: process.cwd(), isPackaged: app.isPackaged });

// A packaged build loads its own rebuilt better-sqlite3; never a binary named by the environment.
if (app.isPackaged) delete process.env.TUNEBOOK_SQLITE_BINDING;

// Before `ready`: name and userData (the single-instance lock lives there), the privileged scheme,
// the sandbox. Launched as `electron dist/electron/main.cjs` (Playwright) Electron finds no
// package.json and would call itself "Electron"; the userData folder is the one the CLI and
// browser mode use too (electron/services/paths.ts), or TUNEBOOK_USER_DATA.
app.setName('Tunebook');
app.setPath('userData', config.userDataDir ?? userDataDir(process.env));
// standard: real origin (tunebook://app) and relative URLs; secure: a secure context like https;
// corsEnabled: Chromium fetches <script type="module"> (Vite's output) in CORS mode, which it only
// allows for CORS-enabled schemes. bypassCSP stays off: the CSP applies to our own pages too.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
]);
app.enableSandbox();

const RENDERER_ROOT = path.join(__dirname, '..', 'renderer');
const PRELOAD = path.join(__dirname, 'preload.cjs');
// the window icon when running from a checkout (packaged builds get theirs from electron-builder)
const DEV_ICON = path.join(__dirname, '..', '..', 'build', 'icon.png');
// dist/parseWorker.cjs, storeWorker.cjs and readWorker.cjs (worker_threads entries; unpacked from the asar in packaged builds)
const PARSE_WORKER = unpackedPath(path.join(__dirname, '..', 'parseWorker.cjs'));
const STORE_WORKER = unpackedPath(path.join(__dirname, '..', 'storeWorker.cjs'));
const READ_WORKER = unpackedPath(path.join(__dirname, '..', 'readWorker.cjs'));

let mainWindow: BrowserWindow | null = null;
let backend: Backend | null = null;
let pendingFile: string | null = null;

function getAppWebContents(): (AppWebContentsLike & WebContents) | null {
  return mainWindow !== null && !mainWindow.isDestroyed() ? mainWindow.webContents : null;
}

function openExternalSafely(url: string): void {
  if (isAllowedExternalUrl(url)) void shell.openExternal(url);
}

/** Electron's dialogs, attached to the window when there is one. */
const windowDialog: DialogLike = {
  showSaveDialog: (o) => (mainWindow ? dialog.showSaveDialog(mainWindow, o) : dialog.showSaveDialog(o)),
  showOpenDialog: (o) => (mainWindow ? dialog.showOpenDialog(mainWindow, o) : dialog.showOpenDialog(o)),
  showMessageBox: (o) => (mainWindow ? dialog.showMessageBox(mainWindow, o) : dialog.showMessageBox(o)),
};

function actionDeps(b: Backend): NotebookActionDeps {
  return { dialog: windowDialog, backend: b, defaultDir: app.getPath('documents'), onOpened: notebookOpened };
}

function notebookOpened(info: NotebookInfo): void {
  mainWindow?.setTitle(windowTitle(info.path));
  app.addRecentDocument(info.path);
  rebuildMenu();
}

/** A menu command the window carries out (it owns the progress, the Undo and the choice of experiment). */
function requestAction(action: RequestedAction): void {
  const wc = getAppWebContents();
  if (wc && !wc.isDestroyed()) wc.send(eventChannel('onDidRequestAction'), action);
}

async function chooseCaptures(): Promise<void> {
  const r = await windowDialog.showOpenDialog({
    title: 'Import captures', buttonLabel: 'Import',
    properties: ['openFile', 'multiSelections'],
    filters: [{ name: 'Tool output', extensions: ['txt', 'log', 'out', 'csv', 'json', 'ini', 'conf', 'cnf'] }, { name: 'All files', extensions: ['*'] }],
  });
  if (!r.canceled && r.filePaths.length) requestAction({ action: 'import-captures', paths: r.filePaths });
}

async function chooseBundle(): Promise<void> {
  const r = await windowDialog.showOpenDialog({
    title: 'Import a bundle', buttonLabel: 'Import', properties: ['openFile'],
    filters: [{ name: 'Tunebook bundle', extensions: ['eln', 'zip'] }],
  });
  if (!r.canceled && r.filePaths[0]) requestAction({ action: 'import-bundle', path: r.filePaths[0] });
}

/** The renderer's --bg (renderer/src/styles/base.css) for the system's light or dark setting. */
function windowBackground(): string {
  return nativeTheme.shouldUseDarkColors ? '#16181c' : '#fbfbf9';
}

/** File › Save Capture Kit…: collect.sh where the user chooses, to copy to the server being tuned. */
async function saveCaptureKitInteractive(): Promise<void> {
  const file = await chooseSavePath({ title: 'Save the capture kit', defaultName: KIT_FILE_NAME, filterName: 'Shell script', extensions: ['sh'] });
  if (!file) return;
  try {
    await saveKit(file);
    await windowDialog.showMessageBox({
      type: 'info', title: 'Capture kit saved', buttons: ['OK'], message: `Saved ${path.basename(file)}`,
      detail: `Copy it to the server being tuned and run: sh ${path.basename(file)} -h\nIt writes one .tar.gz to drop on an experiment.`,
    });
  } catch (e) {
    await windowDialog.showMessageBox({ type: 'error', title: 'Capture kit not saved', buttons: ['OK'], message: exportError(e, file).message });
  }
}

/** The Save dialog of an export, starting in Documents. */
async function chooseSavePath(o: { title: string; defaultName: string; filterName: string; extensions: string[] }): Promise<string | null> {
  const r = await windowDialog.showSaveDialog({
    title: o.title, defaultPath: path.join(app.getPath('documents'), o.defaultName), filters: [{ name: o.filterName, extensions: o.extensions }],
  });
  return r.canceled || !r.filePath ? null : r.filePath;
}

function rebuildMenu(): void {
  const b = backend;
  const recent = b ? (b.call('recentNotebooks', []) as string[]) : [];
  const current = b ? (b.call('notebookInfo', []) as NotebookInfo).path : undefined;
  const template = buildMenuTemplate({
    isMac: process.platform === 'darwin',
    isDev: config.isDev,
    recent,
    current,
    actions: {
      newNotebook: () => { if (b) void newNotebookInteractive(actionDeps(b)); },
      openNotebook: () => { if (b) void openNotebookInteractive(actionDeps(b)); },
      openRecent: (file) => { if (b) void openNotebookFile(actionDeps(b), file, false); },
      importCaptures: () => { void chooseCaptures(); },
      reparseCaptures: () => requestAction({ action: 'reparse-captures' }),
      compactNotebook: () => requestAction({ action: 'compact-notebook' }),
      exportStudy: () => requestAction({ action: 'export-study' }),
      importBundle: () => { void chooseBundle(); },
      saveCaptureKit: () => { void saveCaptureKitInteractive(); },
      showShortcuts: () => requestAction({ action: 'show-shortcuts' }),
      openExample: () => requestAction({ action: 'open-example' }),
      openExternal: openExternalSafely,
      showAbout: () => {
        void windowDialog.showMessageBox({
          type: 'info', title: 'About Tunebook', buttons: ['OK'],
          message: `Tunebook ${APP_VERSION}`,
          detail: `A lab notebook for performance tuning.\nElectron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
        });
      },
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** Items 13, 14, 12: every WebContents (window or not) gets the navigation and window policy. */
function hardenWebContents(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (decideWindowOpen(url) === 'open-external') openExternalSafely(url);
    return { action: 'deny' };
  });
  const guard = (event: { preventDefault(): void }, url: string, decide = decideNavigation) => {
    const decision = decide(url);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') openExternalSafely(url);
  };
  contents.on('will-navigate', (event) => guard(event, event.url));
  contents.on('will-redirect', (event) => guard(event, event.url));
  contents.on('will-frame-navigate', (event) => { if (!event.isMainFrame) guard(event, event.url, decideFrameNavigation); });
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback, details) => callback(decidePermission(permission, details.requestingUrl)));
  ses.setPermissionCheckHandler((_wc, permission, requestingOrigin) => decidePermission(permission, requestingOrigin));
  ses.setDevicePermissionHandler(() => false);
  // no remote content: only our scheme (and data:/blob:/devtools:) ever loads
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
  ses.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = withCspHeader(details.url, details.responseHeaders);
    callback(responseHeaders ? { responseHeaders } : {});
  });
}

function createWindow(b: Backend): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: windowTitle((b.call('notebookInfo', []) as NotebookInfo).path),
    // the page's --bg in the system's theme, so the window never flashes the other one
    backgroundColor: windowBackground(),
    ...(!app.isPackaged && existsSync(DEV_ICON) ? { icon: DEV_ICON } : {}),
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: config.isDev,
    },
  });
  mainWindow = win;
  win.once('ready-to-show', () => win.show());
  const followTheme = (): void => { if (!win.isDestroyed()) win.setBackgroundColor(windowBackground()); };
  nativeTheme.on('updated', followTheme);
  win.once('closed', () => nativeTheme.off('updated', followTheme));
  // keep the notebook's name as the title even when the page sets <title>
  win.on('page-title-updated', (event) => event.preventDefault());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
}

function focusWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function openFromOs(file: string): void {
  if (backend) void openNotebookFile(actionDeps(backend), file, false);
  else pendingFile = file;
}

async function start(): Promise<void> {
  hardenSession();
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: RENDERER_ROOT, csp: CONTENT_SECURITY_POLICY }));

  const userData = app.getPath('userData');
  const notebookPath = config.notebookPath ?? defaultNotebookPath(userData);
  let b: Backend;
  try {
    b = new Backend({ notebookPath, userDataDir: userData, appVersion: APP_VERSION, parseWorkerFile: PARSE_WORKER, storeWorkerFile: STORE_WORKER, readWorkerFile: READ_WORKER, watchOtherWriters: true });
  } catch (err) {
    const text = describeOpenError(err, notebookPath);
    dialog.showErrorBox(text.title, `${text.message}\n\n${text.detail.replace('The current notebook is still open.', '')}`.trim());
    app.exit(1);
    return;
  }
  backend = b;
  b.setHostHooks({ chooseSavePath, printPdf: printReportPdf });
  registerApiHandlers(ipcMain, { backend: b, getWebContents: getAppWebContents });
  forwardEvents(b, getAppWebContents);
  b.on('onDidChangeNotebook', notebookOpened);

  rebuildMenu();
  createWindow(b);
  if (pendingFile) {
    const file = pendingFile;
    pendingFile = null;
    openFromOs(file);
  }
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(b);
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv, cwd) => {
    focusWindow();
    const file = notebookFromArgv(argv, cwd);
    if (file) openFromOs(file);
  });
  // macOS: a notebook double-clicked in Finder (may arrive before `ready`)
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openFromOs(file);
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    backend?.close();
    backend = null;
  });
  app.whenReady().then(start).catch((err: unknown) => {
    console.error('tunebook: failed to start', err);
    app.exit(1);
  });
}
