import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { capWasmMemory, MemoryCapExceeded } from '../../../src/worker/memoryCap';
import { hardRssBound, watchRss } from '../../../src/worker/rssWatch';
import { until } from '../../support/until';

describe('capWasmMemory', () => {
  it('refuses growth past the cap, allows it below, and cannot be undone', () => {
    // A subclass, so that this test process's own WebAssembly.Memory is left alone.
    class Memory extends WebAssembly.Memory {}
    const cap = capWasmMemory(4 * 65_536, Memory);
    const memory = new Memory({ initial: 1, maximum: 100 });
    memory.grow(2);
    assert.equal(memory.buffer.byteLength, 3 * 65_536);
    assert.throws(() => memory.grow(2), MemoryCapExceeded);
    assert.equal(memory.buffer.byteLength, 3 * 65_536);
    assert.equal(cap.refused(), 1);
    assert.throws(() => {
      (Memory.prototype as unknown as { grow: unknown }).grow = () => 0;
    }, TypeError);
    assert.throws(() => Object.defineProperty(Memory.prototype, 'grow', { value: () => 0 }), TypeError);
    assert.throws(() => memory.grow(5), MemoryCapExceeded);
    assert.equal(new WebAssembly.Memory({ initial: 1, maximum: 100 }).grow(5), 1, 'the real class is untouched');
  });
});

describe('watchRss', () => {
  it('fires once past the hard bound, never below it', async () => {
    let rss = 100;
    let samples = 0;
    const fired: number[] = [];
    const stop = watchRss({ hardBytes: 1000, intervalMs: 5, rss: () => (samples++, rss), onExceeded: (n) => fired.push(n) });
    await until(() => samples >= 3, 'three samples below the bound');
    assert.deepEqual(fired, []);
    rss = 2000;
    await until(() => fired.length > 0, 'the watch to fire');
    const firedAt = samples;
    await until(() => samples >= firedAt + 3, 'three more samples past the bound');
    stop();
    assert.deepEqual(fired, [2000]);
  });

  it('leaves room above the wasm cap for Node and V8', () => {
    assert.ok(hardRssBound(2048 * 1048576) > 2048 * 1048576 + 256 * 1048576);
  });
});
