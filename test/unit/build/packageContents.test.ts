// The VSIX ships every file a REPL start needs: a bundle missing from .vscodeignore's whitelist would
// only show up when a user asks a question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPL_FILES } from '../../../src/core/repl/replSession';

const repoRoot = join(__dirname, '..', '..', '..');

test('the packaged file list holds every file the REPL needs, and no source map', () => {
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').map((l) => l.trim()).filter(Boolean);
  for (const file of REPL_FILES) assert.ok(listed.includes(`dist/${file}`), `the VSIX would lack dist/${file}`);
  for (const file of ['dist/extension.js', 'dist/engine.js', 'dist/webview/trajectory.js', 'dist/webview/sidebar.js']) assert.ok(listed.includes(file), `the VSIX would lack ${file}`);
  assert.deepEqual(listed.filter((f) => f.endsWith('.map')), []);
});
