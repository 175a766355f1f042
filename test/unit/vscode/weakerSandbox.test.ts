// rlm.sandbox.allowWeaker: the user's own list of workspace folders; nothing else accepts a weaker sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALLOW_WEAKER_KEY, weakerSandboxAccepted } from '../../../src/vscode/settings/weakerSandbox';

test('only a listed folder is accepted, every open folder must be listed, and anything malformed accepts nothing', () => {
  assert.equal(ALLOW_WEAKER_KEY, 'sandbox.allowWeaker');
  assert.equal(weakerSandboxAccepted(['/home/ana/proj'], ['/home/ana/proj'], 'linux'), true);
  assert.equal(weakerSandboxAccepted(['/home/ana/proj/'], ['/home/ana/proj'], 'linux'), true);
  assert.equal(weakerSandboxAccepted(['/home/ana/proj'], ['/home/ana/proj', '/home/ana/other'], 'linux'), false);
  assert.equal(weakerSandboxAccepted(['/home/ana'], ['/home/ana/proj'], 'linux'), false, 'a parent folder is not this workspace');
  assert.equal(weakerSandboxAccepted(['/Home/Ana/Proj'], ['/home/ana/proj'], 'linux'), false);
  assert.equal(weakerSandboxAccepted(['/Users/Ana/Proj'], ['/Users/ana/proj'], 'darwin'), true);
  for (const bad of [true, 'yes', ['*'], [''], [1], undefined, null, {}]) assert.equal(weakerSandboxAccepted(bad, ['/home/ana/proj'], 'linux'), false, JSON.stringify(bad));
  assert.equal(weakerSandboxAccepted(['/home/ana/proj'], [], 'linux'), false, 'no folder open: nothing to accept');
});

test('the setting is application-scoped: a workspace or folder settings file cannot set it', async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const pkg = JSON.parse(await readFile(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string; type?: string }> } } };
  const setting = pkg.contributes.configuration.properties[`rlm.${ALLOW_WEAKER_KEY}`];
  assert.equal(setting?.scope, 'application');
  assert.equal(setting?.type, 'array');
});
