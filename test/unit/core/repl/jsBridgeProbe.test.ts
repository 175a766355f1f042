// The protections report checks the JS bridge instead of assuming it: the probe must see an open
// bridge as open, and a closed one as closed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPyodide } from 'pyodide';
import { probeJsBridge } from '../../../../src/worker/pyodideBoot';
import { repoRoot } from './replTestKit';

test('probeJsBridge reports what `import js` and `import pyodide_js` really reach', async () => {
  const indexURL = join(repoRoot, 'dist', 'pyodide') + '/';
  const quiet = () => undefined;
  const open = await loadPyodide({ indexURL, stdout: quiet, stderr: quiet });
  assert.deepEqual(probeJsBridge(open), { jsGlobalsRestricted: false, pyodideJsUnregistered: false });
  const closed = await loadPyodide({ indexURL, stdout: quiet, stderr: quiet, jsglobals: Object.create(null) as object });
  closed.unregisterJsModule('pyodide_js');
  closed.runPython("import sys\nsys.modules.pop('pyodide_js', None)");
  assert.deepEqual(probeJsBridge(closed), { jsGlobalsRestricted: true, pyodideJsUnregistered: true });
});
