// ARCHITECTURE.md: only src/vscode/ may import `vscode`, and webview/ may import only src/shared/.
// These run the project's real ESLint config over source text placed at the forbidden paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

async function lintAs(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
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
