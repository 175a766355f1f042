// The adversarial suite, every layer on: code the model might be steered into writing by a hostile file.
// Each attack must fail inside Python (or do nothing to the host) while the REPL keeps working, and after
// each one the whole object graph is walked again for a JavaScript value.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CellResult, ReplSession } from '../../../../src/core/repl/replTypes';
import { blockingFailures } from '../../../../src/core/repl/sandboxProtections';
import { FULL_GRAPH_WALK, hostListener, repoRoot, startSession } from './replTestKit';
import type { HostListener } from './replTestKit';

describe('REPL sandbox (adversarial suite, all layers on)', () => {
  let session: ReplSession;
  let listener: HostListener;
  const hostDir = mkdtempSync(join(tmpdir(), 'rlm-sandbox-'));
  const canary = join(hostDir, 'pwned');

  before(async () => {
    listener = await hostListener();
    session = await startSession();
    await session.execute('canary_var = "still here"');
  });
  after(async () => {
    await session?.close();
    await listener?.close();
    rmSync(hostDir, { recursive: true, force: true });
  });

  /** Runs the attack, checks it failed as expected, that the REPL survived, and that no JS value is reachable. */
  async function attack(code: string, expectedError?: RegExp): Promise<CellResult> {
    const r = await session.execute(code, { timeoutMs: 30_000 });
    assert.equal(r.restarted, undefined, `the attack crashed the REPL: ${r.error?.message}`);
    if (expectedError) {
      assert.ok(r.error, `expected an error, got stdout ${r.stdout.slice(0, 200)}`);
      assert.match(`${r.error.type}: ${r.error.message}`, expectedError);
    }
    const alive = await session.execute('canary_var');
    assert.equal(alive.stdout, "'still here'\n");
    const walk = await session.execute(FULL_GRAPH_WALK);
    assert.equal(walk.error, undefined, walk.error?.traceback);
    assert.equal(walk.stdout.trim(), 'JS values: 0', `after the attack, Python reaches a JS value: ${walk.stdout}`);
    assert.equal(listener.connections, 0, 'something reached the host network');
    return r;
  }

  it('reports all four layers on, each with the probes that were made', () => {
    const p = session.protections;
    assert.deepEqual(blockingFailures(p), []);
    assert.deepEqual(p.layers.map((l) => [l.id, l.on]), [['python', true], ['runtime', true], ['os', true], ['process', true]]);
    for (const layer of p.layers) assert.ok(layer.probes.length > 0, `layer ${layer.id} was probed`);
  });

  it('the bridge functions hold no JS value in closures, defaults or globals (the first step of the reported chain)', async () => {
    const r = await attack(
      [
        'seen = []',
        'for f in (llm_query, llm_query_batched, rlm_query, rlm_query_batched, peek, search, FINAL, FINAL_VAR, SHOW_VARS, context_meta):',
        '    for cell in (f.__closure__ or ()):',
        '        seen.append(type(cell.cell_contents).__name__)',
        '    seen.extend(type(d).__name__ for d in (f.__defaults__ or ()))',
        // The API's functions are methods of small objects (src/worker/python/model_api.py): their state too.
        "    seen.extend(type(v).__name__ for v in vars(getattr(f, '__self__', None) or f).values())",
        "    seen.extend(type(v).__name__ for o in vars(getattr(f, '__self__', None) or f).values() for v in getattr(o, '__dict__', {}).values())",
        "print(sorted(set(n for n in seen if n.startswith('Js'))))",
      ].join('\n'),
    );
    assert.equal(r.stdout, '[]\n');
  });

  it('the reported network chain stops at its first step: there is no JS object to start from', async () => {
    await attack(
      [
        'target = None',
        'for f in (llm_query, llm_query_batched):',
        '    for cell in (f.__closure__ or ()):',
        "        if hasattr(cell.cell_contents, 'constructor'):",
        '            target = cell.cell_contents',
        'target.constructor.constructor("1")',
      ].join('\n'),
      /AttributeError: 'NoneType' object has no attribute 'constructor'/,
    );
  });

  it('import js, pyodide_js, _pyodide_core and ctypes all fail', async () => {
    await attack('import js', /ModuleNotFoundError/);
    await attack('import pyodide_js', /ModuleNotFoundError/);
    await attack('import _pyodide_core', /ModuleNotFoundError/);
    // Even after _imp.create_builtin put the cache's copy back in sys.modules, it has no function left.
    const revived = await attack("import _imp, importlib.machinery as m, sys\n_imp.create_builtin(m.ModuleSpec('_pyodide_core', m.BuiltinImporter, origin='built-in'))\nimport _pyodide_core\n[k for k, v in vars(_pyodide_core).items() if type(v).__name__ == 'builtin_function_or_method']");
    assert.equal(revived.stdout, '[]\n');
    await attack('import ctypes', /ModuleNotFoundError: No module named '_ctypes'/);
    await attack('import _testcapi', /ModuleNotFoundError/);
    await attack('import sys\nsys.modules["pyodide_js._api"]', /KeyError/);
  });

  it('_imp.create_builtin brings back no module that makes JS values or touches raw memory', async () => {
    const r = await attack(
      [
        'import _imp, importlib.machinery as m',
        "out = {}",
        "for name in ('_ctypes', '_pyodide_core', '_testcapi', '_testinternalcapi', '_testlimitedcapi'):",
        "    mod = _imp.create_builtin(m.ModuleSpec(name, m.BuiltinImporter, origin='built-in'))",
        "    out[name] = None if mod is None else sorted(k for k, v in vars(mod).items() if type(v).__name__ == 'builtin_function_or_method')",
        'print(out)',
      ].join('\n'),
    );
    assert.equal(r.stdout, "{'_ctypes': None, '_pyodide_core': [], '_testcapi': None, '_testinternalcapi': None, '_testlimitedcapi': None}\n");
  });

  it("Pyodide's own modules, imported again from the standard library, make no JS value", async () => {
    const r = await attack(
      [
        'import pyodide.ffi as ffi',
        'kinds = [type(ffi.to_js([1])).__name__, type(ffi.create_proxy(len)).__name__]',
        'try:',
        '    import pyodide.code',
        '    pyodide.code.run_js("globalThis")',
        'except BaseException as e:',
        '    kinds.append(type(e).__name__)',
        'print(kinds)',
      ].join('\n'),
    );
    assert.doesNotMatch(r.stdout, /Js/);
  });

  it('gc.get_objects() and every referent hold no JS value, and no _pyodide_core function', async () => {
    const r = await attack(
      [
        'import gc',
        "found = [o for o in gc.get_objects() if type(o).__name__ == 'builtin_function_or_method' and getattr(o, '__module__', None) == '_pyodide_core']",
        "found += [o for o in gc.get_objects() if type(o).__name__ in ('JsFinder', 'JsLoader') and any(type(v).__name__.startswith('Js') for v in vars(o).values())]",
        'print(len(found))',
      ].join('\n'),
    );
    assert.equal(r.stdout, '0\n');
  });

  it("asyncio has no JS event loop: nothing a cell schedules runs after it", async () => {
    await attack('import asyncio\nasyncio.get_event_loop().call_later(0.05, print, "late")', /OSError|PermissionError|RuntimeError/);
    const later = await session.execute('import time\ntime.sleep(0.2)\n"quiet"');
    assert.equal(later.stdout, "'quiet'\n");
  });

  it('Python has no way to arm anything that runs after the cell: no threads, alarms or interval timers', async () => {
    await attack('import threading\nthreading.Timer(0.05, print, ["late"]).start()', /RuntimeError|can't start new thread/);
    await attack('import signal\nsignal.alarm(1)', /AttributeError/);
    await attack('import signal\nsignal.setitimer(signal.ITIMER_REAL, 0.05)', /AttributeError/);
    const later = await session.execute('import time\ntime.sleep(0.2)\n"quiet"');
    assert.equal(later.stdout, "'quiet'\n");
  });

  it('writing to the channel device directly is held to the same output cap and request checks', async () => {
    const flood = await session.execute(["import os", "fd = os.open('/dev/rlm', os.O_RDWR)", "os.write(fd, b'O' + b'x' * 5_000_000)", "os.write(fd, b'E' + b'y' * 5_000_000)", "os.close(fd)"].join('\n'));
    assert.equal(flood.restarted, undefined);
    assert.ok(flood.stdout.length <= 200_000, `stdout kept ${flood.stdout.length} chars`);
    await attack("import os\nos.write(os.open('/dev/rlm', os.O_RDWR), b'Z')", /OSError/);
    await attack("import os\nos.write(os.open('/dev/rlm', os.O_RDWR), b'Bnot json')", /OSError/);
    await attack("import os\nos.write(os.open('/dev/rlm', os.O_RDWR), b'C')", /OSError/);
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

  it('os.environ holds no host variables', async () => {
    const r = await attack('import os\nsorted(k for k in os.environ if any(s in k.upper() for s in ("KEY", "TOKEN", "SECRET", "PASS")))');
    assert.equal(r.stdout, '[]\n');
    const home = await attack('import os\nos.environ.get("HOME")');
    assert.equal(home.stdout, "'/home/pyodide'\n");
  });

  it('subprocess and os.system run nothing on the host', async () => {
    await attack(`import os\nos.system("touch ${canary}")`, /OSError/);
    await attack(`import subprocess\nsubprocess.run(["touch", ${JSON.stringify(canary)}])`, /OSError/);
    // Reloading os brings back the real os.system; below it, Emscripten's child_process is a stub.
    const r = await attack(`import importlib, os\nimportlib.reload(os).system("touch ${canary}")`);
    assert.notEqual(r.stdout, '0\n');
    assert.equal(existsSync(canary), false, 'a command ran on the host');
  });

  it('cannot end the interpreter with os._exit or os.abort', async () => {
    await attack('import os\nos._exit(1)', /OSError: exiting the interpreter is not available/);
    await attack('import os\nos.abort()', /OSError/);
  });

  it('cannot open a socket, listen, or fetch a URL', async () => {
    await attack(`import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(("127.0.0.1", ${listener.port}))`, /OSError|unreachable/i);
    await attack('import socket\ns = socket.socket()\ns.bind(("127.0.0.1", 0))\ns.listen()', /OSError/);
    await attack('import socket\nsocket.socketpair()', /OSError/);
    await attack(`import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${listener.port}/", timeout=2)`, /URLError|OSError/);
    await attack(`from pyodide.http import open_url\nopen_url("http://127.0.0.1:${listener.port}/")`, /NameError|ImportError|AttributeError|ModuleNotFoundError/);
  });

  it('a memory bomb fails with MemoryError or OverflowError, and the variables before it survive', async () => {
    await session.execute('before_bomb = sum(range(1000))');
    await attack('x = "a" * (2**40)', /OverflowError|MemoryError/);
    await attack('x = bytearray(2**31 - 1)\ny = bytearray(2**31 - 1)\nz = bytearray(2**31 - 1)', /MemoryError/);
    // A bomb that really takes the memory: 64 MB at a time until none is left.
    const hog = await session.execute('hog = []\nwhile True:\n    hog.append(bytearray(2**26))', { timeoutMs: 60_000 });
    assert.equal(hog.error?.type, 'MemoryError', `the hog ended with ${JSON.stringify(hog.error)}`);
    assert.equal(hog.restarted, undefined, 'exhausting memory crashed the REPL');
    const held = await session.execute('print(len(hog) * 64)');
    assert.ok(Number(held.stdout) >= 1024, `the hog took only ${held.stdout.trim()} MB: not a real exhaustion`);
    // Once released, what the bomb took comes back (a gigabyte can be had and written to again), and
    // the variables from before it are intact.
    const r = await attack('hog = x = y = z = None\nimport gc\ngc.collect()\nbig = bytearray(2**30)\nbig[-1] = 7\nprint(len(big), big[-1], before_bomb, canary_var)\ndel big\n_ = gc.collect()');
    assert.equal(r.stdout, `${2 ** 30} 7 499500 still here\n`);
  });
});
