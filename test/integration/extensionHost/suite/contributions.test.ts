// Every command and setting in package.json is real at run time. The lists are read from the
// manifest when the test runs, so a newly contributed command is covered without editing this file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolveLimits } from '../../../../src/core/loop/limits';
import { readSettings } from '../../../../src/vscode/settings/readSettings';
import { readRlmSettings } from '../../../../src/vscode/settings/rlmSettings';
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

  it('every setting has a description, and a declared default that its own schema accepts', () => {
    const configuration = vscode.workspace.getConfiguration();
    for (const { key, schema } of contributedSettings()) {
      assert.ok(schema.description || schema.markdownDescription, `${key} has no description`);
      assert.ok(configuration.inspect(key), `VS Code does not know the setting ${key}`);
      assert.ok('default' in schema, `${key} declares no default`);
      const value = schema.default;
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      const typeOf = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
      assert.ok(types.includes(typeOf) || (typeOf === 'integer' && types.includes('number')), `default of ${key} is a ${typeOf}, declared ${types.join('|')}`);
      if (schema.enum) assert.ok(schema.enum.includes(value), `default of ${key} (${JSON.stringify(value)}) is not one of its enum values`);
      if (typeof value === 'number' && schema.minimum !== undefined) assert.ok(value >= schema.minimum, `default of ${key} is below its minimum`);
      if (typeof value === 'number' && schema.maximum !== undefined) assert.ok(value <= schema.maximum, `default of ${key} is above its maximum`);
    }
  });

  it('the declared defaults are what the extension does when nothing is set', () => {
    // VS Code hands the extension the manifest's defaults; the code has its own fallbacks (the CLI and a
    // missing setting use them). Both must mean the same run, or a setting's documented default is false.
    const configuration = vscode.workspace.getConfiguration();
    const setHere = contributedSettings().filter(({ key }) => {
      const i = configuration.inspect(key);
      return i?.globalValue !== undefined || i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
    });
    assert.deepEqual(setHere.map((s) => s.key), [], 'this check needs a profile where no rlm setting is set');
    const fromManifest = readSettings();
    const fromCode = readRlmSettings(() => undefined);
    assert.deepEqual(resolveLimits(fromManifest.limits), resolveLimits(fromCode.limits), 'run limits');
    assert.deepEqual({ ...fromManifest, limits: undefined }, { ...fromCode, limits: undefined });
  });
});
