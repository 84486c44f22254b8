import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate } from '../../electron/main/menu';

function actions() {
  return {
    newNotebook: vi.fn(), openNotebook: vi.fn(), openRecent: vi.fn(), openExternal: vi.fn(), showAbout: vi.fn(),
    importCaptures: vi.fn(), reparseCaptures: vi.fn(), compactNotebook: vi.fn(), exportStudy: vi.fn(), importBundle: vi.fn(), saveCaptureKit: vi.fn(), showShortcuts: vi.fn(), openExample: vi.fn(),
  };
}

function sub(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  return (item?.submenu ?? []) as MenuItemConstructorOptions[];
}

function find(items: MenuItemConstructorOptions[], pred: (i: MenuItemConstructorOptions) => boolean): MenuItemConstructorOptions | undefined {
  for (const i of items) {
    if (pred(i)) return i;
    const inner = find(sub(i), pred);
    if (inner) return inner;
  }
  return undefined;
}

const click = (i: MenuItemConstructorOptions | undefined) => (i?.click as (() => void) | undefined)?.();

describe('application menu', () => {
  it('File has New, Open, Open Recent and Quit; New/Open call the actions', () => {
    const a = actions();
    const t = buildMenuTemplate({ isMac: false, isDev: false, recent: [], actions: a });
    expect(t.map((m) => m.label ?? m.role)).toEqual(['&File', '&Edit', '&View', 'help']);
    const file = sub(t[0]);
    expect(file.map((i) => i.label ?? i.role ?? i.type)).toEqual([
      'New Notebook…', 'Open Notebook…', 'Open Recent', 'separator', 'Import Captures…', 'Re-parse All Captures', 'Compact Notebook', 'Save Capture Kit…', 'separator',
      'Export…', 'Import Bundle…', 'separator', 'Quit',
    ]);
    click(file[0]);
    click(file[1]);
    expect(a.newNotebook).toHaveBeenCalledOnce();
    expect(a.openNotebook).toHaveBeenCalledOnce();
    click(file[4]);
    click(file[5]);
    click(file[6]);
    expect(a.importCaptures).toHaveBeenCalledOnce();
    expect(a.reparseCaptures).toHaveBeenCalledOnce();
    expect(a.compactNotebook).toHaveBeenCalledOnce();
    expect(file[4]!.accelerator).toBe('CmdOrCtrl+I');
    click(file[7]);
    expect(a.saveCaptureKit).toHaveBeenCalledOnce();
    click(file[9]);
    click(file[10]);
    expect(a.exportStudy).toHaveBeenCalledOnce();
    expect(a.importBundle).toHaveBeenCalledOnce();
    expect(file[9]!.accelerator).toBe('CmdOrCtrl+E');
  });

  it('lists recent notebooks without the open one, and opens them', () => {
    const a = actions();
    const t = buildMenuTemplate({ isMac: false, isDev: false, recent: ['/a/one.tunebook', '/b/two.tunebook'], current: '/a/one.tunebook', actions: a });
    const recent = sub(find(t, (i) => i.id === 'open-recent'));
    expect(recent.map((i) => i.label)).toEqual(['two.tunebook — /b']);
    click(recent[0]);
    expect(a.openRecent).toHaveBeenCalledWith('/b/two.tunebook');
  });

  it('shows a disabled placeholder when there is nothing recent', () => {
    const t = buildMenuTemplate({ isMac: false, isDev: false, recent: [], actions: actions() });
    expect(sub(find(t, (i) => i.id === 'open-recent'))).toEqual([{ label: 'No Recent Notebooks', enabled: false }]);
  });

  it('offers devtools only in development', () => {
    const prod = buildMenuTemplate({ isMac: false, isDev: false, recent: [], actions: actions() });
    const dev = buildMenuTemplate({ isMac: false, isDev: true, recent: [], actions: actions() });
    expect(find(prod, (i) => i.role === 'toggleDevTools')).toBeUndefined();
    expect(find(prod, (i) => i.role === 'reload')).toBeDefined();
    expect(find(dev, (i) => i.role === 'toggleDevTools')).toBeDefined();
  });

  it('has the app menu on macOS', () => {
    const t = buildMenuTemplate({ isMac: true, isDev: false, recent: [], actions: actions() });
    expect(t[0]?.role).toBe('appMenu');
    expect(find(t, (i) => i.role === 'windowMenu')).toBeDefined();
  });

  it('Help links go through openExternal', () => {
    const a = actions();
    const t = buildMenuTemplate({ isMac: false, isDev: false, recent: [], actions: a });
    click(find(t, (i) => i.label === 'Report an Issue'));
    expect(a.openExternal).toHaveBeenCalledWith(expect.stringMatching(/^https:\/\//));
    click(find(t, (i) => i.label === 'Keyboard Shortcuts'));
    expect(a.showShortcuts).toHaveBeenCalledOnce();
    click(find(t, (i) => i.label === 'Open Example Notebook'));
    expect(a.openExample).toHaveBeenCalledOnce();
  });
});
