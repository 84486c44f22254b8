// Vite builds the React renderer into dist/renderer. Relative asset URLs (base './') so the same
// build works from the Electron custom protocol and from the browser-mode HTTP host.
// JSX goes through Vite 8's built-in Oxc transform with React's automatic runtime (no plugin needed).
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    // Off by default: plotly's map alone is 11 MB in the package. TUNEBOOK_SOURCEMAP=1 turns them on.
    sourcemap: process.env.TUNEBOOK_SOURCEMAP === '1',
    chunkSizeWarningLimit: 6000,
  },
  server: { port: 5173, strictPort: false },
});
