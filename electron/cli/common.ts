/** What every command of the CLI uses (main.ts and the notebook commands, notebook.ts). */
import { PARSERS } from '../../shared/capture/registry';
import { TunebookError } from '../../shared/api';

/** A message on one line (an error from a library may hold several). */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** --kind KIND: a kind Tunebook reads, else a usage error */
export function checkKind(kind: string): void {
  if (kind !== 'text' && !PARSERS.some((p) => p.id === kind)) throw new TunebookError('invalid', `unknown kind "${kind}"; see tunebook parse --kinds`);
}
