import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createByteReader } from '../../../../src/worker/byteReader';

test('frames are cut exactly across chunk boundaries, whether bytes or requests come first', async () => {
  const stream = new PassThrough();
  const reader = createByteReader(stream);
  stream.write(Buffer.from([1, 2, 3]));
  const first = reader.read(2);
  const second = reader.read(4);
  stream.write(Buffer.from([4, 5, 6, 7]));
  assert.deepEqual([...(await first)], [1, 2]);
  const b = await second;
  assert.deepEqual([...b], [3, 4, 5, 6]);
  assert.equal(b.buffer.byteLength, 4, 'each frame owns its ArrayBuffer so it can be transferred');
  assert.deepEqual([...(await reader.read(0))], []);
});

test('a frame the stream cannot complete is rejected when the stream ends', async () => {
  const stream = new PassThrough();
  const reader = createByteReader(stream);
  const pending = reader.read(10);
  stream.end(Buffer.from([1]));
  await assert.rejects(pending, /closed before all bytes arrived/);
});
