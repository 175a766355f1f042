import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TypeLayoutMismatch, withTypesMutable } from '../../../src/worker/typeFlags';
import type { TypeRecord } from '../../../src/worker/typeFlags';

const IMMUTABLE = 1 << 8;

/** A fake heap holding two "types" at 1024 and 2048: tp_flags at +84, tp_base at +128. */
function heap(): { HEAPU32: Uint32Array } {
  const HEAPU32 = new Uint32Array(1024);
  HEAPU32[(1024 + 84) >> 2] = 0x5000 | IMMUTABLE;
  HEAPU32[(1024 + 128) >> 2] = 512;
  HEAPU32[(2048 + 84) >> 2] = 0x5000; // a Python class: mutable until the edit ends
  HEAPU32[(2048 + 128) >> 2] = 1024;
  return { HEAPU32 };
}

describe('withTypesMutable', () => {
  it('lifts the immutable flag for the edit only, and leaves every type immutable after it, even when the edit throws', () => {
    const h = heap();
    const records: TypeRecord[] = [[1024, 0x5000 | IMMUTABLE, 512], [2048, 0x5000, 1024]];
    const during = withTypesMutable(h, records, () => [h.HEAPU32[(1024 + 84) >> 2], h.HEAPU32[(2048 + 84) >> 2]]);
    assert.deepEqual(during, [0x5000, 0x5000]);
    assert.equal(h.HEAPU32[(1024 + 84) >> 2], 0x5000 | IMMUTABLE);
    assert.equal(h.HEAPU32[(2048 + 84) >> 2], 0x5000 | IMMUTABLE);
    assert.throws(() => withTypesMutable(h, [[1024, 0x5000 | IMMUTABLE, 512]], () => { throw new Error('edit failed'); }), /edit failed/);
    assert.equal(h.HEAPU32[(1024 + 84) >> 2], 0x5000 | IMMUTABLE);
  });

  it('writes nothing when any record does not match memory (another layout)', () => {
    const h = heap();
    const before = h.HEAPU32.slice();
    assert.throws(() => withTypesMutable(h, [[1024, 0x5000 | IMMUTABLE, 512], [2048, 0x5000, 999]], () => 'edited'), TypeLayoutMismatch);
    assert.throws(() => withTypesMutable(h, [[1025, 0, 0]], () => 'edited'), TypeLayoutMismatch);
    assert.deepEqual(h.HEAPU32, before);
  });
});
