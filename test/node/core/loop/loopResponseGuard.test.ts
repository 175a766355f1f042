// A stalled or oversized model response inside a run: a sub-call's comes back into Python as an
// "[ERROR] <kind>: ..." string and is recorded on subcall.finished; the root's ends the run with
// an error status and a clear message on run.finished. Real REPL, real SDKs, hostile servers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import { startHostileServer } from '../../../fakes/fakeHostileServer';
import type { HostileServer } from '../../../fakes/fakeHostileServer';
import { fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

describe('RLM loop: stalled and oversized model responses', () => {
  let root: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const hostile: HostileServer[] = [];
  const rootSeen: FakeModelRequest[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', (r) => {
      if (!isRootRequest(r)) return 'unused';
      rootSeen.push(r);
      return turnOf(r) === 0 ? fence('r = llm_query("summarise")\nprint(r)') : fence('FINAL("done")');
    });
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await Promise.all(hostile.map((s) => s.close()));
  });

  async function hostileSub(protocol: 'openai' | 'anthropic', kind: 'silent-after-start' | 'endless') {
    const server = await startHostileServer(protocol, kind === 'endless' ? { kind, intervalMs: 20, deltaChars: 8192 } : { kind });
    hostile.push(server);
    return { server, client: createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'hostile-sub', maxRetries: 1, stallTimeoutMs: 400, maxResponseBytes: 64 * 1024 }) };
  }

  it('a sub-call whose server goes silent returns [ERROR] timeout into Python and is recorded', async () => {
    rootSeen.length = 0;
    const sub = await hostileSub('anthropic', 'silent-after-start');
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm });
    assert.equal(result.status, 'completed');
    assert.match(lastUser(rootSeen[1]!), /\[ERROR\] timeout: Anthropic model "hostile-sub" at http:\/\/127\.0\.0\.1:\d+: the response stalled: no bytes arrived for 0\.4 s/);
    const finished = ofType(events, 'subcall.finished');
    assert.equal(finished.length, 1);
    assert.equal(finished[0]?.error?.kind, 'timeout');
    assert.match(finished[0]?.error?.message ?? '', /--stall-timeout/);
    assert.ok((finished[0]?.latencyMs ?? 0) >= 380);
    assert.equal(sub.server.requests.length, 1, 'a stall inside the body is not retried');
  });

  it('a sub-call whose server never stops returns [ERROR] bad_response into Python and is recorded', async () => {
    rootSeen.length = 0;
    const sub = await hostileSub('openai', 'endless');
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm });
    assert.equal(result.status, 'completed');
    assert.match(lastUser(rootSeen[1]!), /\[ERROR\] bad_response: OpenAI-compatible model "hostile-sub" .*passed the 0\.063 MB limit/);
    assert.equal(ofType(events, 'subcall.finished')[0]?.error?.kind, 'bad_response');
    assert.equal(sub.server.requests.length, 1, 'an oversized answer is not retried');
  });

  it('a root call whose server goes silent ends the run with an error naming the stall', async () => {
    const server = await startHostileServer('openai', { kind: 'silent-after-start' });
    hostile.push(server);
    const stalled = createModelClient({ provider: 'openai', baseUrl: server.baseUrl, model: 'hostile-root', maxRetries: 0, stallTimeoutMs: 400 });
    const started = Date.now();
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: stalled, repl, ...warm });
    assert.ok(Date.now() - started < 10_000);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.kind, 'timeout');
    assert.match(result.error?.message ?? '', /hostile-root.*no bytes arrived for 0\.4 s/);
    const finished = ofType(events, 'run.finished')[0];
    assert.equal(finished?.status, 'error');
    assert.equal(finished?.error?.kind, 'timeout');
    // The part that did arrive was streamed into the record before the stall.
    assert.ok(ofType(events, 'model.delta').some((d) => d.text.includes('a partial answer')));
  });
});
