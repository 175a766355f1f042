// The shipped stdlib zip carries bytecode (scripts/pyodide/precompileStdlib.mjs): the REPL imports from
// it, while sources stay readable for tracebacks and `inspect`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSession } from './replTestKit';

test('stdlib modules load from bytecode, and their sources stay available', async () => {
  const session = await startSession();
  try {
    const r = await session.execute('import json, inspect, email.utils\nprint(json.__file__)\nprint(email.utils.__file__)\nprint("def dumps" in inspect.getsource(json))');
    assert.equal(r.error, undefined, r.error?.traceback);
    const [json, email, source] = r.stdout.trim().split('\n');
    assert.match(json ?? '', /python3\d+\.zip\/json\/__init__\.pyc$/);
    assert.match(email ?? '', /email\/utils\.py$/, 'a module without bytecode still imports from its source');
    assert.equal(source, 'True');
  } finally {
    await session.close();
  }
});
