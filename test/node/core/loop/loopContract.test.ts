// The RLM contract (docs/rlm-contract.md), rule by rule, through the real loop, the real REPL and the
// real SDK against fake model servers: what runs, what ends a run, what the root sees of output, what
// each limit does, and how errors read.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { RunLimits } from '../../../../src/core/loop/loopTypes';
import { AuthError } from '../../../../src/core/models/modelErrors';
import { errorKind, RunCancelledError, SubCallLimitError } from '../../../../src/core/loop/loopErrors';
import { ReplHungError, SandboxError } from '../../../../src/core/repl/replErrors';
import { ERROR_KINDS } from '../../../../src/core/errorKind';

type Script = (request: FakeModelRequest) => FakeResponse;

describe('RLM contract v1, through the loop', () => {
  let root: Harness;
  let sub: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const rootSeen: FakeModelRequest[] = [];
  let subRequests = 0;
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', () => 'unused');
    sub = await startModel('anthropic', () => {
      subRequests++;
      return 'sub answer';
    });
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await sub.close();
  });

  async function play(script: Script, limits: Partial<RunLimits> = {}, text = 'line one\nline two\n') {
    rootSeen.length = 0;
    subRequests = 0;
    root.server.setRespond((r) => {
      if (isRootRequest(r)) rootSeen.push(r);
      return script(r);
    });
    return runCollect({ question: 'What is in the text?', context: { kind: 'text', text }, root: root.client, sub: sub.client, repl, limits, ...warm });
  }

  /** Turn 0 runs `code`; turn 1 answers with whatever the observation showed was needed. */
  const twoTurns = (code: string, final = 'FINAL("done")'): Script => (r) => (turnOf(r) === 0 ? fence(code) : fence(final));

  describe('1. long output is told truthfully', () => {
    it('the root sees the real head and the real tail with the true length, and _out[n] holds all of it', async () => {
      const { result, events } = await play((r) => {
        if (turnOf(r) === 0) return fence('import sys\n_ = sys.stdout.write("START " + "x" * 300_000 + " END")');
        if (turnOf(r) === 1) return fence('o = _out[1]\nprint(len(o), o[:5], o[-3:])');
        return fence('FINAL("ok")');
      });
      assert.equal(result.answer, 'ok');
      const observation = lastUser(rootSeen[1]!);
      assert.match(observation, /Output \(300,010 chars, showing its head and tail; the whole text is in _out\[1\] \(len 300,010\)\)/);
      assert.match(observation, /^START x+/m, 'the head is the real head');
      assert.match(observation, /x+ END\n/, 'the tail is the real tail');
      assert.match(observation, /\[\.\.\. [\d,]+ of 300,010 characters omitted \.\.\.\]/);
      const cell = ofType(events, 'cell.finished')[0]!;
      assert.ok(cell.stdout.endsWith(' END'), 'the recorded output ends where the real output ends');
      assert.equal(cell.stdoutChars, 300_010);
      assert.match(lastUser(rootSeen[2]!), /300010 START END/);
    });
  });

  describe('2. hitting a limit mid-cell gives the model a last turn', () => {
    it('a batch over the sub-call budget answers what it can, fails the rest per item with the limit, and the model answers in a last turn', async () => {
      const { result, events } = await play(
        (r) => {
          if (turnOf(r) === 0) return fence('rs = llm_query_batched([f"q{i}" for i in range(17)])\nok = [x for x in rs if not x.startswith("[ERROR]")]\nprint(len(ok), "answered;", rs[-1])');
          if (/used all 5 of its sub-calls/.test(lastUser(r)) && /last turn/.test(lastUser(r))) return fence('FINAL(f"{len(ok)} answers were enough")');
          return fence('print("more work")');
        },
        { maxSubCalls: 5 },
      );
      const observation = rootSeen[1]!.messages.map((m) => m.content).join('\n');
      assert.match(observation, /5 answered; \[ERROR\] limit: the run's sub-call budget \(5\) is spent/);
      assert.match(lastUser(rootSeen[1]!), /This is your last turn/);
      assert.equal(subRequests, 5, 'nothing over the budget was sent');
      assert.equal(result.status, 'forced');
      assert.equal(result.answer, '5 answers were enough');
      assert.equal(result.error?.limit, 'subCalls');
      assert.equal(result.error?.kind, 'limit');
      assert.equal(ofType(events, 'answer')[0]?.via, 'forced');
      assert.equal(rootSeen.length, 2, 'one turn, then exactly one last turn');
    });

    it('a model that does not answer in its last turn ends with no answer; its printout is partial findings', async () => {
      const { result } = await play(() => fence('rs = llm_query_batched(["a"] * 9)\nprint("printout, not an answer")'), { maxSubCalls: 5 });
      assert.equal(result.status, 'limit');
      assert.equal(result.answer, undefined);
      assert.equal(result.partial, 'printout, not an answer');
    });

    it('the iteration limit gives a last turn whose code runs, so an answer built in a variable is given', async () => {
      const { result } = await play((r) => (/You have used all 2 turns/.test(lastUser(r)) ? fence('FINAL_VAR("n")') : fence('n = len(context.splitlines())\nprint(n)')), { maxIterations: 2 });
      assert.equal(result.status, 'forced');
      assert.equal(result.answer, '2');
      assert.equal(result.error?.limit, 'iterations');
    });
  });

  describe('3. FINAL ends the cell at once', () => {
    it('the first FINAL wins and later code does not run; output before it is shown', async () => {
      const { result, events } = await play(() => fence('print("before")\nfound = True\nif found:\n    FINAL("a")\nprint("after")\nFINAL("b")'));
      assert.equal(result.answer, 'a');
      const cell = ofType(events, 'cell.finished')[0]!;
      assert.equal(cell.stdout, 'before\n');
      assert.equal(cell.error, undefined);
    });

    it('a FINAL swallowed by a bare except still wins over a later one; answer["ready"] keeps its meaning', async () => {
      const swallowed = await play(() => fence('try:\n    FINAL("first")\nexcept BaseException:\n    pass\nFINAL_VAR("second")'));
      assert.equal(swallowed.result.answer, 'first');
      const ready = await play(() => fence('answer["content"] = "assembled"\nanswer["ready"] = True\nprint("still runs")'));
      assert.equal(ready.result.answer, 'assembled');
      assert.equal(ofType(ready.events, 'cell.finished')[0]?.stdout, 'still runs\n');
    });
  });

  describe('4. which block runs', () => {
    it('a ```repl block runs even when a ```python block comes first', async () => {
      const { result, events } = await play(() => 'Example:\n```python\nFINAL("python")\n```\nNow:\n```repl\nFINAL("repl")\n```');
      assert.equal(result.answer, 'repl');
      assert.equal(ofType(events, 'protocol.notice').filter((n) => n.kind === 'python-block').length, 0);
    });

    it('only a reply without a ```repl block falls back to its first ```python block, and the model is told', async () => {
      const { result, events } = await play((r) => (turnOf(r) === 0 ? '```python\nx = 41\nprint(x + 1)\n```' : fence('FINAL(str(x + 1))')));
      assert.equal(result.answer, '42');
      assert.equal(ofType(events, 'protocol.notice')[0]?.kind, 'python-block');
      assert.match(lastUser(rootSeen[1]!), /no ```repl block, so its first ```python block ran instead/);
    });

    it('a decorative outer fence around the block is unwrapped, with three or four backticks', async () => {
      const sloppy = await play(() => '```\n```repl\nFINAL("unwrapped")\n```\n```');
      assert.equal(sloppy.result.answer, 'unwrapped');
      assert.equal(ofType(sloppy.events, 'cell.finished')[0]?.error, undefined);
      const nested = await play(() => '````markdown\n```repl\nFINAL("nested")\n```\n````');
      assert.equal(nested.result.answer, 'nested');
    });
  });

  describe('5. SHOW_VARS shows the model\'s variables only', () => {
    it('no modules, private names or REPL names; it returns the text and print() adds no "None"', async () => {
      const { events } = await play(twoTurns('import re, json\nfrom collections import Counter\nx = 1\nwords = ["a", "b"]\n_hidden = 2\nlisting = SHOW_VARS()\nprint(SHOW_VARS())\nprint(type(listing).__name__, "x: int" in listing)'));
      const out = ofType(events, 'cell.finished')[0]!.stdout;
      assert.doesNotMatch(out, /None/);
      assert.doesNotMatch(out, /\bre:|json:|collections|_hidden|context|llm_query|_out/);
      assert.match(out, /Counter: type/, 'a name the model imported is its own variable');
      assert.match(out, /^x: int$/m);
      assert.match(out, /^words: list len=2$/m);
      assert.match(out, /_ShownText True/);
    });
  });

  describe('6. no billable nonsense', () => {
    it('an empty or whitespace prompt raises in the cell and sends nothing, alone or in a batch', async () => {
      const { events } = await play(twoTurns('for call in (lambda: llm_query(""), lambda: llm_query("   \\n"), lambda: llm_query_batched(["ok", " ", ""]), lambda: rlm_query("")):\n    try:\n        call()\n    except ValueError as e:\n        print(e)'));
      const out = ofType(events, 'cell.finished')[0]!.stdout;
      assert.match(out, /llm_query: the prompt is empty; nothing was sent/);
      assert.match(out, /llm_query_batched: prompts #1, #2 are empty; nothing was sent/);
      assert.match(out, /rlm_query: the prompt is empty/);
      assert.equal(subRequests, 0);
      assert.equal(ofType(events, 'subcall.started').length, 0);
    });
  });

  describe('7. error kinds a model can read', () => {
    it('a sub model that cannot be reached reads "[ERROR] connection: ...", and the trajectory records the kind', async () => {
      const dead = await startModel('openai', () => 'x');
      const deadClient = dead.client;
      await dead.close();
      rootSeen.length = 0;
      root.server.setRespond((r) => {
        if (isRootRequest(r)) rootSeen.push(r);
        return twoTurns('print(llm_query("hello"))')(r);
      });
      const { events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: deadClient, repl, ...warm });
      const out = ofType(events, 'cell.finished')[0]!.stdout;
      assert.match(out, /^\[ERROR\] connection: /);
      assert.equal(ofType(events, 'subcall.finished')[0]?.error?.kind, 'connection');
    });

    it('kinds are chosen in the source, whatever the class is called after minification', () => {
      const errors: Array<[Error, string]> = [
        [new AuthError('bad key', { provider: 'openai', endpoint: 'https://x', model: 'm' }), 'auth'],
        [new SubCallLimitError(5), 'limit'],
        [new RunCancelledError(), 'cancelled'],
        [new ReplHungError('bind', 1000), 'repl'],
        [new SandboxError(['x']), 'sandbox'],
      ];
      for (const [error, kind] of errors) {
        Object.defineProperty(error, 'name', { value: 'Zh' });
        Object.defineProperty(error.constructor, 'name', { value: 'Zh' });
        assert.equal(errorKind(error), kind);
        assert.ok((ERROR_KINDS as readonly string[]).includes(kind));
      }
      assert.equal(errorKind(new Error('plain')), 'internal');
    });
  });
});
