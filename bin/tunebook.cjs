#!/usr/bin/env node
// The `tunebook` command: runs the built CLI (npm run build makes dist/cli.cjs).
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'dist', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error('tunebook: not built yet — run `npm run build` first');
  process.exit(1);
}
require(cli);
