// Interrupts, timeouts, restarts and the bridge's concurrency, through the built bundles, on both bridge transports.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BridgeCall, BridgeHandler, ReplSession } from '../../../../src/core/repl/replTypes';
import { replChildPids, startSession } from './replTestKit';

interface Gate {
  aborted: number;
  started: number;
  /** Output events seen so far, so a bridge call can report what had streamed before it. */
  streamed: string[];
  /** Sub-calls answering right now, and the most ever at once: concurrency, without a clock. */
  inFlight: number;
  peakInFlight: number;
}

/** A bridge whose behaviour each test picks through the prompt text. */
function scriptedBridge(gate: Gate): BridgeHandler {
  const one = async (prompt: string, signal: AbortSignal): Promise<string> => {
    if (prompt === 'probe') return `seen:${gate.streamed.join('')}`;
    if (prompt === 'hang') {
      gate.started++;
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          gate.aborted++;
          reject(new Error('aborted'));
        }),
      );
    }
    const delay = /^slow(\d+)/.exec(prompt);
    if (delay) {
      gate.inFlight++;
      gate.peakInFlight = Math.max(gate.peakInFlight, gate.inFlight);
      await new Promise((r) => setTimeout(r, Number(delay[1])));
      gate.inFlight--;
    }
    if (prompt.startsWith('fail')) return `[ERROR] ${prompt} could not be answered`;
    if (prompt === 'explode') throw new Error('the model server is down');
    return `ok:${prompt}`;
  };
  return async (call: BridgeCall, signal: AbortSignal) => {
    if (call.prompts.includes('explode')) throw new Error('the model server is down');
    if (call.prompts.includes('malformed')) return ['only one'] as string[];
    return Promise.all(call.prompts.map((p) => one(p, signal)));
  };
}

