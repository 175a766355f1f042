// One AbortSignal stops the root call, in-flight and queued sub-calls and the running cell, without waiting for them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fence, makeRepl, ofType, startModel } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import type { EventRecord } from '../../../../src/core/trajectory/events';

describe('RLM loop: cancellation', () => {
  let root: Harness;
  let sub: Harness;
  let repl: TestRepl;
  before(async () => {
    repl = makeRepl();
    root = await startModel('openai', () => fence('rs = llm_query_batched([f"item {i}" for i in range(64)])\nprint(len(rs))'));
    sub = await startModel('openai', () => 'slow answer', {}, 5000);
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await sub.close();
  });

  it('stops a run mid-batch without waiting for the in-flight calls, keeping what happened so far', async () => {
    const controller = new AbortController();
    const run = createRlmRun({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, signal: controller.signal });
    const events: EventRecord[] = [];
    let abortedAt = 0;
    for await (const record of run) {
      events.push(record);
      if (record.type === 'subcall.started' && abortedAt === 0) {
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort();
        }, 300);
      }
    }
    const result = await run.run();
    const stopMs = Date.now() - abortedAt;
    assert.ok(abortedAt > 0);
    assert.equal(result.status, 'cancelled');
    // Each sub-call takes 5 s, so a stop that waited for them would take at least that; the margin absorbs a loaded machine.
    assert.ok(stopMs < 3500, `stopped in ${stopMs} ms`);
    const started = ofType(events, 'subcall.started').length;
    assert.equal(started, 16, 'only the first 16 of 64 were in flight; the queued ones never started');
    assert.equal(ofType(events, 'subcall.finished').length, 16);
    assert.ok(ofType(events, 'subcall.finished').every((s) => s.error));
    assert.ok(sub.server.completionRequests.length <= 16);
    assert.equal(ofType(events, 'run.finished')[0]?.status, 'cancelled');
    assert.ok(ofType(events, 'cell.started').length === 1);
    console.log(`# stop mid-batch: ${stopMs} ms`);
  });

  it('stops a run waiting on the root model', async () => {
    root.server.setRespond(() => ({ text: 'late', latencyMs: 10_000 }));
    const controller = new AbortController();
    const run = createRlmRun({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, repl, signal: controller.signal });
    let t = 0;
    for await (const record of run) {
      if (record.type === 'turn.started') {
        // Wait until the request has reached the server, then stop while the model is "thinking".
        for (let i = 0; i < 500 && root.server.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 10));
        assert.equal(root.server.inFlight, 1);
        t = Date.now();
        controller.abort();
      }
    }
    const result = await run.run();
    assert.equal(result.status, 'cancelled');
    // The model would answer after 10 s; the margin absorbs a loaded machine.
    assert.ok(Date.now() - t < 5000, `stopped ${Date.now() - t} ms after the abort`);
  });
});
