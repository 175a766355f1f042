import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunOptions } from '../../../src/core/loop/loopTypes';
import type { ReplFactory } from '../../../src/core/repl/replFactory';
import type { ModelConfig } from '../../../src/core/models/modelTypes';
import { NO_CHARGE } from '../../../src/core/models/pricing';
import type { ReplSession } from '../../../src/core/repl/replTypes';
import { createBridgeRouter } from '../../../src/core/repl/replFactory';
import type { RlmEngine } from '../../../src/vscode/engine/engineTypes';
import { MissingApiKeyError, NoModelConfiguredError, RunBusyError } from '../../../src/vscode/errors/extensionErrors';
import { Conversation } from '../../../src/vscode/run/conversation';
import { RunLauncher } from '../../../src/vscode/run/runLauncher';
import type { VscodeModelFactory } from '../../../src/vscode/run/runLauncher';
import type { RequestGate } from '../../../src/vscode/models/requestGate';
import { LanguageModelClient, resolveLanguageModel } from '../../../src/vscode/models/languageModelClient';
import { FakeChatModel, FakeLm } from '../../fakes/fakeLanguageModels';
import { RunRegistry } from '../../../src/vscode/run/runRegistry';
import { readRlmSettings } from '../../../src/vscode/settings/rlmSettings';
import type { RlmSettings } from '../../../src/vscode/settings/rlmSettings';
import { finished, runStarted, scriptedRun } from './runFakes';
import { allLayersOn } from '../../fakes/fakeProtections';
import { SubCallCache } from '../../../src/core/models/subCallCache';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function settings(values: Record<string, unknown> = {}): RlmSettings {
  return readRlmSettings((key) => ({ 'root.provider': 'openai', 'root.baseUrl': 'http://127.0.0.1:9/v1', 'root.model': 'm', ...values })[key]);
}

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

const cacheDir = join(mkdtempSync(join(tmpdir(), 'rlm-launcher-')), 'subcalls');

function harness(options: { hang?: boolean; vscodeModel?: VscodeModelFactory } = {}) {
  const runs: RunOptions[] = [];
  const clients: ModelConfig[] = [];
  let n = 0;
  const engine: RlmEngine = {
    createRlmRun: (o) => {
      runs.push(o);
      const id = `run${++n}`;
      return scriptedRun(id, [runStarted(id, o.question), ...(options.hang ? [] : [finished(id, `answer ${n}`)])], { hang: options.hang ?? false, ...(o.signal ? { signal: o.signal } : {}) });
    },
    createBridgeRouter,
    runUserCell: async () => {
      throw new Error('unused');
    },
    createModelClient: (c) => {
      clients.push(c);
      return { provider: c.provider, model: c.model, endpoint: c.baseUrl ?? '', complete: async () => { throw new Error('unused'); } };
    },
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
    release: async (s) => {
      await s.close();
    },
  };
  const registry = new RunRegistry();
  const keys = new Map<string, string>();
  const launcher = new RunLauncher({
    engine: async () => engine,
    replPool: async () => repl,
    registry,
    apiKey: async (s) => keys.get(`${s.provider}|${s.baseUrl}`),
    openSink: () => undefined,
    subCallCacheDir: () => cacheDir,
    now: () => 0,
    ...(options.vscodeModel ? { vscodeModel: options.vscodeModel } : {}),
  });
  const gather = async () => ({ source: { kind: 'text' as const, text: 'abc' }, target: { kind: 'file' as const, paths: ['a.txt'], totalBytes: 3, fileCount: 1, skipped: [] } });
  return { launcher, registry, runs, clients, keys, gather, repl, acquired, engine };
}

test('no model configured is a typed error before anything else happens', async () => {
  const h = harness();
  await assert.rejects(h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({ 'root.model': '' }), gather: h.gather }), NoModelConfiguredError);
  assert.equal(h.registry.isBusy('k'), false);
});

test('a hosted endpoint without a key is refused, and the target is released', async () => {
  const h = harness();
  await assert.rejects(h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({ 'root.baseUrl': '' }), gather: h.gather }), MissingApiKeyError);
  assert.equal(h.registry.isBusy('k'), false);
  h.keys.set('openai|', 'sk-test');
  const run = await h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({ 'root.baseUrl': '' }), gather: h.gather });
  assert.ok(run);
  assert.equal(h.clients[0]?.apiKey, 'sk-test');
});

