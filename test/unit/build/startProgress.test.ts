// What `npm start` prints while it works (scripts/startProgress.mjs), driven by a stand-in clock and
// timer: numbered steps with what they wait for, heartbeats naming the part under way, durations,
// and a failure that says which step failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProgress, formatDuration, tailLines } from '../../../scripts/startProgress.mjs';

function harness() {
  let clock = 0;
  const lines: string[] = [];
  const beats: Array<() => void> = [];
  const progress = createProgress({
    total: 3,
    write: (text) => lines.push(...text.replace(/\n$/, '').split('\n')),
    now: () => clock,
    every: (fn) => {
      beats.push(fn);
      return { stop: () => beats.splice(beats.indexOf(fn), 1) };
    },
  });
  return { progress, lines, beats, advance: (ms: number) => (clock += ms) };
}

test('durations read as a person says them', () => {
  assert.equal(formatDuration(400), '0 s');
  assert.equal(formatDuration(42_300), '42 s');
  assert.equal(formatDuration(60_000), '1 min');
  assert.equal(formatDuration(262_000), '4 min 22 s');
});

test('each step is numbered, says what it waits for and how long it usually takes, and how long it took', async () => {
  const { progress, lines, beats, advance } = harness();
  progress.skip('Dependencies', 'already installed');
  let part = 'npm install code-server';
  const result = await progress.step('Preparing code-server', async () => {
    advance(20_000);
    beats.forEach((beat) => beat());
    part = 'native node-pty';
    advance(20_000);
    beats.forEach((beat) => beat());
    advance(5_000);
    return { note: 'ready' };
  }, { expect: 'one time, usually 4 min', waiting: () => `preparing code-server (now: ${part})` });
  assert.deepEqual(result, { note: 'ready' });
  assert.deepEqual(lines, [
    '[1/3] Dependencies: already installed',
    '[2/3] Preparing code-server (one time, usually 4 min)...',
    '      still preparing code-server (now: npm install code-server): 20 s so far',
    '      still preparing code-server (now: native node-pty): 40 s so far',
    '      done in 45 s: ready',
  ]);
  assert.equal(beats.length, 0, 'the heartbeat stops with the step');
  advance(1_000);
  assert.equal(progress.elapsed(), '46 s');
});

test('a failing step says which step failed and after how long, and passes the error on', async () => {
  const { progress, lines, beats, advance } = harness();
  await assert.rejects(progress.step('Building and packaging the extension', async () => {
    advance(12_000);
    throw new Error('esbuild failed');
  }), /esbuild failed/);
  assert.deepEqual(lines, ['[1/3] Building and packaging the extension...', '      failed after 12 s']);
  assert.equal(beats.length, 0, 'no heartbeat after a failure');
});

test('a tool\'s kept-back output shows only its last lines on failure', () => {
  const output = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');
  const tail = tailLines(`${output}\n\n`, 3).split('\n');
  assert.deepEqual(tail, ['(497 earlier lines left out)', 'line 498', 'line 499', 'line 500']);
  assert.equal(tailLines('one\ntwo', 3), 'one\ntwo');
});
