import assert from 'node:assert/strict';
import { test } from 'node:test';
import { releaseNow } from '../../../src/worker/releaseBuffer';

const MB = 1024 * 1024;

test('releaseNow frees a buffer at once, without waiting for a garbage collection', async () => {
  let bytes: Uint8Array | undefined = new Uint8Array(64 * MB).fill(1);
  const before = process.memoryUsage().arrayBuffers;
  releaseNow(bytes);
  assert.equal(bytes.byteLength, 0, 'the view is detached: nothing can read the freed bytes');
  bytes = undefined;
  // Closing the channel drops its queued message on the next turns of the loop.
  for (let i = 0; i < 20 && process.memoryUsage().arrayBuffers > before - 60 * MB; i++) await new Promise((r) => setImmediate(r));
  assert.ok(process.memoryUsage().arrayBuffers <= before - 60 * MB, `array buffers ${(before / MB).toFixed(0)} MB -> ${(process.memoryUsage().arrayBuffers / MB).toFixed(0)} MB`);
});

test('releaseNow leaves shared and empty buffers alone', () => {
  const shared = new Uint8Array(new SharedArrayBuffer(16));
  releaseNow(shared);
  assert.equal(shared.byteLength, 16);
  releaseNow(undefined);
  releaseNow(new Uint8Array(0));
});
