// ARCHITECTURE.md: only src/vscode/ may import `vscode`, webview/ may import only src/shared/, and shipped
// code never imports bench/, test/ or scripts/.
// These run the project's real ESLint config over source text placed at the forbidden paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ESLint } from 'eslint';

// One ESLint for every case: each instance loads and resolves the whole config again.
let shared: ESLint | undefined;

async function lintAs(path: string, code: string): Promise<string[]> {
  const eslint = (shared ??= new ESLint({ cwd: process.cwd() }));
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const vscodeImport = "import * as vscode from 'vscode';\nexport const x = vscode.version;\n";

for (const path of ['src/core/loop/bad.ts', 'src/core/repl/bad.ts', 'src/shared/bad.ts', 'src/cli/bad.ts', 'src/worker/bad.ts', 'webview/trajectory/bad.ts']) {
  test(`a vscode import in ${path} fails lint`, async () => {
    const messages = await lintAs(path, vscodeImport);
    assert.ok(messages.some((m) => m.startsWith('no-restricted-imports')), `expected a boundary error, got ${JSON.stringify(messages)}`);
  });
}

test('a vscode import in src/vscode/ is allowed', async () => {
  const messages = await lintAs('src/vscode/fine.ts', vscodeImport);
  assert.deepEqual(messages.filter((m) => m.startsWith('no-restricted-imports')), []);
});

test('webview code may not import core', async () => {
  const messages = await lintAs('webview/sidebar/bad.ts', "import { x } from '../../src/core/loop/thing';\nexport const y = x;\n");
  assert.ok(messages.some((m) => m.startsWith('no-restricted-imports')), JSON.stringify(messages));
});

test('core may not import the vscode adapter', async () => {
  const messages = await lintAs('src/core/loop/bad.ts', "import { x } from '../../vscode/thing';\nexport const y = x;\n");
  assert.ok(messages.some((m) => m.startsWith('no-restricted-imports')), JSON.stringify(messages));
});

// Shipped code (src/, webview/) never imports bench/, test/ or scripts/, and eval/ never the CLI. Each
// fixture under test/fixtures/importBoundaries/{forbidden,allowed}/ is linted as the path it mirrors.
const fixtureRoot = join(__dirname, '..', '..', 'fixtures', 'importBoundaries');

function fixtures(kind: 'forbidden' | 'allowed'): string[] {
  const dir = join(fixtureRoot, kind);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => relative(dir, join(dir, f)).split(sep).join('/'))
    .sort();
}

const forbidden = fixtures('forbidden');
const allowed = fixtures('allowed');

test('the fixtures cover every boundary: src/ and webview/ against bench/, test/ and scripts/, and eval/ against the CLI', () => {
  const pairs = new Set(forbidden.map((path) => `${path.split('/')[0]}->${/from '(?:\.\.\/)+(bench|test|scripts|cli)\//.exec(readFileSync(join(fixtureRoot, 'forbidden', path), 'utf8'))?.[1] ?? '?'}`));
  for (const pair of ['src->bench', 'src->test', 'src->scripts', 'webview->bench', 'webview->test', 'src->cli']) assert.ok(pairs.has(pair), `no fixture for ${pair}: ${[...pairs].join(', ')}`);
});

for (const path of forbidden) {
  test(`a bad import fails lint: ${path}`, async () => {
    const code = readFileSync(join(fixtureRoot, 'forbidden', path), 'utf8');
    const importLine = code.split('\n').findIndex((l) => l.startsWith('import ')) + 1;
    const eslint = new ESLint({ cwd: process.cwd() });
    const [result] = await eslint.lintText(code, { filePath: path });
    const errors = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports');
    assert.equal(errors.length, 1, `expected one boundary error, got ${JSON.stringify(result?.messages)}`);
    assert.equal(errors[0]?.line, importLine);
  });
}

for (const path of allowed) {
  test(`an allowed import passes lint: ${path}`, async () => {
    const messages = await lintAs(path, readFileSync(join(fixtureRoot, 'allowed', path), 'utf8'));
    assert.deepEqual(messages.filter((m) => m.startsWith('no-restricted-imports')), []);
  });
}
