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
    // The web app's code flows one way: shared parts (components/, lib/, src/shared) → features/ →
    // app/ and pages/, which compose features. No feature imports another: what two features need
    // lives in components/ or lib/, or a page passes one feature's part to the other as a prop.
    files: ['src/web/**/*.{ts,tsx}', 'src/shared/**/*.ts'],
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
              from: './src/web/features',
              except: [`./${name}`],
              message:
                'A feature does not import another feature: move what both need to components/ or lib/, or compose them in a page.',
            })),
            {
              target: './src/web/features',
              from: ['./src/web/app', './src/web/pages'],
              message: 'Features do not import the app or its pages.',
            },
            {
              target: ['./src/web/components', './src/web/lib', './src/shared'],
              from: ['./src/web/features', './src/web/app', './src/web/pages'],
              message:
                'Shared parts (components/, lib/, src/shared) do not import features, pages or the app.',
            },
          ],
        },
      ],
    },
  },
);
