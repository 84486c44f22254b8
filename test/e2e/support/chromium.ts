/** How the browser project launches Chromium: the Debian system build, never a downloaded one. */
export const CHROMIUM_PATH = process.env.TUNEBOOK_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
