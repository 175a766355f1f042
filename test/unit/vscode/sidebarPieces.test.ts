import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBridgeRouter } from '../../../src/core/loop/rlmRun';
import type { BridgeHandler, ReplSession } from '../../../src/core/repl/replTypes';
import { RoutedReplPool } from '../../../src/vscode/engine/routedReplPool';
import { EntryFollower } from '../../../src/vscode/sidebar/entryFollower';
import { sidebarHtml } from '../../../src/vscode/sidebar/sidebarHtml';
import type { ChatEntry } from '../../../src/shared/sidebarState';
import { initialProgress } from '../../../src/vscode/run/runProgress';
import type { RunProgress } from '../../../src/vscode/run/runProgress';
import type { EventRecord } from '../../../src/core/trajectory/events';

test('the sidebar HTML has a strict CSP with a nonce on its only script, and no inline code', () => {
  const html = sidebarHtml({ cspSource: 'vscode-resource:', scriptUri: 'vscode-resource:/dist/webview/sidebar.js', codiconCssUri: 'c.css', styleUri: 's.css', nonce: 'abc123' });
  const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<script nonce="abc123" src="vscode-resource:\/dist\/webview\/sidebar\.js"><\/script>/);
  const hostile = sidebarHtml({ cspSource: 'x', scriptUri: 'a"><script>alert(1)</script>', codiconCssUri: 'c', styleUri: 's', nonce: 'n' });
  assert.equal(hostile.match(/<script/g)?.length, 1, 'a URI cannot close its attribute and add markup');
  const other = sidebarHtml({ cspSource: 'x', scriptUri: 'y', codiconCssUri: 'c', styleUri: 's' });
  assert.notEqual(/nonce-([A-Za-z0-9]+)/.exec(other)?.[1], /nonce-([A-Za-z0-9]+)/.exec(sidebarHtml({ cspSource: 'x', scriptUri: 'y', codiconCssUri: 'c', styleUri: 's' }))?.[1], 'a fresh nonce per render');
});

test('the entry follower throttles updates and sends the last state on dispose', async () => {
  const listeners = new Set<(r: EventRecord) => void>();
  const progress: RunProgress = { ...initialProgress(), turn: 1, streamingText: 'x'.repeat(5000) };
  const run = { progress, subscribe: (l: (r: EventRecord) => void) => (listeners.add(l), () => listeners.delete(l)) };
  const patches: Array<Partial<ChatEntry>> = [];
  const follower = new EntryFollower(run, (p) => patches.push(p), 20);
  const fire = (): void => listeners.forEach((l) => l({ type: 'turn.started', runId: 'r', turn: 1, seq: 1, ts: 1 }));
  for (let i = 0; i < 50; i++) fire();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(patches.length, 1, '50 events in one window give one update');
  assert.equal(patches[0]?.streamingText?.length, 1200, 'only the tail of the streamed text is sent');
  run.progress.turn = 3;
  follower.dispose();
  assert.equal(patches.at(-1)?.live?.turn, 3);
  assert.equal(listeners.size, 0);
});

function fakeSession(log: string[], name: string, bridge: BridgeHandler): ReplSession & { call: () => Promise<string[]> } {
  return {
    protections: { separateProcess: true, emptyEnvironment: true, codeGenerationFromStringsDisallowed: true, permissionModel: true, jsGlobalsRestricted: true, pyodideJsUnregistered: true, networkApisRemoved: true, notes: [] },
    bindContext: async () => { throw new Error('unused'); },
    execute: async () => { throw new Error('unused'); },
    interrupt: () => undefined,
    onOutput: () => () => undefined,
    close: async () => void log.push(`close ${name}`),
    call: () => bridge({ kind: 'llm_query', prompts: ['p'], batched: false }, new AbortController().signal),
  };
}

test('the REPL pool keeps one warm session and routes its sub-calls to whoever acquired it last', async () => {
  const log: string[] = [];
  let n = 0;
  const sessions: Array<ReturnType<typeof fakeSession>> = [];
  const pool = new RoutedReplPool({ createBridgeRouter, createSession: async (bridge) => { const s = fakeSession(log, `s${++n}`, bridge); sessions.push(s); return s; } });
  const first = await pool.acquire({ bridge: async () => ['from run 1'] });
  assert.deepEqual(await sessions[0]!.call(), ['from run 1']);
  await pool.release(first, true);
  assert.deepEqual(await sessions[0]!.call(), ['[ERROR] no run is using this REPL session']);
  const second = await pool.acquire({ bridge: async () => ['from run 2'] });
  assert.equal(second, first, 'the warm session is reused');
  assert.deepEqual(await sessions[0]!.call(), ['from run 2']);
  const third = await pool.acquire({ bridge: async () => ['from run 3'] });
  assert.notEqual(third, first);
  await pool.release(second, false);
  assert.deepEqual(log, ['close s1']);
  await pool.dispose();
  assert.deepEqual(log, ['close s1', 'close s2']);
  await assert.rejects(pool.acquire(), /shut down/);
});

test('prewarm starts one session ahead of need, and acquire() waits for it instead of starting another', async () => {
  const log: string[] = [];
  let created = 0;
  let finishStart: () => void = () => {};
  const pool = new RoutedReplPool({
    createBridgeRouter,
    createSession: async (bridge) => {
      created++;
      const name = `s${created}`;
      if (created === 1) await new Promise<void>((resolve) => (finishStart = resolve));
      return fakeSession(log, name, bridge);
    },
  });
  pool.prewarm();
  pool.prewarm();
  assert.equal(created, 1, 'a second prewarm while one is starting does nothing');
  const acquiring = pool.acquire({ bridge: async () => ['run'] });
  finishStart();
  const session = await acquiring;
  assert.equal(created, 1, 'acquire() used the prewarmed session');
  await pool.release(session, true);
  pool.prewarm();
  assert.equal(created, 1, 'prewarm is a no-op while a session is idle');
  await pool.dispose();
  assert.deepEqual(log, ['close s1']);
});

test('a failed prewarm is reported and the next acquire() starts its own session', async () => {
  let created = 0;
  const errors: unknown[] = [];
  const pool = new RoutedReplPool({
    createBridgeRouter,
    createSession: async (bridge) => {
      created++;
      if (created === 1) throw new Error('pyodide failed to load');
      return fakeSession([], `s${created}`, bridge);
    },
  });
  pool.prewarm((error) => errors.push(error));
  await pool.acquire();
  assert.equal(created, 2);
  assert.match(String(errors[0]), /pyodide failed to load/);
  await pool.dispose();
});

test('disposing the pool while a prewarm is starting closes that session too', async () => {
  const log: string[] = [];
  let finishStart: () => void = () => {};
  const pool = new RoutedReplPool({
    createBridgeRouter,
    createSession: async (bridge) => {
      await new Promise<void>((resolve) => (finishStart = resolve));
      return fakeSession(log, 's1', bridge);
    },
  });
  pool.prewarm();
  const disposing = pool.dispose();
  finishStart();
  await disposing;
  assert.deepEqual(log, ['close s1']);
});
