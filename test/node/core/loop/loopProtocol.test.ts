// Each protocol failure mode of the issue, handled visibly, through the real SDK and the real REPL.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { warmSession, fence, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

describe('RLM loop: protocol failure modes', () => {
  let model: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  /** The requests of the current test, for assertions about what the root was told. */
  let seen: FakeModelRequest[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    model = await startModel('anthropic', () => 'unused');
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  async function play(replies: string[], limits = {}) {
    seen = [];
    model.server.setRespond((request) => {
      seen.push(request);
      return replies[turnOf(request)] ?? fence('FINAL("script exhausted")');
    });
    return runCollect({ question: 'What is the answer?', context: { kind: 'text', text: 'The answer is 42.\n' }, root: model.client, repl, limits, ...warm });
  }

  it('gives a prose-only turn a corrective observation and counts it as a turn', async () => {
    const { result, events } = await play(['I believe the answer is 42.', fence('print(context)'), fence('FINAL("42")')]);
    assert.equal(result.status, 'completed');
    assert.equal(result.answer, '42');
    assert.equal(result.totals.iterations, 3);
    assert.deepEqual(ofType(events, 'protocol.notice').map((n) => n.kind), ['no-code-block']);
    assert.match(lastUser(seen[1]!), /no ```repl code block/);
  });

  it('honours FINAL(...) written in prose outside a code block', async () => {
    const { result, events } = await play([fence('x = 6 * 7\nprint(x)'), 'I have it.\nFINAL(The answer is 42)']);
    assert.equal(result.answer, 'The answer is 42');
    assert.equal(ofType(events, 'answer')[0]?.via, 'FINAL');
    assert.deepEqual(ofType(events, 'protocol.notice').map((n) => n.kind), ['final-in-prose']);
  });

  it('resolves FINAL_VAR(name) written in prose in the REPL', async () => {
    const { result, events } = await play([fence('result = "forty-two"\nprint(len(result))'), 'FINAL_VAR(result)']);
    assert.equal(result.status, 'completed');
    assert.equal(result.answer, 'forty-two');
    assert.equal(ofType(events, 'answer')[0]?.via, 'FINAL_VAR');
  });

  it('never answers with an undefined FINAL_VAR name: the model sees the error', async () => {
    const { result, events } = await play([fence('FINAL_VAR("nothing_here")'), 'FINAL_VAR(still_missing)', fence('FINAL("recovered")')]);
    assert.equal(result.answer, 'recovered');
    const cells = ofType(events, 'cell.finished');
    assert.ok(cells[0]?.error, 'the first FINAL_VAR cell should fail');
    assert.equal(cells[0]?.final, undefined);
    assert.match(lastUser(seen[1]!), /nothing_here/);
    assert.match(lastUser(seen[1]!), /Error/);
    assert.ok(ofType(events, 'protocol.notice').some((n) => n.kind === 'final-var-missing'));
    assert.match(lastUser(seen[2]!), /still_missing/);
  });

  it('shows a syntax error to the model as a traceback', async () => {
    const { result } = await play([fence('def broken(:\n    pass'), fence('FINAL("fixed")')]);
    assert.equal(result.answer, 'fixed');
    const observation = lastUser(seen[1]!);
    assert.match(observation, /SyntaxError/);
  });

  it('counts a final answer set in a failing cell only when its value exists', async () => {
    const kept = await play([fence('value = "kept"\nFINAL_VAR("value")\n1 / 0')]);
    assert.equal(kept.result.answer, 'kept');
    const missing = await play([fence('FINAL_VAR("ghost")\n1 / 0'), fence('FINAL("second try")')]);
    assert.equal(missing.result.answer, 'second try');
  });

  it('runs only the first of several code blocks, and tells the model', async () => {
    const reply = `${fence('print("first block ran")')}\nand also\n${fence('print("second block ran")')}`;
    const { result, events } = await play([reply, fence('FINAL("done")')]);
    assert.equal(result.answer, 'done');
    assert.equal(ofType(events, 'cell.started').length, 2);
    const observation = lastUser(seen[1]!);
    assert.match(observation, /first block ran/);
    assert.doesNotMatch(observation, /second block ran/);
    assert.match(observation, /only the first one ran/);
    assert.ok(ofType(events, 'protocol.notice').some((n) => n.kind === 'extra-code-blocks'));
  });

  it('accepts ```python and bare fences, and keeps only code and observation in the history', async () => {
    const { result } = await play(['Thinking out loud here.\n```python\nn = len(context)\nprint(n)\n```', 'More prose.\n```\nFINAL(str(n))\n```']);
    assert.equal(result.answer, '18');
    const history = seen[1]!.messages;
    assert.equal(history[1]?.role, 'assistant');
    assert.doesNotMatch(history[1]!.content, /Thinking out loud/);
    assert.match(lastUser(seen[1]!), /18/);
  });

  it('treats an empty FINAL as no answer and says so', async () => {
    const { result, events } = await play([fence('FINAL("")'), fence('FINAL("non-empty")')]);
    assert.equal(result.answer, 'non-empty');
    assert.ok(ofType(events, 'protocol.notice').some((n) => n.kind === 'empty-final'));
  });
});
