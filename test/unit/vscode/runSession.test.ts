// The user's cells from a run's view, host side: they run in the chat's session after the run, their
// records join the run's (after its last seq, in the next turn), the next follow-up is given them, and
// the input waits while a question uses the REPL and says so once the REPL is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunOptions } from '../../../src/core/loop/loopTypes';
import type { ReplFactory } from '../../../src/core/repl/replFactory';
import type { UserCellOptions } from '../../../src/core/loop/userCell';
import type { ReplSession } from '../../../src/core/repl/replTypes';
import type { EventRecord } from '../../../src/core/trajectory/events';
import { createBridgeRouter } from '../../../src/core/repl/replFactory';
import type { RlmEngine } from '../../../src/vscode/engine/engineTypes';
import { Conversation } from '../../../src/vscode/run/conversation';
import { RunLauncher } from '../../../src/vscode/run/runLauncher';
import { RunRegistry } from '../../../src/vscode/run/runRegistry';
import { readRlmSettings } from '../../../src/vscode/settings/rlmSettings';
import { finished, runStarted, scriptedRun } from './runFakes';
import { allLayersOn } from '../../fakes/fakeProtections';
import { SubCallCache } from '../../../src/core/models/subCallCache';

const settings = readRlmSettings((key) => ({ 'root.provider': 'openai', 'root.baseUrl': 'http://127.0.0.1:9/v1', 'root.model': 'm', cellTimeoutSeconds: 3 })[key]);

function fakeSession(): ReplSession & { closed: boolean } {
  return {
    closed: false,
    protections: allLayersOn(),
    bindContext: async () => { throw new Error('not used'); },
    execute: async () => { throw new Error('not used'); },
    interrupt: () => undefined,
    onOutput: () => () => undefined,
    async close() {
      this.closed = true;
    },
  };
}

function harness() {
  const runs: RunOptions[] = [];
  const cells: UserCellOptions[] = [];
  let release: (() => void) | undefined;
  let n = 0;
  const engine: RlmEngine = {
    createRlmRun: (o) => {
      runs.push(o);
      const id = `run${++n}`;
      return scriptedRun(id, [runStarted(id, o.question), { type: 'turn.started', runId: id, turn: 1 }, finished(id, `answer ${n}`)]);
    },
    runUserCell: async (o) => {
      cells.push(o);
      if (o.code.includes('slow')) await new Promise<void>((resolve) => (release = resolve));
      const emit = (seq: number, record: Record<string, unknown>): void => o.sink({ ...record, seq: o.lastSeq + seq, ts: 5_000 } as unknown as EventRecord);
      emit(1, { type: 'cell.started', runId: o.runId, turn: o.turn, cellId: 'cell-u1', code: o.code, author: 'user' });
      emit(2, { type: 'cell.finished', runId: o.runId, cellId: 'cell-u1', stdout: 'out\n', stderr: '', stdoutChars: 4, stderrChars: 0, newVariables: [], durationMs: 1, outIndex: 1 });
      const cell = { stdout: 'out\n', stderr: '', stdoutChars: 4, stderrChars: 0, newVariables: [], durationMs: 1, outIndex: 1 };
      return { cellId: 'cell-u1', cell, note: { code: o.code, observation: 'Output (4 chars):\nout' }, totals: { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0, iterations: 0, wallTimeMs: 1 } };
    },
    createBridgeRouter,
    createModelClient: (c) => ({ provider: c.provider, model: c.model, endpoint: '', complete: async () => { throw new Error('unused'); } }),
    createReplPool: () => { throw new Error('unused'); },
    createSubCallCache: (o) => new SubCallCache(o),
  };
  const acquired: Array<ReplSession & { closed: boolean }> = [];
  const repl: ReplFactory = {
    acquire: async () => {
      const s = fakeSession();
      acquired.push(s);
      return s;
    },
    release: async (s) => s.close(),
  };
  const launcher = new RunLauncher({ engine: async () => engine, replPool: async () => repl, registry: new RunRegistry(), apiKey: async () => undefined, openSink: () => undefined, subCallCacheDir: () => '/tmp/rlm-run-session-test', now: () => 0 });
  const conversation = new Conversation({ repl: async () => repl, createBridgeRouter: async () => createBridgeRouter() });
  const gather = async () => ({ source: { kind: 'text' as const, text: 'abc' }, target: { kind: 'file' as const, paths: ['a.txt'], totalBytes: 3, fileCount: 1, skipped: [] } });
  const ask = (question: string) => launcher.start({ contextKey: 'k', question, settings, gather, conversation });
  return { runs, cells, acquired, conversation, ask, release: () => release?.() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('a chat run\'s user cell runs in the chat\'s REPL, joins the run\'s records, and reaches the next question', async () => {
  const h = harness();
  const run = (await h.ask('first?'))!;
  const host = run.userCells!;
  assert.equal(host.state().status, 'waiting', 'the run is using the REPL');
  const seen: EventRecord[] = [];
  run.subscribe((r) => seen.push(r));
  await run.result;
  await tick();
  assert.deepEqual(host.state(), { status: 'ready' });
  const lastSeq = run.lastRecordSeq;
  await host.run('print(x)');
  const options = h.cells[0]!;
  assert.equal(options.session, h.acquired[0], 'the chat\'s session');
  assert.equal(options.runId, run.runId);
  assert.equal(options.turn, 2, 'after the run\'s turn');
  assert.equal(options.lastSeq, lastSeq);
  assert.deepEqual(options.limits, { cellTimeoutMs: 3000 }, 'the run\'s cell timeout bounds the user\'s cell');
  assert.deepEqual(seen.slice(-2).map((r) => r.type), ['cell.started', 'cell.finished'], 'the view hears of the cell');
  assert.deepEqual(seen.slice(-2).map((r) => r.seq), [lastSeq + 1, lastSeq + 2]);
  assert.ok(run.records().some((r) => r.type === 'cell.started' && r.author === 'user'));
  await h.ask('second?');
  assert.deepEqual(h.runs[1]!.userCells, [{ code: 'print(x)', observation: 'Output (4 chars):\nout' }], 'the follow-up\'s root is given the user\'s cell');
  assert.equal(await h.runs[1]!.session, h.acquired[0], 'the follow-up runs in the same REPL');
});

test('the input waits while a follow-up uses the REPL, a follow-up waits for a running user cell, and a gone REPL is said', async () => {
  const h = harness();
  const first = (await h.ask('first?'))!;
  await first.result;
  await tick();
  const host = first.userCells!;
  const slow = host.run('slow()');
  await tick();
  assert.equal(host.state().status, 'running');
  await assert.rejects(host.run('again'), /already running/);
  let secondStarted = false;
  const second = h.ask('second?').then((r) => {
    secondStarted = true;
    return r;
  });
  await tick();
  assert.equal(secondStarted, false, 'the follow-up waits for the user\'s cell');
  h.release();
  await slow;
  const run2 = (await second)!;
  assert.equal(host.state().status, 'waiting', 'a follow-up is using the REPL');
  await assert.rejects(host.run('x'), /follow-up question is using/);
  await run2.result;
  await tick();
  assert.equal(host.state().status, 'ready');
  await h.conversation.end();
  const gone = host.state();
  assert.equal(gone.status, 'gone');
  await assert.rejects(host.run('x'), /REPL has ended with its chat/);
});
