// Every command and setting in package.json is real at run time. The lists are read from the
// manifest when the test runs, so a newly contributed command is covered without editing this file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedExtension, contributedCommands, contributedSettings } from './suiteHelpers';

describe('contributed commands', () => {
  before(async () => {
    await activatedExtension();
  });

  it('contributes at least one command, each with a title under the RLM category', () => {
    const commands = contributedCommands();
    assert.ok(commands.length > 0, 'package.json contributes no commands');
    for (const c of commands) {
      assert.ok(c.command.startsWith('rlm.'), `${c.command} is not in the rlm. namespace`);
      assert.ok(c.title.trim().length > 0, `${c.command} has no title`);
      assert.equal(c.category, 'RLM', `${c.command} should be in the RLM category so the palette groups it`);
    }
  });

  it('registers every contributed command after activation', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributedCommands().map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed in package.json but never registered: ${missing.join(', ')}`);
  });
});

describe('settings schema', () => {
  it('contributes rlm.* settings', () => {
    const settings = contributedSettings();
    assert.ok(settings.length > 0, 'package.json contributes no settings');
    for (const s of settings) assert.ok(s.key.startsWith('rlm.'), `${s.key} is not in the rlm. namespace`);
  });

  it('every setting has a description, and VS Code knows its declared default', () => {
    const configuration = vscode.workspace.getConfiguration();
    for (const { key, schema } of contributedSettings()) {
      assert.ok(schema.description || schema.markdownDescription, `${key} has no description`);
      const inspected = configuration.inspect(key);
      assert.ok(inspected, `VS Code does not know the setting ${key}`);
      if ('default' in schema) assert.deepEqual(inspected.defaultValue, schema.default, `default of ${key}`);
    }
  });
});
