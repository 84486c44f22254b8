/**
 * The one TunebookApi the renderer uses: the preload's `window.tunebook` inside Electron, the HTTP
 * client in browser mode (`tunebook serve`). The UI never knows which host it has.
 */
import type { TunebookApi } from '../../../shared/api';
import { createHttpClient } from './httpClient';

let instance: TunebookApi | null = null;

export function getApi(): TunebookApi {
  instance ??= window.tunebook ?? createHttpClient();
  return instance;
}

/** Message and code of anything a call threw (errors crossing contextBridge lose their class). */
export function describeError(e: unknown): { code: string; message: string } {
  if (e && typeof e === 'object') {
    const { code, message } = e as { code?: unknown; message?: unknown };
    let msg = typeof message === 'string' && message ? message : String(e);
    // Electron's ipcRenderer.invoke prefixes "Error invoking remote method 'x': Error: ".
    msg = msg.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, '');
    return { code: typeof code === 'string' ? code : 'internal', message: msg };
  }
  return { code: 'internal', message: String(e) };
}
