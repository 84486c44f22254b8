/**
 * File › New Notebook… / Open Notebook… / Open Recent: a dialog, then `backend.openNotebook`
 * (which emits onDidChangeNotebook to the renderer). A notebook written by a newer Tunebook makes
 * the back end throw TunebookError('refused', …) without touching the file; the user gets an error
 * dialog and the current notebook stays open. Dialog and backend are passed in, so this is tested
 * with fakes.
 */
import path from 'node:path';
import type { NotebookInfo } from '../../shared/model';
import { TunebookError } from '../../shared/api';

export const NOTEBOOK_EXTENSION = '.tunebook';

export const OPEN_FILTERS = [
  { name: 'Tunebook notebooks', extensions: ['tunebook'] },
  { name: 'SQLite databases', extensions: ['sqlite', 'sqlite3', 'db'] },
];
export const SAVE_FILTERS = [{ name: 'Tunebook notebook', extensions: ['tunebook'] }];

export interface DialogLike {
  showSaveDialog(options: {
    title?: string; defaultPath?: string; buttonLabel?: string;
    filters?: { name: string; extensions: string[] }[]; properties?: ('createDirectory' | 'showOverwriteConfirmation')[];
  }): Promise<{ canceled: boolean; filePath?: string }>;
  showOpenDialog(options: {
    title?: string; defaultPath?: string; buttonLabel?: string;
    filters?: { name: string; extensions: string[] }[]; properties?: ('openFile' | 'multiSelections')[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
  showMessageBox(options: {
    type: 'error' | 'info' | 'warning'; title: string; message: string; detail?: string; buttons?: string[];
  }): Promise<unknown>;
}

export interface NotebookOpener {
  openNotebook(path: string, create: boolean): NotebookInfo;
}

export interface NotebookActionDeps {
  dialog: DialogLike;
  backend: NotebookOpener;
  /** where the dialogs start (app.getPath('documents')) */
  defaultDir: string;
  /** called after a successful open (recent list, window title, OS recent documents) */
  onOpened?: (info: NotebookInfo) => void;
}

/** Adds `.tunebook` when the user typed a bare name. */
export function withNotebookExtension(file: string): string {
  return path.extname(file) === '' ? file + NOTEBOOK_EXTENSION : file;
}

/** The error dialog's text for a failed open. */
export function describeOpenError(err: unknown, file: string): { title: string; message: string; detail: string } {
  const name = path.basename(file);
  if (err instanceof TunebookError && err.code === 'refused') {
    return {
      title: 'Cannot open notebook',
      message: `“${name}” cannot be opened by this version of Tunebook.`,
      detail: `${err.message}\n\nThe file was not changed. Update Tunebook to open it.`,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    title: 'Cannot open notebook',
    message: `“${name}” could not be opened.`,
    detail: `${message}\n\nThe current notebook is still open.`,
  };
}

export async function openNotebookFile(deps: NotebookActionDeps, file: string, create: boolean): Promise<NotebookInfo | null> {
  try {
    const info = deps.backend.openNotebook(file, create);
    deps.onOpened?.(info);
    return info;
  } catch (err) {
    const text = describeOpenError(err, file);
    await deps.dialog.showMessageBox({ type: 'error', buttons: ['OK'], ...text });
    return null;
  }
}

export async function newNotebookInteractive(deps: NotebookActionDeps): Promise<NotebookInfo | null> {
  const res = await deps.dialog.showSaveDialog({
    title: 'New Notebook',
    buttonLabel: 'Create',
    defaultPath: path.join(deps.defaultDir, `Untitled${NOTEBOOK_EXTENSION}`),
    filters: SAVE_FILTERS,
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  });
  if (res.canceled || !res.filePath) return null;
  return openNotebookFile(deps, withNotebookExtension(res.filePath), true);
}

export async function openNotebookInteractive(deps: NotebookActionDeps): Promise<NotebookInfo | null> {
  const res = await deps.dialog.showOpenDialog({
    title: 'Open Notebook',
    buttonLabel: 'Open',
    defaultPath: deps.defaultDir,
    filters: OPEN_FILTERS,
    properties: ['openFile'],
  });
  const file = res.filePaths[0];
  if (res.canceled || file === undefined) return null;
  return openNotebookFile(deps, file, false);
}
