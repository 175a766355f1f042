import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trimTrailingZeros } from '../../../src/worker/snapshotTrim';

test('the zero tail of a snapshot is dropped, and what is kept is byte for byte the same', () => {
  const snapshot = new Uint8Array(1 << 20);
  snapshot.fill(9, 0, 128);
  snapshot[300_001] = 5;
  const trimmed = trimTrailingZeros(snapshot);
  assert.equal(trimmed.byteLength, 300_004, 'ends at the last non-zero byte, rounded up to a 32-bit word');
  assert.deepEqual(trimmed, snapshot.subarray(0, 300_004));
  assert.notEqual(trimmed.buffer, snapshot.buffer, 'a copy: posting it does not carry the whole heap along');
});

test('a snapshot without a zero tail is returned as it is', () => {
  const snapshot = new Uint8Array(4096).fill(1);
  assert.equal(trimTrailingZeros(snapshot), snapshot);
});

test("Pyodide's header is never cut, even when everything after it is zero", () => {
  const snapshot = new Uint8Array(4096);
  snapshot[0] = 1;
  assert.equal(trimTrailingZeros(snapshot).byteLength, 64);
});

test('a view at an odd offset or of an odd length is trimmed too', () => {
  const buffer = new Uint8Array(1003);
  buffer[1] = 1;
  buffer[700] = 2;
  const trimmed = trimTrailingZeros(buffer.subarray(1));
  assert.equal(trimmed.byteLength, 700);
  assert.equal(trimmed[699], 2);
});
