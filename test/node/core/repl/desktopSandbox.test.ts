// Issue 37: the sandbox as desktop VS Code may really get it. A cell runs as an attacker holding
// JavaScript in the worker (the test build's switch hands Python the worker's globals and Pyodide's API),
// under the full sandbox, without Node's permission model (as under an Electron that ignores it), without
// the OS layer (as on Windows), and without both. In every case the host file outside the input is not
// read and nothing is written on the host, or the run is refused with the one sentence. A control with
// layer 2 off too shows the same cell does read and write, so these tests can fail.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import type { ReplSessionOptions } from '../../../../src/core/repl/replSession';
import { WeakSandboxError } from '../../../../src/core/repl/sandboxStrength';
import { repoRoot, startSession } from './replTestKit';

/** A folder on the host that no layer hides (the Linux layer hides /tmp, not the user's folders). */
function hostFolder(): { dir: string; secretPath: string; token: string } {
  const dir = mkdtempSync(join(repoRoot, '.rlm-host-'));
  const token = `topsecret-${randomBytes(6).toString('hex')}`;
  const secretPath = join(dir, 'secret.txt');
  writeFileSync(secretPath, `RLM_STOLEN=${token}\n`);
  return { dir, secretPath, token };
}

/** Every file route a cell with JavaScript in the worker has: each read aims at the secret, each write at the folder. */
const attackCell = (dir: string, secret: string) => `
import js, json, pyodide_js
from pyodide.ffi import to_js
DIR, SECRET = ${JSON.stringify(dir)}, ${JSON.stringify(secret)}
res = {}
def attempt(name, f):
    try:
        res[name] = 'OK ' + str(f())[:200]
    except BaseException as e:
        res[name] = 'refused ' + type(e).__name__ + ': ' + str(e)[:100]
def opts(root):
    return js.Object.fromEntries(to_js([['root', root]]))
M = pyodide_js._module
FS = M.FS
def nodefs(at, then):
    FS.mkdir(at)
    FS.mount(FS.filesystems.NODEFS, opts(DIR), at)
    return then(at)
attempt('getBuiltinModule read', lambda: js.process.getBuiltinModule('fs').readFileSync(SECRET, 'utf8'))
attempt('getBuiltinModule write', lambda: js.process.getBuiltinModule('fs').writeFileSync(DIR + '/w-gbm', 'x'))
attempt('getBuiltinModule fs/promises', lambda: js.process.getBuiltinModule('fs/promises').writeFile(DIR + '/w-promises', 'x'))
attempt('process.binding fs', lambda: js.process.binding('fs').open)
attempt('globalThis.require fs', lambda: js.require('fs').readFileSync(SECRET, 'utf8'))
attempt('NODEFS read', lambda: nodefs('/h1', lambda at: open(at + '/secret.txt').read()))
attempt('NODEFS write', lambda: nodefs('/h2', lambda at: open(at + '/w-nodefs', 'w').write('x')))
attempt('mountNodeFS read', lambda: (pyodide_js.mountNodeFS('/h3', DIR), open('/h3/secret.txt').read())[1])
attempt('report write', lambda: js.process.report.writeReport(DIR + '/w-report.json'))
attempt('loadEnvFile', lambda: (js.process.loadEnvFile(SECRET), js.process.env.RLM_STOLEN)[1])
attempt('Module.readBinary', lambda: bytes(M.readBinary(SECRET).to_py()) if hasattr(M, 'readBinary') else 'absent')
print(json.dumps(res))
`;

interface Outcome {
  results: Record<string, string>;
  written: string[];
  leaked: boolean;
}

async function attack(session: ReplSession, host: ReturnType<typeof hostFolder>): Promise<Outcome> {
  const r = await session.execute(attackCell(host.dir, host.secretPath), { timeoutMs: 30_000 });
  assert.equal(r.restarted, undefined, `the REPL crashed: ${r.error?.message}`);
  assert.equal(r.error, undefined, r.error?.traceback);
  const results = JSON.parse(r.stdout.trim()) as Record<string, string>;
  return { results, written: readdirSync(host.dir).filter((f) => f !== 'secret.txt'), leaked: r.stdout.includes(host.token) || r.stderr.includes(host.token) };
}

function assertHeld(o: Outcome): void {
  assert.equal(o.leaked, false, `the secret was read: ${JSON.stringify(o.results)}`);
  assert.deepEqual(o.written, [], `files were written on the host: ${JSON.stringify(o.results)}`);
  for (const [name, result] of Object.entries(o.results)) {
    if (name === 'Module.readBinary' && result === 'OK absent') continue;
    assert.match(result, /^refused/, `${name}: ${result}`);
  }
}

