// The REPL process's built-in module policy (sandbox layer 2) on its own: an allow-list, so the
// network and process modules docs/security.md names are refused in every phase, and the code-loading
// ones once cells may run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CODE_LOADING_BUILTINS, decideBuiltin, FILE_BUILTINS, NETWORK_AND_PROCESS_BUILTINS, STUBBED_BUILTINS } from '../../../src/worker/lockdownPolicy';

test('network and process modules are refused while booting and while cells run, with or without node:', () => {
  for (const name of NETWORK_AND_PROCESS_BUILTINS) {
    for (const phase of ['boot', 'cells'] as const) {
      assert.equal(decideBuiltin(name, phase), 'deny', `${name} in ${phase}`);
      assert.equal(decideBuiltin(`node:${name}`, phase), 'deny', `node:${name} in ${phase}`);
    }
  }
});

test('code-loading modules serve Pyodide while it boots and are refused once cells may run', () => {
  for (const name of CODE_LOADING_BUILTINS) {
    assert.equal(decideBuiltin(name, 'boot'), 'allow', name);
    assert.equal(decideBuiltin(name, 'cells'), 'deny', name);
  }
});

test('child_process and tty get stubs in both phases; a module no one has judged is refused', () => {
  for (const name of STUBBED_BUILTINS) for (const phase of ['boot', 'cells'] as const) assert.equal(decideBuiltin(name, phase), 'stub');
  assert.equal(decideBuiltin('some_future_builtin', 'boot'), 'deny');
  assert.equal(decideBuiltin('path', 'cells'), 'allow');
});

test('the host file system serves Pyodide while it boots and is refused once cells may run, whatever the permission model does', () => {
  assert.deepEqual(FILE_BUILTINS, ['fs', 'fs/promises']);
  for (const name of [...FILE_BUILTINS, ...FILE_BUILTINS.map((n) => `node:${n}`)]) {
    assert.equal(decideBuiltin(name, 'boot'), 'allow', name);
    assert.equal(decideBuiltin(name, 'cells'), 'deny', name);
  }
  // Electron's unpatched fs (no asar layer) is never judged harmless.
  assert.equal(decideBuiltin('original-fs', 'boot'), 'deny');
  assert.equal(decideBuiltin('original-fs', 'cells'), 'deny');
});
