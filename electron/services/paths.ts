import os from 'node:os';
import path from 'node:path';

/**
 * Where Tunebook keeps its files when not told otherwise: the same folder Electron's
 * app.getPath('userData') gives for productName "Tunebook", so the app, the CLI and browser mode
 * share one default notebook. TUNEBOOK_USER_DATA overrides it.
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TUNEBOOK_USER_DATA) return path.resolve(env.TUNEBOOK_USER_DATA);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Tunebook');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Tunebook');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Tunebook');
}