test('a run gets the question, the gathered context, the settings limits and a separate sub model', async () => {
  const h = harness({ hang: true });
  const s = settings({ 'sub.model': 'small', maxIterations: 7, maxCostUsd: 0.5, cellTimeoutSeconds: 2, modelStallTimeoutSeconds: 5, maxResponseMb: 2, modelResponseTimeoutSeconds: 120 });
  const gathered = await h.gather();
  const run = await h.launcher.start({ contextKey: 'k', question: 'what?', settings: s, gather: async () => gathered });
  const options = h.runs[0];
  assert.ok(run && options, 'the loop was started');
  assert.equal(options.question, 'what?');
  assert.equal(options.context, gathered.source, 'the gathered source is bound as it is, not re-read');
  assert.equal(options.target, gathered.target);
  assert.deepEqual(options.limits, { maxIterations: 7, maxCostUsd: 0.5, cellTimeoutMs: 2000 });
  const rootSession = await options.repl.acquire();
  assert.equal(h.acquired[0], rootSession, "the loop's REPLs come from the pool");
  // The sub model keeps the root's endpoint (its fields were empty) and both get the response limits;
  // a server on this machine is priced as no charge.
  const responseLimits = { stallTimeoutMs: 5000, maxResponseBytes: 2 * 1024 * 1024, responseTimeoutMs: 120_000 };
  assert.deepEqual(h.clients, [
    { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', ...responseLimits, pricing: NO_CHARGE },
    { provider: 'openai', model: 'small', baseUrl: 'http://127.0.0.1:9/v1', ...responseLimits, pricing: NO_CHARGE },
  ]);
  assert.deepEqual([options.root.model, options.sub?.model], ['m', 'small'], 'each client goes to its role');
  assert.equal(options.signal?.aborted, false);
  run.stop();
  assert.equal(options.signal?.aborted, true, "Stop aborts the loop's signal");
  await run.result;
});

test('one run at a time per context: a second request is refused with RunBusyError until the first ends', async () => {
  const h = harness({ hang: true });
  const first = await h.launcher.start({ contextKey: 'k', question: 'first', settings: settings(), gather: h.gather });
  await assert.rejects(h.launcher.start({ contextKey: 'k', question: 'second', settings: settings(), gather: h.gather }), (e: unknown) => e instanceof RunBusyError && e.runningQuestion === 'first');
  const other = await h.launcher.start({ contextKey: 'other', question: 'elsewhere', settings: settings(), gather: h.gather });
  first?.stop();
  other?.stop();
  await first?.result;
  await other?.result;
  await new Promise((r) => setImmediate(r));
  assert.equal(h.registry.isBusy('k'), false);
});

test('declining at the confirmation starts nothing and frees the target', async () => {
  const h = harness();
  const run = await h.launcher.start({ contextKey: 'k', question: 'q', settings: settings(), gather: async () => undefined });
  assert.equal(run, undefined);
  assert.equal(h.runs.length, 0);
  assert.equal(h.registry.isBusy('k'), false);
});

test('follow-ups in a conversation reuse the warm session and pass earlier turns', async () => {
  const h = harness();
  const conversation = new Conversation({ repl: async () => h.repl, createBridgeRouter: async () => createBridgeRouter() });
  const first = await h.launcher.start({ contextKey: 'k', question: 'one', settings: settings(), gather: h.gather, conversation });
  await first?.result;
  await new Promise((r) => setImmediate(r));
  const second = await h.launcher.start({ contextKey: 'k', question: 'two', settings: settings(), gather: h.gather, conversation });
  await second?.result;
  assert.equal(h.acquired.length, 1, 'one REPL for the whole conversation');
  assert.equal(h.runs[0]?.session, h.runs[1]?.session);
  assert.ok(h.runs[1]?.sessionBridge);
  assert.deepEqual(h.runs[0]?.priorTurns, []);
  assert.deepEqual(h.runs[1]?.priorTurns, [{ question: 'one', answer: 'answer 1' }]);
  await new Promise((r) => setImmediate(r));
  await h.launcher.start({ contextKey: 'other', question: 'three', settings: settings(), gather: h.gather, conversation });
  assert.equal(h.acquired.length, 2, 'a different target gets a fresh REPL');
  assert.equal(h.acquired[0]?.closed, true, 'the old one is closed');
  await conversation.end();
  assert.equal(h.acquired[1]?.closed, true);
});

function lmHarness() {
  const lm = new FakeLm([new FakeChatModel('copilot-gpt-4o', 'gpt-4o', () => ({ fragments: ['ok'] }), 'copilot'), new FakeChatModel('copilot-mini', 'gpt-4o-mini', () => ({ fragments: ['ok'] }), 'copilot')]);
  const gates: number[] = [];
  const vscodeModel: VscodeModelFactory = async (model, gate) => {
    gates.push(gate.limit);
    return new LanguageModelClient({ chat: await resolveLanguageModel(lm, model), createCancellation: () => lm.createCancellation(), gate });
  };
  return { lm, gates, h: harness({ vscodeModel }) };
}

test('a "vscode" root and sub need no key, resolve through the Language Model API, and share one gate', async () => {
  const { h, gates } = lmHarness();
  const s = settings({ 'root.provider': 'vscode', 'root.baseUrl': 'http://left-over', 'root.model': 'gpt-4o', 'sub.model': 'gpt-4o-mini', vscodeModelConcurrency: 3 });
  const active = await h.launcher.start({ contextKey: 'k', question: 'q', settings: s, gather: h.gather });
  assert.ok(active);
  await active.result;
  const run = h.runs[0];
  assert.equal(run?.root.provider, 'vscode');
  assert.equal(run?.root.model, 'copilot-gpt-4o');
  assert.equal(run?.sub?.model, 'copilot-mini');
  assert.equal(h.clients.length, 0, 'no HTTP client is built');
  assert.deepEqual(gates, [3, 3]);
  assert.equal(run?.limits?.subCallConcurrency, 3, 'the prompt tells the model how many batch prompts run at once');
});

test('a "vscode" model that VS Code does not offer fails before gathering, listing what it does offer', async () => {
  const { h } = lmHarness();
  let gathered = false;
  const gather = async () => {
    gathered = true;
    return h.gather();
  };
  await assert.rejects(h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({ 'root.provider': 'vscode', 'root.model': 'gpt-5' }), gather }), /no model with id or family "gpt-5".*copilot-gpt-4o/);
  assert.equal(gathered, false);
  assert.equal(h.registry.isBusy('k'), false);
});

