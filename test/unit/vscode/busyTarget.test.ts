// A second question on a running target: the person queues it or stops the running one, and when
// the running one ends while they are still choosing, the choice closes and the question goes ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActiveRun } from '../../../src/vscode/run/activeRun';
import { waitForTurn, whenFree } from '../../../src/vscode/run/busyTarget';
import type { BusyAnswer } from '../../../src/vscode/run/busyTarget';
import { RunRegistry } from '../../../src/vscode/run/runRegistry';

function fakeRun(question: string): { run: ActiveRun; end(): void; stops: number } {
  let end = (): void => {};
  const result = new Promise<void>((resolve) => {
    end = resolve;
  });
  const state = {
    stops: 0,
    end: () => end(),
    run: { question, result, stop: () => { state.stops += 1; end(); } } as unknown as ActiveRun,
  };
  return state;
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

test('a free target goes ahead without asking', async () => {
  const registry = new RunRegistry();
  let asked = 0;
  assert.equal(await waitForTurn({ registry, contextKey: 'file:a', choose: async () => { asked += 1; return 'queue'; } }), true);
  assert.equal(asked, 0);
});

test('queued: the question waits for the running one to end, naming it', async () => {
  const registry = new RunRegistry();
  const first = fakeRun('What is slow?');
  registry.track('file:a', first.run);
  let named = '';
  const waiting: string[] = [];
  const turn = waitForTurn({ registry, contextKey: 'file:a', choose: async (running) => { named = running; return 'queue'; }, onWaiting: (a) => waiting.push(a) });
  let done = false;
  void turn.then(() => { done = true; });
  await tick();
  assert.equal(named, 'What is slow?');
  assert.deepEqual(waiting, ['queue']);
  assert.equal(done, false, 'still waiting while the first runs');
  first.end();
  assert.equal(await turn, true);
  assert.equal(first.stops, 0);
});

test('stop: the running question is stopped, then this one goes ahead', async () => {
  const registry = new RunRegistry();
  const first = fakeRun('old');
  registry.track('workspace', first.run);
  assert.equal(await waitForTurn({ registry, contextKey: 'workspace', choose: async () => 'stop' }), true);
  assert.equal(first.stops, 1);
});

test('declined: nothing starts; another target is never blocked', async () => {
  const registry = new RunRegistry();
  registry.track('file:a', fakeRun('x').run);
  assert.equal(await waitForTurn({ registry, contextKey: 'file:a', choose: async () => undefined }), false);
  assert.equal(await waitForTurn({ registry, contextKey: 'file:b', choose: async () => 'stop' }), true);
});

test('when the running question ends while the choice is open, the choice closes and this one goes ahead', async () => {
  const registry = new RunRegistry();
  const first = fakeRun('x');
  registry.track('file:a', first.run);
  let closedByFreeing = false;
  const choose = (_q: string, freed: AbortSignal): Promise<BusyAnswer> =>
    new Promise((resolve) => freed.addEventListener('abort', () => { closedByFreeing = true; resolve(undefined); }));
  const turn = waitForTurn({ registry, contextKey: 'file:a', choose });
  await tick();
  first.end();
  assert.equal(await turn, true);
  assert.equal(closedByFreeing, true);
});

test('giving up a queued question stops the wait', async () => {
  const registry = new RunRegistry();
  registry.track('file:a', fakeRun('x').run);
  const cancel = new AbortController();
  const turn = waitForTurn({ registry, contextKey: 'file:a', choose: async () => 'queue', signal: cancel.signal });
  await tick();
  cancel.abort();
  assert.equal(await turn, false);
  assert.equal(await whenFree(registry, 'file:a', AbortSignal.abort()), false);
});

test('a run whose answer is out (only its coverage is being recorded) is waited for without asking', async () => {
  const registry = new RunRegistry();
  const first = fakeRun('What is slow?');
  Object.assign(first.run, { answerShown: true });
  registry.track('file:a', first.run);
  let asked = 0;
  let done = false;
  const turn = waitForTurn({ registry, contextKey: 'file:a', choose: async () => { asked += 1; return 'queue'; } });
  void turn.then(() => { done = true; });
  await tick();
  assert.equal(done, false, 'still waits for the run to end');
  first.end();
  assert.equal(await turn, true);
  assert.equal(asked, 0, 'the person was not asked to queue or stop an answered run');
});