// Every behaviour holds on both bridge transports: the direct pipe, and the relay it falls back to.
for (const transport of ['pipe', 'relay'] as const) describe(`REPL interrupts, timeouts and restarts (${transport} bridge)`, () => {
  let session: ReplSession;
  const gate: Gate = { aborted: 0, started: 0, streamed: [], inFlight: 0, peakInFlight: 0 };

  before(async () => {
    // The hard timeout's grace is the product's default (5 s): a shorter one made a loaded machine's
    // late interrupt look like a cell that swallowed it.
    session = await startSession({ bridge: scriptedBridge(gate), bridgeTransport: transport });
    assert.equal(session.startup?.bridgeTransport, transport);
    await session.bindContext({ kind: 'text', text: 'line one\nline two\n' });
    session.onOutput((e) => gate.streamed.push(e.text));
  });
  after(async () => {
    await session?.close();
  });

  // How soon is bench/replBench.ts's "interrupt() of a busy cell to its result"; the bound here only
  // catches an interrupt that never lands (the loop has no end of its own).
  it('interrupt() stops a busy loop and keeps variables', async () => {
    await session.execute('kept = [1, 2, 3]');
    const running = session.execute('n = 0\nwhile True:\n    n += 1');
    await new Promise((r) => setTimeout(r, 400));
    const stopAt = performance.now();
    session.interrupt();
    const r = await running;
    assert.ok(performance.now() - stopAt < 30_000, 'the interrupt never stopped the loop');
    assert.equal(r.interrupted, true);
    assert.equal(r.error?.type, 'Interrupted');
    assert.equal(r.restarted, undefined);
    const check = await session.execute('kept, n > 0');
    assert.equal(check.stdout, '([1, 2, 3], True)\n');
  });

  it('the AbortSignal stops a catastrophic regex', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const r = await session.execute('import re\nre.match(r"(a+)+$", "a" * 64 + "b")', { signal: controller.signal });
    assert.equal(r.interrupted, true);
    assert.ok(r.durationMs < 10_000);
    const check = await session.execute('len(kept)');
    assert.equal(check.stdout, '3\n');
  });

  it('an already-aborted signal stops the cell at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await session.execute('while True:\n    pass', { signal: controller.signal });
    assert.equal(r.interrupted, true);
    const next = await session.execute('spin = 0\nfor i in range(10**5):\n    spin += 1\nspin');
    assert.equal(next.stdout, '100000\n', 'the next cell is not hit by the old interrupt');
  });

  it('interrupt() stops a cell blocked in llm_query and aborts the host work', async () => {
    const before = gate.aborted;
    const running = session.execute('partial = "set before"\nllm_query("hang")');
    while (gate.started === 0) await new Promise((r) => setTimeout(r, 20));
    session.interrupt();
    const r = await running;
    assert.equal(r.interrupted, true);
    assert.equal(gate.aborted, before + 1, "the bridge call's AbortSignal was not tripped");
    const check = await session.execute('partial, llm_query("after")');
    assert.equal(check.stdout, "('set before', 'ok:after')\n");
  });

  it('the soft timeout interrupts the cell and keeps state; time.sleep is interruptible', async () => {
    const r = await session.execute('slept = "before"\nimport time\ntime.sleep(30)', { timeoutMs: 400 });
    assert.equal(r.timedOut, true);
    assert.equal(r.error?.type, 'Timeout');
    assert.match(r.error?.message ?? '', /400 ms/);
    assert.ok(r.durationMs < 10_000, `took ${r.durationMs} ms`);
    const check = await session.execute('slept');
    assert.equal(check.stdout, "'before'\n");
  });

  it('output printed before a sub-call has streamed to the host before the call is made', async () => {
    gate.streamed.length = 0;
    const r = await session.execute('print("working on it")\nprint(llm_query("probe"))');
    assert.equal(r.stdout, 'working on it\nseen:working on it\n\n');
  });

  it('a cell that ignores SIGINT cannot disable the soft timeout of later cells', async () => {
    await session.execute('import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nstate_kept = 1');
    const r = await session.execute('while True:\n    pass', { timeoutMs: 300 });
    assert.equal(r.timedOut, true);
    assert.equal(r.restarted, undefined);
    assert.equal((await session.execute('state_kept')).stdout, '1\n');
  });

  it('batched sub-calls keep input order, run concurrently, and fail per item', async () => {
    gate.peakInFlight = 0;
    const r = await session.execute('res = llm_query_batched(["slow600a", "slow200b", "fail-c", "slow400d"])\nres');
    assert.equal(r.stdout, "['ok:slow600a', 'ok:slow200b', '[ERROR] fail-c could not be answered', 'ok:slow400d']\n");
    assert.equal(gate.peakInFlight, 3, 'the three slow calls of the batch were not all answering at once');
    const whole = await session.execute('llm_query_batched(["a", "explode"])');
    assert.equal(whole.stdout, "['[ERROR] internal: the model server is down', '[ERROR] internal: the model server is down']\n");
    const shape = await session.execute('rlm_query_batched(["x", "malformed"], contexts=[None, {"a": 1}])');
    assert.match(shape.stdout, /^\['\[ERROR\] internal: the host returned a malformed answer for 2 prompt\(s\)', '\[ERROR\] /);
    const mismatch = await session.execute('rlm_query_batched(["x"], contexts=[None, None])');
    assert.equal(mismatch.error?.type, 'ValueError');
  });

  it('the hard timeout kills a cell that swallows interrupts, restarts and rebinds context', async () => {
    await session.execute('lost = True');
    const code = 'while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass';
    const r = await session.execute(code, { timeoutMs: 300 });
    assert.equal(r.restarted?.reason, 'hard-timeout');
    assert.equal(r.timedOut, true);
    assert.equal(r.error?.type, 'Restarted');
    assert.match(r.error?.message ?? '', /All variables were lost; `context` has been bound again/);
    const after = await session.execute('print(context.splitlines()[1])\nlost');
    assert.equal(after.stdout, 'line two\n');
    assert.equal(after.error?.type, 'NameError');
    assert.equal(after.restarted, undefined);
    assert.equal(session.startup?.restarts, 1);
  });

  it('a crash while idle is reported on the next cell, with context rebound', async () => {
    const pids = replChildPids();
    assert.equal(pids.length, 1, `expected one REPL child, found ${pids.join(', ')}`);
    process.kill(pids[0]!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    // Depending on when the host sees the exit, this cell runs in the new process or is the one lost.
    const r = await session.execute('len(context)');
    assert.equal(r.restarted?.reason, 'crash');
    assert.ok(r.stdout === '18\n' || r.stdout === '', r.stdout);
    const next = await session.execute('len(context)');
    assert.equal(next.restarted, undefined);
    assert.equal(next.stdout, '18\n');
  });
});
