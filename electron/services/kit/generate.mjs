// Writes collectScript.ts from collect.sh, so the bundles (esbuild) and the tests (vitest) get the
// script's text with no loader for .sh files. Run after editing collect.sh:
//   node electron/services/kit/generate.mjs
// test/kit/kit.test.ts fails when collectScript.ts is not collect.sh's text.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const here = (name) => path.join(import.meta.dirname, name);
const script = readFileSync(here('collect.sh'), 'utf8');
// a template literal that reads as the script: only \, ` and ${ are escaped
const body = script.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
writeFileSync(here('collectScript.ts'), `// Generated from collect.sh by generate.mjs: do not edit; edit collect.sh and run
//   node electron/services/kit/generate.mjs
export const COLLECT_SH = \`${body}\`;
`);
