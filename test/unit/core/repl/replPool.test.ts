import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplPool } from '../../../../src/core/repl/replPool';
import type { ReplSessionOptions } from '../../../../src/core/repl/replSession';
import type { BridgeHandler, ReplSession } from '../../../../src/core/repl/replTypes';

function fakeSession(id: number, closed: number[], resets: number[] = []): ReplSession {
  return {
    protections: {
      separateProcess: true, emptyEnvironment: true, codeGenerationFromStringsDisallowed: true, permissionModel: true,
      jsGlobalsRestricted: true, pyodideJsUnregistered: true, networkApisRemoved: true, notes: [],
    },
    bindContext: () => Promise.reject(new Error('not used')),
    execute: () => Promise.reject(new Error('not used')),
    interrupt: () => undefined,
    onOutput: () => () => undefined,
    resetNamespace: async () => {
      resets.push(id);
    },
    close: async () => {
      closed.push(id);
    },
  };
}

function pool() {
  let created = 0;
  const closed: number[] = [];
  const resets: number[] = [];
  const p = new ReplPool({ session: { bridge: async () => [] }, create: async () => fakeSession(++created, closed, resets) });
  return { p, closed, resets, created: () => created };
}

test('nothing starts until the first acquire', async () => {
  const { p, created } = pool();
  assert.equal(created(), 0);
  await p.acquire();
  assert.equal(created(), 1);
});

test('a released reusable session is reset and handed out again; a non-reusable one is closed', async () => {
  const { p, closed, resets, created } = pool();
  const a = await p.acquire();
  await p.release(a, true);
  assert.deepEqual(resets, [1], 'the namespace is reset before the session is kept');
  const again = await p.acquire();
  assert.equal(again, a);
  assert.equal(created(), 1);
  await p.release(again, false);
  assert.deepEqual(closed, [1]);
  assert.deepEqual(resets, [1]);
});

test('a session that cannot reset its namespace is closed instead of shared', async () => {
  const closed: number[] = [];
  let created = 0;
  const p = new ReplPool({
    session: { bridge: async () => [] },
    create: async () => {
      const { resetNamespace: _unused, ...withoutReset } = fakeSession(++created, closed);
      return withoutReset;
    },
  });
  const a = await p.acquire();
  await p.release(a, true);
  assert.deepEqual(closed, [1]);
  assert.notEqual(await p.acquire(), a);
  assert.equal(created, 2);
});

test('a failed reset closes the session and the next acquire starts a new one', async () => {
  const closed: number[] = [];
  let created = 0;
  const p = new ReplPool({
    session: { bridge: async () => [] },
    create: async () => ({ ...fakeSession(++created, closed), resetNamespace: () => Promise.reject(new Error('wedged')) }),
  });
  const a = await p.acquire();
  await p.release(a, true);
  assert.deepEqual(closed, [1]);
  const b = await p.acquire();
  assert.notEqual(b, a);
  assert.equal(created, 2);
});

test('only one idle session is kept; the older one is closed', async () => {
  const { p, closed } = pool();
  const a = await p.acquire();
  const b = await p.acquire();
  await p.release(a, true);
  await p.release(b, true);
  assert.deepEqual(closed, [1]);
  assert.equal(await p.acquire(), b);
});

test('prewarm starts one in the background and dispose closes everything', async () => {
  const { p, closed, created } = pool();
  p.prewarm();
  p.prewarm();
  const a = await p.acquire();
  assert.equal(created(), 1);
  p.prewarm();
  await p.dispose();
  assert.deepEqual(closed.sort(), [1, 2]);
  assert.ok(a);
  await assert.rejects(p.acquire(), /disposed/);
});

test('each acquirer gets its own bridge routed to the shared session; release falls back to the default', async () => {
  const bridges: BridgeHandler[] = [];
  const closed: number[] = [];
  const p = new ReplPool({
    session: { bridge: async (call) => call.prompts.map(() => 'default') },
    create: async (options: ReplSessionOptions) => {
      bridges.push(options.bridge);
      return fakeSession(bridges.length, closed);
    },
  });
  const call = { kind: 'llm_query' as const, prompts: ['q'], batched: false };
  const signal = new AbortController().signal;
  const a = await p.acquire({ bridge: async () => ['run A'] });
  assert.deepEqual(await bridges[0]!(call, signal), ['run A']);
  await p.release(a, true);
  assert.deepEqual(await bridges[0]!(call, signal), ['default']);
  const b = await p.acquire({ bridge: async () => ['run B'] });
  assert.equal(b, a);
  assert.deepEqual(await bridges[0]!(call, signal), ['run B']);
});

test('an acquire aborted before it starts throws and starts nothing', async () => {
  const { p, created } = pool();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(p.acquire({ signal: controller.signal }), /abort/i);
  assert.equal(created(), 0);
});

test('an acquire aborted while its session starts throws and keeps that session warm for the next one', async () => {
  const closed: number[] = [];
  const resets: number[] = [];
  let created = 0;
  const controller = new AbortController();
  const p = new ReplPool({
    session: { bridge: async () => [] },
    create: async () => {
      controller.abort(); // the caller gives up while the session is starting
      return fakeSession(++created, closed, resets);
    },
  });
  await assert.rejects(p.acquire({ signal: controller.signal }), /abort/i);
  assert.equal(p.leasedCount, 0);
  const next = await p.acquire();
  assert.equal(created, 1, 'the session started for the aborted acquire is the one handed out next');
  assert.deepEqual(resets, [1], 'its namespace was reset before it was kept');
  assert.deepEqual(closed, []);
  assert.ok(next);
});
