import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const webFeatures = readdirSync('src/web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const fromRoot = (relative) => path.resolve(import.meta.dirname, relative);

export default tseslint.config(
  { ignores: ['dist', 'data', 'drizzle', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      // A circle of imports makes load order matter and hides which module owns what.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The composition root wires everything; nothing on the server imports it back (the
    // dependency types live in src/server/deps.ts).
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/main.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './src/server', from: './src/server/app.ts' }] },
      ],
    },
  },
  {
    // The web app's layers: app and pages compose features; a feature uses components/, lib/,
    // shared/ and another feature only through that feature's index.ts, its public entry.
    files: ['src/web/**/*.{ts,tsx}'],
    settings: {
      'import-x/resolver-next': [
        importX.createNodeResolver({
          extensions: ['.ts', '.tsx', '.js'],
          tsconfig: { configFile: fromRoot('tsconfig.json') },
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((name) => ({
              target: `./src/web/features/${name}`,
              from: fromRoot('src/web/features/**'),
              except: [
                fromRoot(`src/web/features/${name}/**`),
                fromRoot('src/web/features/*/index.ts'),
              ],
              message: 'Import another feature through its index.ts.',
            })),
            {
              target: ['./src/web/components', './src/web/lib', './src/web/features'],
              from: ['./src/web/app', './src/web/pages'],
              message: 'Features, components and lib do not import the app or its pages.',
            },
            {
              target: ['./src/web/components', './src/web/lib'],
              from: './src/web/features',
              message: 'Shared components and lib do not import features.',
            },
          ],
        },
      ],
    },
  },
);
