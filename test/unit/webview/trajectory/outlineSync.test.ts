// The outline of a file still being read stays whole: updates naming turns past what the page holds
// are fetched in order, never placed at the wrong index.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TurnSummary } from '../../../../src/shared/trajectoryProtocol';
import { OutlineSync } from '../../../../webview/trajectory/outlineSync';

const summary = (index: number): TurnSummary => ({ index, turn: index + 1, label: `t${index}`, cells: 1, subCalls: 0, errors: 0, final: false, costUsd: null, startedAt: index }) as unknown as TurnSummary;
const range = (from: number, to: number): TurnSummary[] => Array.from({ length: to - from }, (_, i) => summary(from + i));

function harness(hostTurns: () => number, chunk = 10) {
  const page: TurnSummary[] = [];
  const sink = {
    get length() {
      return page.length;
    },
    set(from: number, summaries: TurnSummary[]) {
      page.length = Math.min(page.length, from);
      page.push(...summaries);
    },
  };
  let release: (() => void) | undefined;
  const fetches: number[] = [];
  const sync = new OutlineSync(sink, async (from) => {
    fetches.push(from);
    // The answer waits until the test lets it go, so updates can arrive meanwhile.
    await new Promise<void>((resolve) => (release = resolve));
    return { from, outline: range(from, Math.min(hostTurns(), from + chunk)) };
  });
  const step = async (): Promise<void> => {
    while (!release) await Promise.resolve();
    const r = release;
    release = undefined;
    r();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { page, sync, fetches, step };
}

test('updates past the end of a half-fetched outline are fetched in order, and the outline ends whole', async () => {
  let host = 30;
  const h = harness(() => host);
  const done = h.sync.reset(range(0, 5), 30);
  await h.step(); // 5..14
  host = 50;
  // The file goes on being read: the host names turns 45..49, beyond what the page holds.
  await h.sync.update(45, range(45, 50));
  assert.equal(h.page.length, 15, 'no turn placed at the wrong index');
  await h.step(); // 15..24
  await h.step(); // 25..34
  await h.step(); // 35..44
  await h.step(); // 45..49
  await done;
  assert.deepEqual(h.page.map((s) => s.index), range(0, 50).map((s) => s.index));
  assert.deepEqual(h.fetches, [5, 15, 25, 35, 45]);
});

test('an update that continues the outline is applied at once, without a fetch', async () => {
  const h = harness(() => 8);
  await h.sync.reset(range(0, 5), 5);
  await h.sync.update(3, range(3, 8));
  assert.deepEqual(h.page.map((s) => s.index), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(h.fetches, []);
});
