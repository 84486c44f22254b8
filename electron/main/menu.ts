/**
 * The application menu as a plain template (no electron runtime import) so its shape is tested;
 * main.ts passes it to Menu.buildFromTemplate. File holds the notebook commands; devtools appear
 * only in development builds.
 */
import type { MenuItemConstructorOptions } from 'electron';
import path from 'node:path';

export interface MenuActions {
  newNotebook(): void;
  openNotebook(): void;
  openRecent(file: string): void;
  /** choose capture files and hand them to the window, which asks which experiment they go on */
  importCaptures(): void;
  reparseCaptures(): void;
  compactNotebook(): void;
  /** the window's Export dialog for the study it shows */
  exportStudy(): void;
  /** choose a bundle (.eln) and import it */
  importBundle(): void;
  /** save the capture kit (collect.sh) where the user chooses */
  saveCaptureKit(): void;
  /** the window's Keyboard shortcuts sheet */
  showShortcuts(): void;
  /** open the example notebook (a file of its own) */
  openExample(): void;
  openExternal(url: string): void;
  showAbout(): void;
}

export interface MenuOptions {
  isMac: boolean;
  isDev: boolean;
  recent: readonly string[];
  /** the open notebook, left out of "Open Recent" */
  current?: string;
  actions: MenuActions;
}

export const HELP_URL = 'https://github.com/tunebook/tunebook#readme';
export const ISSUES_URL = 'https://github.com/tunebook/tunebook/issues';

export function recentLabel(file: string): string {
  return `${path.basename(file)} — ${path.dirname(file)}`;
}

export function buildMenuTemplate(opts: MenuOptions): MenuItemConstructorOptions[] {
  const { isMac, isDev, actions } = opts;
  const recent = opts.recent.filter((f) => f !== opts.current).slice(0, 10);

  const recentItems: MenuItemConstructorOptions[] = recent.length > 0
    ? recent.map((file) => ({ label: recentLabel(file), click: () => actions.openRecent(file) }))
    : [{ label: 'No Recent Notebooks', enabled: false }];

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'new-notebook', label: 'New Notebook…', accelerator: 'CmdOrCtrl+Shift+N', click: () => actions.newNotebook() },
      { id: 'open-notebook', label: 'Open Notebook…', accelerator: 'CmdOrCtrl+O', click: () => actions.openNotebook() },
      { id: 'open-recent', label: 'Open Recent', submenu: recentItems },
      { type: 'separator' },
      { id: 'import-captures', label: 'Import Captures…', accelerator: 'CmdOrCtrl+I', click: () => actions.importCaptures() },
      { id: 'reparse-captures', label: 'Re-parse All Captures', click: () => actions.reparseCaptures() },
      { id: 'compact-notebook', label: 'Compact Notebook', click: () => actions.compactNotebook() },
      { id: 'save-capture-kit', label: 'Save Capture Kit…', click: () => actions.saveCaptureKit() },
      { type: 'separator' },
      { id: 'export-study', label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportStudy() },
      { id: 'import-bundle', label: 'Import Bundle…', click: () => actions.importBundle() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit', label: 'Quit', accelerator: 'CmdOrCtrl+Q' },
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' }, { role: 'redo' }, { type: 'separator' },
      { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'pasteAndMatchStyle' },
      { role: 'delete' }, { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      { role: 'reload' },
      ...(isDev ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      { type: 'separator' },
      { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const windowMenu: MenuItemConstructorOptions = {
    role: 'windowMenu',
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { id: 'keyboard-shortcuts', label: 'Keyboard Shortcuts', click: () => actions.showShortcuts() },
      { id: 'open-example', label: 'Open Example Notebook', click: () => actions.openExample() },
      { type: 'separator' },
      { label: 'Tunebook Documentation', click: () => actions.openExternal(HELP_URL) },
      { label: 'Report an Issue', click: () => actions.openExternal(ISSUES_URL) },
      ...(isMac ? [] : [{ type: 'separator' } as const, { label: 'About Tunebook', click: () => actions.showAbout() }]),
    ],
  };

  const appMenu: MenuItemConstructorOptions[] = isMac
    ? [{
      role: 'appMenu',
      submenu: [
        { role: 'about' }, { type: 'separator' }, { role: 'services' }, { type: 'separator' },
        { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' },
        { role: 'quit' },
      ],
    }]
    : [];

  return [...appMenu, file, edit, view, ...(isMac ? [windowMenu] : []), help];
}
