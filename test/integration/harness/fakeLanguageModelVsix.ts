// Packages the test-only fake language model extension (extensionHost/fakeLanguageModelExtension/)
// as a .vsix, to install next to the extension under test: code-server loads only one
// extensionDevelopmentPath, and UI specs install the packaged extension anyway.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, testOutputDir } from './outputPaths';

const SOURCE = join(repoRoot, 'test', 'integration', 'extensionHost', 'fakeLanguageModelExtension');

/** `vsce package` of the helper into test-output/ (a few seconds; the folder holds two small files). */
export function packageFakeLanguageModelExtension(): string {
  mkdirSync(testOutputDir(), { recursive: true });
  const out = join(testOutputDir(), 'rlm-test-language-model.vsix');
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: SOURCE, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`packaging ${SOURCE} failed: ${result.stderr || result.stdout}`);
  return out;
}
