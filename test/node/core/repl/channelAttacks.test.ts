// The REPL process as the attacker: with layers 1 and 2 weakened (weakenForTest.python gives a cell `import js`,
// the route issue 30 found through JsException; runtime leaves `fs` unsealed), a cell takes the worker's `process` and writes raw
// bytes to each stream the host reads: the control channel, the bridge pipe, the context pipe, stdout
// and stderr. The host process must survive every one, kill the REPL process, and report a
// SandboxViolationError (kind `sandbox_violation`); floods of well-formed output stay within the cap.
// Before the channel was ours (Node's IPC, `serialization: 'advanced'`), the first case crashed this
// test process with an uncaught "Unable to deserialize cloned data".
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxViolationError } from '../../../../src/core/repl/replErrors';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { errorKindOf } from '../../../../src/core/errorKind';
import { ATTACKER, recordingBridge, startSession } from './replTestKit';

const CHANNEL_FD = 5;
const BRIDGE_FD = 4;
const CONTEXT_FD = 3;

let session: ReplSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function attacker(options: Parameters<typeof startSession>[0] = {}): Promise<ReplSession> {
  // Layers 1 and 2 both bypassed: the cell holds the worker's `process` and its `fs`, as the attack did.
  session = await startSession({ weakenForTest: { python: true, runtime: true }, allowWeakerSandbox: true, ...options });
  const armed = await session.execute(ATTACKER);
  assert.equal(armed.error, undefined, JSON.stringify(armed.error));
  return session;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (const began = Date.now(); !condition(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - began > 5000) assert.fail(`not within 5 s: ${what}`);
  }
}

/** A value as a Python literal (JSON with Python's names for true, false and null). */
const py = (value: unknown): string => `json.loads(${JSON.stringify(JSON.stringify(value))})`;

async function assertViolation(s: ReplSession, cell: string, stream: RegExp): Promise<void> {
  const pid = s.startup?.pid;
  await assert.rejects(s.execute(cell), (error: unknown) => {
    assert.ok(error instanceof SandboxViolationError, String(error));
    assert.equal(errorKindOf(error), 'sandbox_violation');
    assert.match(error.stream, stream);
    return true;
  });
  // The process is gone, and the session takes nothing more: the run ends here.
  assert.ok(pid !== undefined);
  await waitUntil(() => !alive(pid), 'the REPL process was killed');
  await assert.rejects(s.execute('1'), SandboxViolationError);
  await assert.rejects(s.bindContext({ kind: 'text', text: 'again' }), SandboxViolationError);
}

describe('the host reads the REPL process as hostile bytes (real REPL, layer 1 weakened)', () => {
  it('the 12-byte write that crashed the host over Node\'s IPC channel is a violation', async () => {
    const s = await attacker();
    await assertViolation(s, `raw(${CHANNEL_FD}, bytes([0, 0, 0, 12]) + bytes(range(1, 13)))\nimport time\ntime.sleep(0.5)`, /channel/);
  });

  it('a frame announcing 4 GB on the channel is refused at its header', async () => {
    const s = await attacker();
    await assertViolation(s, `raw(${CHANNEL_FD}, b'\\xff\\xff\\xff\\xff' + b'x' * 100)\nimport time\ntime.sleep(0.5)`, /channel/);
  });

  it('a well-formed message with an undeclared field (a forged sub-call claim) is refused', async () => {
    const s = await attacker();
    const forged = { type: 'result', id: 2, result: { stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: 1, interrupted: false, subCalls: [{ tokens: 1e9 }] } };
    await assertViolation(s, `raw(${CHANNEL_FD}, frame(${py(forged)}))\nimport time\ntime.sleep(0.5)`, /channel/);
  });

  it('a sub-call relayed over the channel by a process that uses the bridge pipe is refused, not answered', async () => {
    const bridge = recordingBridge();
    const s = await attacker({ bridge: bridge.handler });
    assert.equal(s.startup?.bridgeTransport, 'pipe');
    const call = { type: 'bridgeCall', callId: 99, call: { kind: 'llm_query', prompts: ['forged'], batched: false } };
    await assertViolation(s, `raw(${CHANNEL_FD}, frame(${py(call)}))\nimport time\ntime.sleep(0.5)`, /channel/);
    assert.deepEqual(bridge.calls, [], 'no sub-call was made for it');
  });

  it('garbage on the bridge pipe, and bytes written back on the context pipe, are violations', async () => {
    const s = await attacker();
    await assertViolation(s, `raw(${BRIDGE_FD}, b'\\x00\\x00\\x00\\x05{{{{{')\nimport time\ntime.sleep(0.5)`, /bridge pipe/);
    await session?.close();
    const t = await attacker();
    await assertViolation(t, `raw(${CONTEXT_FD}, b'hello host')\nimport time\ntime.sleep(0.5)`, /context pipe/);
  });

  it('a flood of well-formed output frames passes on no more than the capture limit; stdout and stderr floods only reach the log, bounded', async () => {
    const logged: string[] = [];
    const s = await attacker({ captureMaxChars: 1000, log: (m) => logged.push(m) });
    const streamed: string[] = [];
    s.onOutput((e) => streamed.push(e.text));
    const out = { type: 'output', stream: 'stdout', text: 'z'.repeat(1000) };
    const r = await s.execute(`one = frame(${py(out)})\nraw(${CHANNEL_FD}, one * 2000)\nraw(1, b'o' * 4_000_000)\nraw(2, b'e' * 4_000_000)\nimport time\ntime.sleep(0.5)`);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.ok(r.stdout.length <= 1000, `the cell keeps at most the cap (${r.stdout.length})`);
    assert.ok(streamed.join('').length <= 1000, `listeners got at most the cap (${streamed.join('').length})`);
    const stdio = logged.filter((m) => m.startsWith('[repl std')).join('');
    assert.ok(stdio.length < 200_000, `the log keeps a bounded part of the stdio flood (${stdio.length})`);
    assert.equal((await s.execute('print(1 + 1)')).stdout, '2\n', 'the session goes on');
  });

  it('a frame that never completes ends at the cell\'s timeout, with the process replaced: the host is not held', async () => {
    const s = await attacker({ hardTimeoutGraceMs: 500 });
    const r = await s.execute(`raw(${CHANNEL_FD}, b'\\x00\\x10\\x00\\x00' + b'x' * 10)`, { timeoutMs: 1000 });
    assert.equal(r.restarted?.reason, 'hard-timeout');
    assert.equal((await s.execute('print(3)')).stdout, '3\n');
  });

  it('the relay transport still answers sub-calls one at a time, and a cell stopped in one ends cleanly', async () => {
    const slow = recordingBridge();
    let hold = false;
    session = await startSession({
      bridgeTransport: 'relay',
      bridge: async (call, signal) => {
        if (hold) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
        return slow.handler(call, signal);
      },
    });
    assert.equal(session.startup?.bridgeTransport, 'relay');
    const r = await session.execute('print([llm_query(str(i)) for i in range(20)][-1])');
    assert.equal(r.stdout, 'echo:19\n');
    hold = true;
    const stopped = await session.execute('llm_query("never answered")', { timeoutMs: 1000 });
    assert.equal(stopped.timedOut, true, JSON.stringify(stopped.error));
    hold = false;
    assert.equal((await session.execute('print(llm_query("after"))')).stdout, 'echo:after\n');
  });

  it('control: the same cells without the writes run normally (the attacks above are what fails them)', async () => {
    const s = await attacker();
    const r = await s.execute(`frame({'type': 'output'})\nimport time\ntime.sleep(0.1)\nprint('fine')`);
    assert.equal(r.stdout, 'fine\n');
  });
});
