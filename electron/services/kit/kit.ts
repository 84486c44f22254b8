/**
 * The capture kit: collect.sh, a POSIX sh script the user copies to the server being tuned
 * (`tunebook kit > collect.sh`, or File → Save Capture Kit…). It records the machine's facts and
 * the first-minutes checklist, optionally around a load generator, into one .tar.gz with a
 * manifest.json; see the comment at the top of collect.sh for the layout and the manifest.
 *
 * The script's text comes from collectScript.ts, generated from collect.sh by generate.mjs, so
 * the esbuild bundles need no loader for .sh files; test/kit checks the two agree.
 */
import { writeFile } from 'node:fs/promises';
import { COLLECT_SH } from './collectScript';

/** The kit's version, as collect.sh states it (KIT_VERSION=…) and writes it into its manifest. */
export const KIT_VERSION: string = /^KIT_VERSION=([^\s]+)$/m.exec(COLLECT_SH)?.[1] ?? 'unknown';

/** The name the kit is saved under by default. */
export const KIT_FILE_NAME = 'collect.sh';

/** The script's text. */
export function kitScript(): string {
  return COLLECT_SH;
}

/** Saves the script as an executable file (mode 0755; `sh collect.sh` works whatever the mode). */
export async function saveKit(file: string): Promise<void> {
  await writeFile(file, COLLECT_SH, { mode: 0o755 });
}
