// Layering (architecture.md): shared/ runs anywhere; renderer/ never touches Node or Electron;
// only electron/main/ imports electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Bare Node module names are matched exactly (as `paths`), so a local './util' is not mistaken for 'util'.
const nodeModules = ['fs', 'fs/promises', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'zlib', 'stream', 'worker_threads', 'util', 'events', 'readline', 'string_decoder'];
const nodeBuiltins = ['node:*'];
const nodePaths = (message) => nodeModules.map((name) => ({ name, message }));

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'build/**/*.mjs', 'bin/**/*.cjs', '*.config.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['bin/**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodePaths('shared/ runs anywhere: no Node built-ins'), patterns: [
        { group: ['electron', 'electron/*'], message: 'shared/ runs anywhere: no electron' },
        { group: nodeBuiltins, message: 'shared/ runs anywhere: no Node built-ins' },
        { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'shared/ has no UI' },
        { group: ['better-sqlite3'], message: 'shared/ has no database' },
        { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ imports nothing above it' },
      ] }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodePaths('the renderer has no Node'), patterns: [
        { group: ['electron', 'electron/*'], message: 'the renderer only knows the TunebookApi contract' },
        { group: nodeBuiltins, message: 'the renderer has no Node' },
        { group: ['better-sqlite3'], message: 'the renderer has no database' },
        { group: ['**/electron/**'], message: 'the renderer only knows the TunebookApi contract' },
        { group: ['plotly.js*'], message: 'plotly is wrapped by renderer/src/components/Chart only' },
      ] }],
    },
  },
  {
    files: ['renderer/src/components/Chart/**', 'renderer/src/env.d.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodePaths('the renderer has no Node'), patterns: [
        { group: ['electron', 'electron/*'], message: 'the renderer only knows the TunebookApi contract' },
        { group: nodeBuiltins, message: 'the renderer has no Node' },
        { group: ['better-sqlite3'], message: 'the renderer has no database' },
        { group: ['**/electron/**'], message: 'the renderer only knows the TunebookApi contract' },
      ] }],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['electron', 'electron/*'], message: 'only electron/main/ imports electron; services stay plain Node' },
        { group: ['**/renderer/**'], message: 'the Node side does not import the renderer' },
        { group: ['better-sqlite3'], message: 'electron/db/connection.ts owns the database connection; take a Db from it' },
      ] }],
    },
  },
  {
    files: ['electron/db/connection.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['electron', 'electron/*'], message: 'only electron/main/ imports electron; services stay plain Node' },
        { group: ['**/renderer/**'], message: 'the Node side does not import the renderer' },
      ] }],
    },
  },
);
