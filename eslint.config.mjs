// Flat ESLint config. The import boundaries of ARCHITECTURE.md are enforced here,
// not by memory: only src/vscode/ (and the extension-host test suite) may import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/vscode/ may import `vscode` (see ARCHITECTURE.md).' }],
};

// Shipped code (src/, webview/) stands apart from the benches, the tests and the build scripts: those
// may import src/, never the other way, so nothing of them can end up in a bundle.
const notBenchTestOrScripts = {
  group: ['**/bench', '**/bench/**', '**/test', '**/test/**', '**/scripts', '**/scripts/**'],
  message: 'Shipped code (src/, webview/) never imports bench/, test/ or scripts/ (see ARCHITECTURE.md).',
};

/** One `no-restricted-imports` setting: a later config block replaces an earlier one, so each block lists all its patterns. */
function restrictImports({ vscode = true, patterns = [] } = {}) {
  return ['error', { ...(vscode ? noVscode : {}), patterns: [...patterns, notBenchTestOrScripts] }];
}

// core/ and shared/ sit below the adapters, the UI and eval/.
const coreAndShared = { group: ['**/vscode/**', '**/cli/**', '**/webview/**', '**/eval/**'], message: 'core/ and shared/ never import the adapters, the UI or eval/.' };

/**
 * Layers inside a top folder (docs/architecture.md, "Inside the top folders"): the files of `folders`
 * never import a sibling folder in `above`, so every arrow between them points one way. Only sibling
 * imports (`../<folder>/`) are matched: every file of these folders sits directly in its folder, so an
 * import of another top folder (`../../core/trajectory/...`) is never mistaken for one.
 */
function layer(top, folders, above, { vscode = true, patterns = [] } = {}) {
  return {
    files: folders.map((folder) => `src/${top}/${folder}/*.ts`),
    rules: {
      'no-restricted-imports': restrictImports({
        vscode,
        patterns: [...patterns, { regex: `^\\.\\./(${above.join('|')})/`, message: `src/${top}/{${folders.join(',')}} sit below src/${top}/{${above.join(',')}} and never import them: every arrow points one way (docs/architecture.md).` }],
      }),
    },
  };
}

export default tseslint.config(
  {
    // importBoundaries/ holds deliberately bad imports, linted under the paths they name by a unit test.
    ignores: ['dist/**', 'dist-test/**', 'node_modules/**', '.cache/**', 'out/**', 'test-output/**', '*.vsix', '.rlm/**', 'test/fixtures/importBoundaries/**'],
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
    // Shipped code formats counts with formatCount (src/shared/text/format).
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // Chromium builds a new ICU formatter for every call (about 16 µs); the trajectory view's
          // placeholders spent 200 ms there. formatCount groups whole counts by hand.
          selector: "CallExpression[callee.property.name='toLocaleString']",
          message: 'Format counts with formatCount from src/shared/text/format; toLocaleString builds an ICU formatter per call.',
        },
      ],
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
    files: ['src/**/*.{ts,mts,cts,js,mjs,cjs}'],
    ignores: ['src/vscode/**'],
    rules: { 'no-restricted-imports': restrictImports() },
  },
  {
    // The adapter may import `vscode`, and like all shipped code never a bench, a test or a script.
    files: ['src/vscode/**/*.{ts,mts,cts,js,mjs,cjs}'],
    rules: { 'no-restricted-imports': restrictImports({ vscode: false }) },
  },
  {
    // The webview runs in a browser and talks to the host only through src/shared/.
    files: ['webview/**/*.{ts,js,mjs}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrictImports({
        patterns: [{ group: ['**/src/core/**', '**/src/vscode/**', '**/src/cli/**', '**/src/worker/**', '**/src/eval/**'], message: 'webview/ may import only src/shared/.' }],
      }),
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({ patterns: [coreAndShared] }),
    },
  },
  // The layers inside core/, the adapter and the CLI (each block lists the folder's patterns in full).
  layer('core', ['context', 'models', 'repl'], ['trajectory', 'citations', 'continuation', 'loop', 'agentAsk'], { patterns: [coreAndShared] }),
  layer('core', ['trajectory', 'citations', 'continuation'], ['loop', 'agentAsk'], { patterns: [coreAndShared] }),
  layer('core', ['loop'], ['agentAsk'], { patterns: [coreAndShared] }),
  layer('vscode', ['settings', 'errors', 'webviews', 'history', 'engine', 'context', 'models'], ['run', 'trajectory', 'services', 'commands', 'chat', 'agentTool', 'sidebar', 'modelSetup'], { vscode: false }),
  layer('vscode', ['run'], ['trajectory', 'services', 'commands', 'chat', 'agentTool', 'sidebar', 'modelSetup'], { vscode: false }),
  layer('vscode', ['trajectory'], ['services', 'commands', 'chat', 'agentTool', 'sidebar', 'modelSetup'], { vscode: false }),
  layer('vscode', ['services'], ['commands', 'chat', 'agentTool', 'sidebar', 'modelSetup'], { vscode: false }),
  layer('cli', ['support'], ['commands', 'mcp', 'eval']),
  {
    // `rlm eval`'s suites and scripted policy sit below the CLI: importing it back would make a cycle.
    files: ['src/eval/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        patterns: [{ group: ['**/vscode/**', '**/cli/**', '**/webview/**'], message: 'eval/ is used by the CLI and never imports it, the adapter or the UI.' }],
      }),
    },
  },
  {
    // Tool configs must default-export; build scripts may use require.
    files: ['*.config.mjs', '**/*.mjs', 'scripts/**', 'esbuild.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-restricted-exports': 'off' },
  },
);
