// Guards the guard: with one contributed command's registration broken, the extension-host suite
// must fail and name that command. The break is made on a copy of the built extension (its
// command id string renamed in dist/extension.js), so the tree is never touched.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { newSessionDir, repoRoot } from '../harness/outputPaths';
import { bundleExtensionHostSuite } from './bundleSuite.mjs';
import { runExtensionHostSuite } from './runInCodeServer';

interface Manifest {
  contributes?: { commands?: Array<{ command: string }> };
}

/** A copy of the extension whose bundle no longer registers `commandId` under that id. */
async function extensionWithoutCommand(commandId: string): Promise<string> {
  const dir = join(await newSessionDir('broken-extension'), 'extension');
  await mkdir(join(dir, 'dist'), { recursive: true });
  await copyFile(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  for (const entry of await readdir(join(repoRoot, 'dist'))) {
    if (entry !== 'extension.js') await symlink(join(repoRoot, 'dist', entry), join(dir, 'dist', entry));
  }
  const bundle = await readFile(join(repoRoot, 'dist', 'extension.js'), 'utf8');
  const literal = new RegExp(`(["'\`])${commandId.replace(/\./g, '\\.')}\\1`, 'g');
  const occurrences = bundle.match(literal)?.length ?? 0;
  assert.ok(occurrences > 0, `the string "${commandId}" does not occur in dist/extension.js, so this test cannot break its registration`);
  await writeFile(join(dir, 'dist', 'extension.js'), bundle.replace(literal, `"${commandId}.brokenByTest"`));
  return dir;
}

test('the extension-host suite fails when a contributed command is not registered', { timeout: 10 * 60_000 }, async () => {
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
  const commandId = manifest.contributes?.commands?.[0]?.command;
  assert.ok(commandId, 'package.json contributes no command');
  const indexPath = process.env.RLM_EXT_SUITE_INDEX ?? (await bundleExtensionHostSuite()).indexPath;
  const run = await runExtensionHostSuite({
    indexPath,
    extensionPath: await extensionWithoutCommand(commandId),
    grep: 'registers every contributed command',
    label: 'extension-host-broken-command',
  });
  assert.equal(run.exitCode, 1, `the suite should fail with the registration of ${commandId} broken; logs in ${run.sessionDir}`);
  const failed = run.results?.tests.filter((r) => r.state === 'failed') ?? [];
  assert.equal(failed.length, 1, `expected exactly the registration test to fail; got ${JSON.stringify(run.results?.tests.map((r) => [r.fullTitle, r.state]))}`);
  assert.match(failed[0]?.error ?? '', new RegExp(commandId.replace(/\./g, '\\.')), 'the failure should name the unregistered command');
});
