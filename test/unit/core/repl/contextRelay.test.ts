// The REPL process's relay of `context` from the pipe to the worker: it hands on pieces of at most 1 MB
// as they fill, holds data that came before its bind message, and pauses the pipe while the worker is
// more than a few MB behind, so the process never holds the input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { relayContext } from '../../../../src/worker/contextRelay';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('data before the bind message waits for it; pieces are at most 1 MB and nothing is lost', async () => {
  const pipe = new PassThrough();
  const pieces: ArrayBuffer[] = [];
  const relay = relayContext(pipe, (b) => pieces.push(b));
  pipe.write(Buffer.alloc(300_000, 1));
  await tick();
  assert.equal(pieces.length, 0, 'held until the bind begins');
  relay.begin();
  pipe.write(Buffer.alloc(2_000_000, 2));
  await tick();
  await tick();
  assert.ok(pieces.every((p) => p.byteLength <= 1024 * 1024));
  assert.equal(pieces.reduce((n, p) => n + p.byteLength, 0), 2_300_000);
  const all = Buffer.concat(pieces.map((p) => Buffer.from(p)));
  assert.equal(all[0], 1);
  assert.equal(all[2_299_999], 2);
});

test('the pipe is paused while the worker is behind, and resumed when it catches up', async () => {
  const pipe = new PassThrough({ highWaterMark: 64 * 1024 });
  const pieces: ArrayBuffer[] = [];
  const relay = relayContext(pipe, (b) => pieces.push(b));
  relay.begin();
  for (let i = 0; i < 12; i++) pipe.write(Buffer.alloc(1024 * 1024, i));
  await tick();
  await tick();
  assert.equal(pipe.isPaused(), true, 'paused past the high-water mark');
  const before = pieces.length;
  assert.ok(before < 12, `only ${before} pieces went to the worker before it answered`);
  for (const piece of pieces.splice(0)) relay.acknowledged(piece.byteLength);
  assert.equal(pipe.isPaused(), false);
  for (let i = 0; i < 5; i++) await tick();
  assert.equal(before + pieces.length, 12, 'the rest followed');
});
