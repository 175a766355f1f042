// Flat ESLint config. The import boundaries of ARCHITECTURE.md are enforced here,
// not by memory: only src/vscode/ (and the extension-host test suite) may import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/vscode/ may import `vscode` (see ARCHITECTURE.md).' }],
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist-test/**', 'node_modules/**', '.cache/**', 'out/**', 'test-output/**', '*.vsix', '.rlm/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
    },
  },
  {
    // Everything outside the adapter: no `vscode`.
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    ignores: ['src/vscode/**', 'test/integration/extensionHost/**'],
    rules: {
      'no-restricted-imports': ['error', noVscode],
    },
  },
  {
    // The webview runs in a browser and talks to the host only through src/shared/.
    files: ['webview/**/*.{ts,js,mjs}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        ...noVscode,
        patterns: [{ group: ['**/src/core/**', '**/src/vscode/**', '**/src/cli/**', '**/src/worker/**'], message: 'webview/ may import only src/shared/.' }],
      }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        ...noVscode,
        patterns: [{ group: ['**/vscode/**', '**/cli/**', '**/webview/**'], message: 'core/ and shared/ never import the adapters or the UI.' }],
      }],
    },
  },
  {
    // Tool configs must default-export; build scripts may use require.
    files: ['*.config.mjs', '**/*.mjs', 'scripts/**', 'esbuild.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-restricted-exports': 'off' },
  },
);