test('with no model configured, the fallback root (the model picked in the chat) runs; a configured root wins over it', async () => {
  const { h, lm } = lmHarness();
  const chat = lm.models[1];
  assert.ok(chat);
  const fallbackRoot = (gate: RequestGate) => new LanguageModelClient({ chat, createCancellation: () => lm.createCancellation(), gate });
  const unconfigured = await h.launcher.start({ contextKey: 'a', question: 'q', settings: settings({ 'root.model': '' }), gather: h.gather, fallbackRoot });
  await unconfigured?.result;
  assert.equal(h.runs[0]?.root.model, 'copilot-mini');
  assert.equal(h.runs[0]?.sub, undefined, 'the sub model is the root');
  const configured = await h.launcher.start({ contextKey: 'b', question: 'q', settings: settings(), gather: h.gather, fallbackRoot });
  await configured?.result;
  assert.equal(h.runs[1]?.root.model, 'm');
});

test('the sub-call cache: this workspace\'s folder by default, refreshed on Ask again without cache, absent when turned off', async () => {
  const h = harness();
  await (await h.launcher.start({ contextKey: 'a', question: 'q', settings: settings({ subCallCacheMaxMb: 3 }), gather: h.gather }))?.result;
  await (await h.launcher.start({ contextKey: 'b', question: 'q', settings: settings(), gather: h.gather, cache: 'refresh' }))?.result;
  await (await h.launcher.start({ contextKey: 'c', question: 'q', settings: settings({ subCallCache: false }), gather: h.gather, cache: 'refresh' }))?.result;
  assert.equal(h.runs[0]?.subCallCache?.mode, 'use');
  assert.equal(h.runs[0]?.subCallCache?.cache.dir, cacheDir);
  assert.equal(h.runs[1]?.subCallCache?.mode, 'refresh');
  assert.equal(h.runs[2]?.subCallCache, undefined, 'rlm.subCallCache: false sends every sub-call and stores nothing');
  assert.throws(() => settings({ subCallCacheMaxMb: 0 }), /subCallCacheMaxMb/);
});

test('a run outside a chat keeps its REPL after it for the user\'s cells, until its last view lets go', async () => {
  const h = harness();
  const run = await h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({}), gather: h.gather });
  assert.ok(run?.userCells);
  const hold = run.userCells.retain();
  const options = h.runs[0]!;
  const rootSession = await options.repl.acquire();
  const childSession = await options.repl.acquire();
  await options.repl.release(childSession);
  assert.equal(h.acquired[1]?.closed, true, 'a child run\'s REPL is released as usual');
  await options.repl.release(rootSession);
  assert.equal(h.acquired[0]?.closed, false, 'the root\'s REPL is kept after the run releases it');
  await run.result;
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(run.userCells.state(), { status: 'ready' });
  hold();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(h.acquired[0]?.closed, true, 'closing the last view ends the REPL');
  assert.equal(run.userCells.state().status, 'gone');
});

test('a run that nobody views releases its kept REPL when it ends', async () => {
  const h = harness();
  const run = await h.launcher.start({ contextKey: 'k', question: 'q', settings: settings({}), gather: h.gather });
  const rootSession = await h.runs[0]!.repl.acquire();
  await h.runs[0]!.repl.release(rootSession);
  await run!.result;
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(h.acquired[0]?.closed, true);
});

test("a record's provider batches (Continue… / Fork…) reach the run even with rlm.subCallBatch off; without them, off sends no batch options", async () => {
  const h = harness();
  const recorded = [{ provider: 'openai' as const, endpoint: 'http://127.0.0.1:9/v1', model: 'm', providerBatchId: 'batch_1', items: new Map([['0'.repeat(32), 'q0-abc']]) }];
  await (await h.launcher.start({ contextKey: 'k1', question: 'q', settings: settings(), gather: h.gather, recordedBatches: recorded }))?.result;
  assert.deepEqual(h.runs[0]?.batch, { mode: 'off', minPrompts: 20, recorded });
  await (await h.launcher.start({ contextKey: 'k2', question: 'q', settings: settings({ subCallBatch: 'auto', subCallBatchMin: 5 }), gather: h.gather, recordedBatches: recorded }))?.result;
  assert.deepEqual(h.runs[1]?.batch, { mode: 'auto', minPrompts: 5, recorded });
  await (await h.launcher.start({ contextKey: 'k3', question: 'q', settings: settings(), gather: h.gather }))?.result;
  assert.equal(h.runs[2]?.batch, undefined);
});
