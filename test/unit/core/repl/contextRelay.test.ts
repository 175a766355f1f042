// The REPL process's relay of `context` from the pipe to the worker: it hands on pieces of at most 1 MB
// as they fill, holds data that came before its bind message, and pauses the pipe while the worker is
// more than a few MB behind, so the process never holds the input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { relayContext } from '../../../../src/worker/contextRelay';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Wires a stream's data into the relay as the REPL process wires its socket's reads. */
function relayFrom(pipe: PassThrough, forward: (b: ArrayBuffer, length: number) => void): ReturnType<typeof relayContext> {
  const relay = relayContext(pipe, forward);
  pipe.on('data', (chunk: Buffer) => relay.take(chunk));
  return relay;
}

test('data before the bind message waits for it; pieces are at most 1 MB and nothing is lost', async () => {
  const pipe = new PassThrough();
  const pieces: Uint8Array[] = [];
  const relay = relayFrom(pipe, (b, length) => pieces.push(new Uint8Array(b, 0, length)));
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
  const pieces: Uint8Array[] = [];
  const relay = relayFrom(pipe, (b, length) => pieces.push(new Uint8Array(b, 0, length)));
  relay.begin();
  for (let i = 0; i < 12; i++) pipe.write(Buffer.alloc(1024 * 1024, i));
  await tick();
  await tick();
  assert.equal(pipe.isPaused(), true, 'paused past the high-water mark');
  const bytes = (list: Uint8Array[]): number => list.reduce((n, p) => n + p.byteLength, 0);
  const early = bytes(pieces);
  assert.ok(early < 4 * 1024 * 1024, `${early} bytes went to the worker before it answered`);
  let total = 0;
  for (let round = 0; round < 100 && total < 12 * 1024 * 1024; round++) {
    const taken = pieces.splice(0);
    total += bytes(taken);
    for (const piece of taken) relay.acknowledged(piece.buffer as ArrayBuffer);
    await tick();
  }
  assert.equal(total, 12 * 1024 * 1024, 'the rest followed as the worker caught up');
});

test('a pipe that trickles (each flush a nearly empty piece) is paused after a few pieces, so idle 256 KB pieces do not pile up', async () => {
  const pipe = new PassThrough();
  const pieces: Uint8Array[] = [];
  const relay = relayFrom(pipe, (b, length) => pieces.push(new Uint8Array(b, 0, length)));
  relay.begin();
  // 4 KB at a time with a turn of the event loop between: every flush hands over a piece with 4 KB in it.
  for (let i = 0; i < 40 && !pipe.isPaused(); i++) {
    pipe.write(Buffer.alloc(4096, i));
    await tick();
    await tick();
  }
  assert.equal(pipe.isPaused(), true, 'paused while the worker holds its pieces');
  assert.ok(pieces.length <= 8, `${pieces.length} pieces (each a 256 KB buffer) waited for the worker at once`);
  const held = new Set(pieces.map((p) => p.buffer)).size;
  assert.equal(held, pieces.length, 'each waiting piece is its own buffer');
  for (const piece of pieces.splice(0)) relay.acknowledged(piece.buffer as ArrayBuffer);
  await tick();
  assert.equal(pipe.isPaused(), false, 'resumed once the worker handed its pieces back');
});
