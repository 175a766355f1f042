// Poking at a run's session: the user's own cells run in the REPL the run left (its variables and
// `context`), are recorded as the user's, bill their llm_query as the user's sub-calls, stop at the cell
// timeout, and are shown to the root with the next question of the conversation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runUserCell } from '../../../../src/core/loop/userCell';
import type { UserCellNote } from '../../../../src/core/loop/loopTypes';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { replayPlanOf } from '../../../../src/core/continuation/replayPlan';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import { headerFromRunStarted } from '../../../../src/core/trajectory/trajectoryHeader';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';

describe('RLM loop: the user\'s own cells in a run\'s session', () => {
  let model: Harness;
  let repl: TestRepl;
  const roots: FakeModelRequest[] = [];
  const subs: FakeModelRequest[] = [];
  before(async () => {
    repl = makeRepl();
    model = await startModel('openai', (r) => {
      if (!isRootRequest(r)) {
        subs.push(r);
        return 'the sub says hi';
      }
      roots.push(r);
      const first = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (first.includes('Question: Where is the needle?')) {
        return turnOf(r) === 0 ? fence('hits = [i for i, l in enumerate(context.splitlines()) if "needle" in l]\nprint(hits)') : fence('FINAL("line " + str(hits[0] + 1))');
      }
      return fence('FINAL(str(mine))');
    });
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  it('runs in the run\'s REPL, is recorded as the user\'s, bills its llm_query to the user, and reaches the follow-up', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    try {
      const context = { kind: 'text' as const, text: 'hay\nhay\nneedle here\nhay' };
      const first = await runCollect({ question: 'Where is the needle?', context, root: model.client, repl, session, sessionBridge });
      assert.equal(first.result.answer, 'line 3');
      const records: EventRecord[] = [...first.events];
      const lastSeq = records.at(-1)!.seq;
      const subsBefore = subs.length;
      const user = await runUserCell({
        code: 'mine = len(hits) * 7\nprint(context.splitlines()[hits[0]], mine, llm_query("say hi"))',
        runId: first.result.runId,
        turn: 3,
        lastSeq,
        session,
        sessionBridge,
        sub: model.client,
        repl,
        sink: (record) => records.push(record),
      });
      assert.equal(user.cell.stdout.trim(), 'needle here 7 the sub says hi');
      assert.equal(subs.length, subsBefore + 1, 'the user\'s llm_query was sent');
      assert.equal(user.totals.subCalls, 1);
      const added = records.slice(first.events.length);
      assert.ok(added.every((r, i) => r.seq === lastSeq + 1 + i), 'the user\'s records follow the run\'s, in order');
      const started = ofType(added, 'cell.started')[0]!;
      assert.equal(started.author, 'user');
      assert.equal(started.turn, 3);
      const call = ofType(added, 'subcall.started')[0]!;
      assert.equal(call.author, 'user');
      assert.equal(call.cellId, started.cellId);
      assert.ok(ofType(added, 'subcall.finished')[0]!.usage.inputTokens > 0, 'billed: the call used tokens');
      // The record reads back with the cell in a user's turn, its sub-call counted in the run's totals.
      const builder = new TreeBuilder();
      for (const r of records) assert.equal(builder.apply(r).problem, undefined);
      const run = builder.tree!;
      const turn = run.turns.at(-1)!;
      assert.equal(turn.author, 'user');
      assert.equal(turn.cells[0]!.author, 'user');
      assert.equal(turn.cells[0]!.subCalls[0]!.author, 'user');
      assert.equal(run.totals.subCalls, 1);
      assert.equal(run.turns[0]!.author, undefined, 'the root\'s turns stay the root\'s');
      // Written and read back as a file: the user's records pass the record schema and read the same.
      const file = join(mkdtempSync(join(tmpdir(), 'rlm-user-cells-')), 'run.rlm.jsonl');
      const runStarted = ofType(records, 'run.started')[0]!;
      const writer = openTrajectoryWriter(file, headerFromRunStarted(runStarted, 'test'));
      for (const r of records) writer.write(r);
      writer.close();
      const read = await readTrajectory(file);
      assert.deepEqual(read.problems, []);
      assert.equal(read.tree!.turns.at(-1)!.author, 'user');
      assert.equal(read.tree!.turns.at(-1)!.cells[0]!.subCalls[0]!.author, 'user');

      // The follow-up in the same conversation: the root's first request holds the user's cell and its output.
      const notes: UserCellNote[] = [user.note];
      const followUp = await runCollect({
        question: 'What did I compute?',
        context,
        root: model.client,
        repl,
        session,
        sessionBridge,
        priorTurns: [{ question: 'Where is the needle?', answer: 'line 3' }],
        userCells: notes,
      });
      assert.equal(followUp.result.answer, '7', 'the user\'s variable is in the session');
      const request = roots.find((r) => r.messages.some((m) => m.content.includes('Question: What did I compute?')))!;
      const firstUser = request.messages.find((m) => m.role === 'user')!.content;
      assert.match(firstUser, /the user ran 1 cell of their own/);
      assert.match(firstUser, /mine = len\(hits\) \* 7/);
      assert.match(firstUser, /needle here 7 the sub says hi/);
    } finally {
      await repl.release(session);
    }
  });

  it('truncates a long output for the root as it does its own', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    try {
      await session.bindContext({ kind: 'text', text: 'x' });
      const user = await runUserCell({ code: 'print("A" * 50000 + "END")', runId: 'run-1', turn: 1, lastSeq: 0, session, sessionBridge, sub: model.client, repl, limits: { observationMaxChars: 500 }, sink: () => undefined });
      assert.ok(user.note.observation.length < 1200, `the observation is bounded (${user.note.observation.length})`);
      assert.match(user.note.observation, /50,004 chars/);
      assert.match(user.note.observation, /END/);
    } finally {
      await repl.release(session);
    }
  });

  it('a peek is printed with its line numbers, and sent to llm_query as the text it holds', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    try {
      await session.bindContext({ kind: 'text', text: 'alpha\nbeta\ngamma\n' });
      const records: EventRecord[] = [];
      const subsBefore = subs.length;
      const user = await runUserCell({ code: 'p = peek(6, 17)\nprint(p)\nreply = llm_query(p)\nprint(reply)', runId: 'run-1', turn: 1, lastSeq: 0, session, sessionBridge, sub: model.client, repl, sink: (r) => records.push(r) });
      // Said in full when it fails: once in CI the sub-call never reached the server (cause unknown).
      const story = JSON.stringify({ error: user.cell.error, stderr: user.cell.stderr, subcalls: records.filter((r) => r.type.startsWith('subcall.')) });
      assert.equal(user.cell.stdout, 'context, lines 2-3 (chars 6-17 of 17):\n2| beta\n3| gamma\nthe sub says hi\n', story);
      assert.equal(subs.length, subsBefore + 1, story);
      const sent = subs.at(-1)!.messages.find((m) => m.role === 'user')!.content;
      assert.equal(sent, 'beta\ngamma\n');
    } finally {
      await repl.release(session);
    }
  });

  it('stops a runaway cell at the cell timeout, and Stop interrupts one', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    try {
      await session.bindContext({ kind: 'text', text: 'x' });
      const records: EventRecord[] = [];
      const timed = await runUserCell({ code: 'while True:\n    pass', runId: 'run-1', turn: 1, lastSeq: 0, session, sessionBridge, sub: model.client, repl, limits: { cellTimeoutMs: 1500 }, sink: (r) => records.push(r) });
      assert.equal(timed.cell.timedOut, true);
      assert.equal(ofType(records, 'cell.finished')[0]!.timedOut, true);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 800);
      const stopped = await runUserCell({ code: 'while True:\n    pass', runId: 'run-1', turn: 2, lastSeq: records.at(-1)!.seq, session, sessionBridge, sub: model.client, repl, limits: { cellTimeoutMs: 60_000 }, signal: controller.signal, sink: () => undefined });
      assert.equal(stopped.cell.interrupted, true);
      // The session is still usable after both.
      const after = await runUserCell({ code: 'print(1 + 1)', runId: 'run-1', turn: 3, lastSeq: 100, session, sessionBridge, sub: model.client, repl, sink: () => undefined });
      assert.equal(after.cell.stdout.trim(), '2');
    } finally {
      await repl.release(session);
    }
  });

  it('refuses an empty cell with a clear error', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    try {
      await assert.rejects(runUserCell({ code: '  \n', runId: 'r', turn: 1, lastSeq: 0, session, sessionBridge, sub: model.client, repl, sink: () => undefined }), /empty/);
    } finally {
      await repl.release(session);
    }
  });

  it('replays the user\'s cells as theirs when the run is continued, with nothing re-billed', async () => {
    const { session, sessionBridge } = await warmSession(repl);
    const context = { kind: 'text' as const, text: 'hay\nneedle\nhay' };
    let records: EventRecord[];
    let runId: string;
    try {
      const first = await runCollect({ question: 'Where is the needle?', context, root: model.client, repl, session, sessionBridge });
      runId = first.result.runId;
      records = [...first.events];
      await runUserCell({ code: 'mine = 41 + 1\nprint(llm_query("say hi"))', runId, turn: 3, lastSeq: records.at(-1)!.seq, session, sessionBridge, sub: model.client, repl, sink: (r) => records.push(r) });
      // A cell the user stopped is not replayed (it would run to its timeout again).
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 500);
      await runUserCell({ code: 'while True:\n    pass', runId, turn: 4, lastSeq: records.at(-1)!.seq, session, sessionBridge, sub: model.client, repl, signal: stop.signal, sink: (r) => records.push(r) });
    } finally {
      await repl.release(session);
    }
    const builder = new TreeBuilder();
    for (const r of records) builder.apply(r);
    const plan = replayPlanOf(builder.tree!);
    assert.equal(plan.turns.at(-1)!.author, 'user');
    assert.deepEqual(plan.turns.map((t) => t.turn), [1, 2, 3], 'the stopped user cell is left out');
    const subsBefore = subs.length;
    const replayed = await runCollect({
      question: 'replay only',
      context,
      root: model.client,
      repl,
      replay: { plan, from: { mode: 'session', runId, question: 'Where is the needle?', allowDivergence: false } },
    });
    assert.equal(replayed.result.status, 'completed');
    assert.equal(replayed.result.answer, undefined, 'a session replay asks no question');
    assert.equal(subs.length, subsBefore, 'nothing was sent: the user\'s sub-call came from the record');
    assert.equal(roots.filter((r) => r.messages.some((m) => m.content.includes('replay only'))).length, 0, 'the root was not called');
    const userStart = ofType(replayed.events, 'cell.started').find((c) => c.author === 'user');
    assert.ok(userStart, 'the user\'s cell is replayed as theirs');
    const replayedCall = ofType(replayed.events, 'subcall.started').find((c) => c.cellId === userStart.cellId);
    assert.equal(replayedCall?.author, 'user', 'and its sub-call, answered from the record, is still the user\'s');
    assert.equal(ofType(replayed.events, 'model.output').length, 2, 'only the root\'s turns have a (replayed) reply');
    assert.equal(ofType(replayed.events, 'replay.diverged').length, 0);
  });
});
