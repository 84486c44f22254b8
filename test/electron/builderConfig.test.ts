/**
 * electron-builder.yml checked offline with electron-builder's own schema validation (the same
 * check `electron-builder` runs first), plus the settings Tunebook depends on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const req = createRequire(path.join(root, 'package.json'));
const yaml = req('js-yaml') as { load(s: string): unknown };
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  linux: { target: string[]; category: string; desktop: { entry: Record<string, string> } };
  electronFuses: Record<string, boolean>;
  asarUnpack: string[];
  files: string[];
};

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    const { validateConfiguration } = req('app-builder-lib/out/util/config/config') as {
      validateConfiguration(c: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = req('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('identifies the app and targets every platform', () => {
    expect(config.appId).toBe('dev.tunebook.app');
    expect(config.productName).toBe('Tunebook');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.category).toBe('Development');
    expect(config.mac).toMatchObject({ target: 'dmg' });
    expect(config.win).toMatchObject({ target: 'nsis' });
  });

  it('packs the built app, unpacks native code, rebuilds better-sqlite3 for Electron', () => {
    expect(config.files).toEqual(expect.arrayContaining(['package.json', 'dist/electron/**', 'dist/renderer/**', 'dist/parseWorker.cjs', 'dist/storeWorker.cjs', 'dist/readWorker.cjs', 'dist/halfWorker.cjs']));
    expect(config.asarUnpack.some((p) => p.includes('better-sqlite3') && p.endsWith('.node'))).toBe(true);
    expect(config.npmRebuild).toBe(true);
  });

  it('flips the security fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true, grantFileProtocolExtraPrivileges: false, enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('has its icon and a desktop entry', () => {
    const png = readFileSync(path.join(root, 'build', 'icon.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
    expect(existsSync(path.join(root, 'build', 'icon.svg'))).toBe(true);
    expect(config.linux.desktop.entry).toMatchObject({ Name: 'Tunebook', StartupWMClass: 'Tunebook' });
  });
});
