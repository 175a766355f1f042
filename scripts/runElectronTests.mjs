// `npm run test:electron`: runs the same extension-host suite as the code-server run, in desktop
// VS Code through @vscode/test-electron. That downloads VS Code, so it needs internet (it cannot
// run in this offline sandbox; `npm run test:integration` covers the same suite in code-server).
// RLM_VSCODE_VERSION picks the VS Code version (default: the engines.vscode minimum we build for).
import { runTests } from '@vscode/test-electron';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from '../esbuild.mjs';
import { bundleExtensionHostSuite } from '../test/integration/extensionHost/bundleSuite.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function summary(resultsFile) {
  if (!existsSync(resultsFile)) return 'extension-host suite: no results were written';
  const { tests } = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const count = (state) => tests.filter((t) => t.state === state).length;
  return `extension-host suite (Electron): ${count('passed')} passed, ${count('failed')} failed, ${count('pending')} pending`;
}

async function main() {
  await buildAll();
  const { indexPath } = await bundleExtensionHostSuite();
  const scratch = await mkdtemp(join(tmpdir(), 'rlm-electron-'));
  const workspace = join(scratch, 'workspace');
  const resultsFile = join(scratch, 'results.json');
  await cp(join(repoRoot, 'test', 'fixtures', 'sampleWorkspace'), workspace, { recursive: true });
  try {
    const exitCode = await runTests({
      version: process.env.RLM_VSCODE_VERSION ?? '1.100.3',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: indexPath,
      extensionTestsEnv: { RLM_EXT_TEST_RESULTS: resultsFile },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(scratch, 'user-data')],
    });
    console.log(summary(resultsFile));
    process.exitCode = exitCode;
  } catch (err) {
    console.log(summary(resultsFile));
    throw err;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`test:electron failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
