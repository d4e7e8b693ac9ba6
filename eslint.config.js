// The house rules a machine can check (docs/style.md, point 16): correctness rules for
// TypeScript, React hooks and accessibility of JSX, no import cycles, and the web app's
// import boundaries (a feature never imports another feature; shared pieces live in
// src/components, src/lib, src/api, src/app, src/state and src/i18n).
import fs from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = 'apps/web/src/features';

/** Each feature folder may import its own files and shared code, never another feature. */
function featureBoundaries() {
  const features = fs.readdirSync(FEATURES, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return {
    files: [`${FEATURES}/**/*.{ts,tsx}`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: features.map(({ name }) => ({
            target: `./${FEATURES}/${name}`,
            from: `./${FEATURES}`,
            except: [`./${name}`],
            message: 'A web feature does not import another feature: move the shared piece to src/components, src/lib or src/api.',
          })),
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packages/vault/build/**',
      'packages/vault/native/**',
      'apps/web/guide/**',
      'apps/web/public/**',
      '.test-results/**',
      'data/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A dialog's first field takes the focus when the dialog opens (MUI moves it there and
      // gives it back on close); autofocus on a plain DOM element of a page stays refused.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  featureBoundaries(),
);
