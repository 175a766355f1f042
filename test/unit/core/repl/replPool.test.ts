// The pool that hands runs their REPL sessions: one never-used session per acquire, a spare started ahead
// of need, every released session killed, and each session's sub-calls routed to whoever holds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBridgeRouter } from '../../../../src/core/repl/replFactory';
import { ReplPool } from '../../../../src/core/repl/replPool';
import type { BridgeHandler, ReplSession } from '../../../../src/core/repl/replTypes';
import { allLayersOn } from '../../../fakes/fakeProtections';

type FakeSession = ReplSession & { name: string; call(): Promise<string[]> };

function fakeSession(log: string[], name: string, bridge: BridgeHandler): FakeSession {
  return {
    name,
    protections: allLayersOn(),
    bindContext: async () => {
      throw new Error('unused');
    },
    execute: async () => {
      throw new Error('unused');
    },
    interrupt: () => undefined,
    onOutput: () => () => undefined,
    close: async () => void log.push(`close ${name}`),
    call: () => bridge({ kind: 'llm_query', prompts: ['p'], batched: false }, new AbortController().signal),
  };
}

function pool(options: { spares?: number; refillAfterFirst?: boolean; gate?: (n: number, stop: AbortSignal) => Promise<void>; fail?: (n: number) => boolean } = {}) {
  const log: string[] = [];
  const sessions: FakeSession[] = [];
  let created = 0;
  const p = new ReplPool({
    createBridgeRouter,
    ...(options.spares !== undefined ? { spares: options.spares } : {}),
    ...(options.refillAfterFirst ? { refillAfterFirst: true } : {}),
    create: async (bridge, stop) => {
      const n = ++created;
      await options.gate?.(n, stop);
      if (options.fail?.(n)) throw new Error(`start ${n} failed`);
      const s = fakeSession(log, `s${n}`, bridge);
      sessions.push(s);
      return s;
    },
  });
  return { p, log, sessions, created: () => created };
}

test('nothing starts until the first acquire or prewarm', async () => {
  const { p, created } = pool();
  assert.equal(created(), 0);
  await p.acquire();
  assert.ok(created() >= 1);
  await p.dispose();
});

test('every acquire hands out a session no run has had, and release kills it instead of keeping it', async () => {
  const { p, log } = pool();
  const first = (await p.acquire()) as FakeSession;
  await p.release(first);
  assert.deepEqual(log, [`close ${first.name}`]);
  const second = (await p.acquire()) as FakeSession;
  assert.notEqual(second, first);
  assert.notEqual(second.name, first.name);
  await p.release(second);
  await p.dispose();
});

test('a spare is started as soon as one is taken, so the next acquire does not wait for a start', async () => {
  const { p, created } = pool({ spares: 1 });
  p.prewarm();
  assert.equal(created(), 1);
  assert.equal(p.spareCount, 1);
  const a = await p.acquire();
  assert.equal(created(), 2, 'taking the spare started its replacement');
  assert.equal(p.spareCount, 1);
  const b = await p.acquire();
  assert.notEqual(a, b);
  assert.equal(p.leasedCount, 2);
  await p.dispose();
});

test('an acquire while the spare is still starting waits for it instead of starting another', async () => {
  let finish: () => void = () => {};
  const { p, created } = pool({ spares: 1, gate: (n) => (n === 1 ? new Promise<void>((resolve) => (finish = resolve)) : Promise.resolve()) });
  p.prewarm();
  p.prewarm();
  assert.equal(created(), 1, 'a second prewarm while the spare starts does nothing');
  const acquiring = p.acquire();
  finish();
  const session = (await acquiring) as FakeSession;
  assert.equal(session.name, 's1', 'acquire() took the spare that was starting');
  await p.dispose();
});

test("each session's sub-calls reach the run that holds it, and none after release", async () => {
  const { p, sessions } = pool({ spares: 0 });
  const first = await p.acquire({ bridge: async () => ['from run 1'] });
  const second = await p.acquire({ bridge: async () => ['from run 2'] });
  assert.deepEqual(await sessions[0]!.call(), ['from run 1']);
  assert.deepEqual(await sessions[1]!.call(), ['from run 2']);
  assert.ok(p.routerOf(first));
  await p.release(first);
  assert.deepEqual(await sessions[0]!.call(), ['[ERROR] no run is using this REPL session']);
  assert.equal(p.routerOf(first), undefined);
  await p.release(second);
  await p.dispose();
});

test('a spare that failed to start is reported, and the next acquire starts its own', async () => {
  const errors: unknown[] = [];
  const { p, created } = pool({ spares: 1, fail: (n) => n === 1 });
  p.prewarm((error) => errors.push(error));
  const session = await p.acquire();
  assert.ok(session);
  assert.equal(created() >= 2, true);
  assert.match(String(errors[0]), /start 1 failed/);
  await p.dispose();
});

test('an aborted acquire closes the session it got and throws the abort', async () => {
  const { p, log } = pool({ spares: 0 });
  const controller = new AbortController();
  let finish: () => void = () => {};
  const gated = new ReplPool({
    createBridgeRouter,
    spares: 0,
    create: async (bridge) => {
      await new Promise<void>((resolve) => (finish = resolve));
      return fakeSession(log, 'late', bridge);
    },
  });
  const acquiring = gated.acquire({ signal: controller.signal });
  controller.abort(new Error('stopped'));
  finish();
  await assert.rejects(acquiring, /stopped/);
  assert.deepEqual(log, ['close late']);
  await gated.dispose();
  await p.dispose();
});

test('dispose closes leased sessions and spares, even one still starting, and refuses new acquires', async () => {
  let finish: () => void = () => {};
  const { p, log } = pool({ spares: 1, gate: (n) => (n === 2 ? new Promise<void>((resolve) => (finish = resolve)) : Promise.resolve()) });
  const leased = (await p.acquire()) as FakeSession;
  const disposing = p.dispose();
  finish();
  await disposing;
  assert.ok(log.includes(`close ${leased.name}`));
  assert.ok(log.includes('close s2'), 'the spare that was starting is closed once it has started');
  await assert.rejects(p.acquire(), /shut down/);
});

test('refillAfterFirst: one run keeps no idle process beside it; a second acquire (a child run) brings the spare back', async () => {
  const { p, created } = pool({ refillAfterFirst: true });
  p.prewarm();
  assert.equal(created(), 1);
  await p.acquire();
  await p.sparesReady();
  assert.equal(created(), 1, 'no spare started beside the first run');
  await p.acquire();
  await p.sparesReady();
  assert.equal(created(), 3, 'the child run started its own, and a spare now waits for the next');
  assert.equal(p.spareCount, 1);
  await p.dispose();
});

test('dispose abandons a spare still starting instead of waiting for it', async () => {
  let abandoned = false;
  const { p } = pool({
    gate: (_n, stop) =>
      new Promise<void>((_resolve, reject) => {
        // A start that would take forever unless abandoned.
        stop.addEventListener('abort', () => {
          abandoned = true;
          reject(new Error('abandoned'));
        });
      }),
  });
  p.prewarm();
  // The start never settles unless told to stop, so dispose() returning at all shows it did not wait for it.
  await p.dispose();
  assert.ok(abandoned, 'the start was told to stop');
});
