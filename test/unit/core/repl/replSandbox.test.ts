// The adversarial suite: code the model might be tricked into writing. Each attempt must fail inside
// Python with an error (or do nothing to the host) while the REPL keeps working.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CellResult, ReplSession } from '../../../../src/core/repl/replTypes';
import { repoRoot, startSession } from './replTestKit';

describe('REPL sandbox (adversarial suite)', () => {
  let session: ReplSession;
  let server: Server;
  let port = 0;
  let connections = 0;
  const hostDir = mkdtempSync(join(tmpdir(), 'rlm-sandbox-'));
  const canary = join(hostDir, 'pwned');

  before(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    session = await startSession();
    await session.execute('canary_var = "still here"');
  });
  after(async () => {
    await session?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(hostDir, { recursive: true, force: true });
  });

  /** Runs the attack, checks it failed with an error, and that the REPL state survived. */
  async function attack(code: string, expectedError?: RegExp): Promise<CellResult> {
    const r = await session.execute(code, { timeoutMs: 30_000 });
    assert.equal(r.restarted, undefined, `the attack crashed the REPL: ${r.error?.message}`);
    if (expectedError) {
      assert.ok(r.error, `expected an error, got stdout ${r.stdout.slice(0, 200)}`);
      assert.match(`${r.error.type}: ${r.error.message}`, expectedError);
    }
    const alive = await session.execute('canary_var');
    assert.equal(alive.stdout, "'still here'\n");
    return r;
  }

  it('reports every protection as active on this Node', () => {
    const p = session.protections;
    assert.deepEqual(
      { ...p, notes: [] },
      {
        separateProcess: true, emptyEnvironment: true, codeGenerationFromStringsDisallowed: true, permissionModel: true,
        jsGlobalsRestricted: true, pyodideJsUnregistered: true, networkApisRemoved: true, notes: [],
      },
    );
  });

  it('cannot read /etc/passwd or the extension files', async () => {
    await attack('open("/etc/passwd").read()', /FileNotFoundError/);
    await attack(`open(${JSON.stringify(join(repoRoot, 'package.json'))}).read()`, /FileNotFoundError/);
    await attack(`import os\nos.listdir(${JSON.stringify(repoRoot)})`, /FileNotFoundError/);
  });

  it('writes stay inside the in-memory file system', async () => {
    const r = await attack(`open(${JSON.stringify(canary)}, "w")`, /FileNotFoundError/);
    assert.ok(r.error);
    await attack('open("/tmp/rlm-escape-test", "w").write("x")\nimport os\nos.path.exists("/tmp/rlm-escape-test")');
    assert.equal(existsSync('/tmp/rlm-escape-test'), false);
  });

  it('import js does not lead to process', async () => {
    await attack('import js\njs.process', /AttributeError/);
    await attack('import js\njs.globalThis', /AttributeError/);
  });

  it('the constructor.constructor route is closed', async () => {
    await attack('from pyodide.ffi import to_js\nto_js([1]).constructor.constructor("return process")()', /Code generation from strings disallowed/);
  });

  it('pyodide_js and pyodide.code.run_js are unavailable', async () => {
    await attack('import pyodide_js', /ModuleNotFoundError/);
    await attack('import sys\nsys.modules["pyodide_js._api"]', /KeyError/);
    await attack('import pyodide.code\npyodide.code.run_js("process.pid")', /ImportError|EvalError|NameError/);
  });

  it('os.environ holds no host variables', async () => {
    const r = await attack('import os\nsorted(k for k in os.environ if any(s in k.upper() for s in ("KEY", "TOKEN", "SECRET", "PASS")))');
    assert.equal(r.stdout, '[]\n');
    const home = await attack('import os\nos.environ.get("HOME")');
    assert.equal(home.stdout, "'/home/pyodide'\n");
  });

  it('subprocess and os.system run nothing on the host', async () => {
    await attack(`import os\nos.system("touch ${canary}")`, /OSError/);
    await attack(`import subprocess\nsubprocess.run(["touch", ${JSON.stringify(canary)}])`, /OSError/);
    // Reloading os brings back the real os.system; below it, Emscripten's child_process is disabled.
    const r = await attack(`import importlib, os\nimportlib.reload(os).system("touch ${canary}")`);
    assert.notEqual(r.stdout, '0\n');
    assert.equal(existsSync(canary), false, 'a command ran on the host');
  });

  it('cannot end the interpreter with os._exit or os.abort', async () => {
    await attack('import os\nos._exit(1)', /OSError: exiting the interpreter is not available/);
    await attack('import os\nos.abort()', /OSError/);
  });

  it('cannot open a socket or fetch a URL', async () => {
    await attack(`import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(("127.0.0.1", ${port}))`, /OSError|unreachable/i);
    await attack(`import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=2)`, /URLError|OSError/);
    await attack(`from pyodide.http import open_url\nopen_url("http://127.0.0.1:${port}/")`, /NameError|ImportError|AttributeError/);
    assert.equal(connections, 0);
  });

  it('a memory bomb fails with MemoryError or OverflowError', async () => {
    await attack('x = "a" * (2**40)', /OverflowError|MemoryError/);
    await attack('x = bytearray(2**31 - 1)\ny = bytearray(2**31 - 1)\nz = bytearray(2**31 - 1)', /MemoryError/);
    const r = await attack('"x" in globals(), "y" in globals()');
    assert.match(r.stdout, /\(/);
  });
});
