// Words a person understands: the shipped UI code (the extension and both webviews) has no "cell(s)",
// no "RLM failed", no "Bind N files" and no class name shown as a kind. A cheap guard against the
// wording coming back; the UI specs read the screens themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/['"`][^'"`\n]*\w\(s\)[^'"`\n]*['"`]/, '"(s)" plurals: use plural()'],
  [/RLM failed/, '"RLM failed"'],
  [/`Bind \$\{/, '"Bind N files"'],
  [/No model output was recorded/, 'an empty turn that may be a thinking model'],
  [/\$\{[\w.?]*error\.name\}/, 'an error class name shown to people'],
];

test('user-facing wording stays plain in src/vscode and webview', () => {
  const problems: string[] = [];
  for (const file of [...files('src/vscode'), ...files('webview'), 'src/shared/text/liveLine.ts', 'src/shared/text/costText.ts']) {
    const text = readFileSync(file, 'utf8');
    text.split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const [pattern, what] of FORBIDDEN) if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${what}`);
    });
  }
  assert.deepEqual(problems, []);
});