const CASES: Array<{ name: string; options: Partial<ReplSessionOptions>; missing?: RegExp; permissionOff?: boolean }> = [
  { name: 'the full sandbox', options: { weakenForTest: { python: true } } },
  { name: "no permission model (an Electron that ignores it)", options: { weakenForTest: { python: true, permission: true } }, missing: /for host files only layer 2 \(the REPL runtime lockdown\) holds \(Node's permission model is not in force: permission model: /, permissionOff: true },
  { name: 'no OS layer (as on Windows)', options: { weakenForTest: { python: true }, osIsolation: false }, missing: /for the network only layer 2 \(the REPL runtime lockdown\) holds/ },
  { name: 'neither', options: { weakenForTest: { python: true, permission: true }, osIsolation: false }, missing: /for host files only layer 2 .* and for the network only layer 2/, permissionOff: true },
];

for (const c of CASES) {
  describe(`JavaScript in the worker, ${c.name}`, () => {
    const host = hostFolder();
    after(() => rmSync(host.dir, { recursive: true, force: true }));

    if (c.missing) {
      it('refuses to run, in one sentence naming what is missing and the setting, unless the weaker sandbox was accepted', async () => {
        await assert.rejects(startSession(c.options), (error: unknown) => {
          assert.ok(error instanceof WeakSandboxError, String(error));
          assert.match(error.message, c.missing!);
          assert.match(error.message, /rlm\.sandbox\.allowWeaker.*--allow-weaker-sandbox/);
          return true;
        });
      });
    }

    describe(c.missing ? 'once the weaker sandbox is accepted' : 'with nothing to accept', () => {
      let session: ReplSession;
      before(async () => {
        session = await startSession({ ...c.options, ...(c.missing ? { allowWeakerSandbox: true } : {}) });
      });
      after(() => session?.close());

      it('no file outside the input is read and nothing is written on the host, by any route', async () => {
        assertHeld(await attack(session, host));
        if (c.missing) {
          assert.equal(session.protections.strength?.acceptedWeaker, true, 'the record says the weaker sandbox was accepted');
          assert.ok(session.protections.strength!.missing.length > 0);
        } else {
          assert.deepEqual(session.protections.strength?.missing, []);
        }
      });

      it('Python still works in its own file system, and the standard library still imports', async () => {
        const r = await session.execute("import os, decimal, fractions, difflib, csv, zipfile, email.mime.text\nos.makedirs('/tmp/w', exist_ok=True)\nopen('/tmp/w/a', 'w').write('in memory')\nprint(open('/tmp/w/a').read())", { timeoutMs: 30_000 });
        assert.equal(r.error, undefined, r.error?.traceback);
        assert.equal(r.stdout, 'in memory\n');
      });
    });
  });
}

describe('layer 3 alone on Linux: with layer 2 and the permission model off, the home folder is empty to JavaScript in the worker', () => {
  const host = hostFolder();
  const realHome = process.env.HOME;
  let session: ReplSession | undefined;
  before(async () => {
    // The plan reads the home folder when the REPL starts: this test's folder stands for it.
    process.env.HOME = host.dir;
    try {
      session = await startSession({ weakenForTest: { python: true, runtime: true, permission: true }, allowWeakerSandbox: true });
    } finally {
      process.env.HOME = realHome;
    }
  });
  after(async () => {
    await session?.close();
    rmSync(host.dir, { recursive: true, force: true });
  });

  it('reads nothing there and writes nothing on the host', async (t) => {
    const os = session!.protections.layers.find((l) => l.id === 'os')!;
    if (process.platform !== 'linux' || !os.on) {
      t.diagnostic('no Linux namespaces here: checked that layer 3 is reported off');
      assert.equal(os.on, false);
      return;
    }
    const o = await attack(session!, host);
    assert.equal(o.leaked, false, JSON.stringify(o.results));
    assert.deepEqual(o.written, [], JSON.stringify(o.results));
    assert.match(o.results['getBuiltinModule read'] ?? '', /ENOENT/, 'the file is not there for the REPL');
  });
});

describe('control: with layer 2 off as well, the same cell reads the secret and writes on the host', () => {
  const host = hostFolder();
  let session: ReplSession;
  before(async () => {
    session = await startSession({ weakenForTest: { python: true, runtime: true, permission: true }, osIsolation: false, allowWeakerSandbox: true });
  });
  after(async () => {
    await session?.close();
    rmSync(host.dir, { recursive: true, force: true });
  });

  it('so the tests above can fail', async () => {
    const o = await attack(session, host);
    assert.equal(o.leaked, true, JSON.stringify(o.results));
    assert.ok(o.written.length > 0, JSON.stringify(o.results));
    assert.equal(session.protections.strength?.acceptedWeaker, true);
  });
});
