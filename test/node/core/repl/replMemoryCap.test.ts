// The REPL's memory cap through the real REPL: a cell that allocates past it fails with MemoryError, the
// REPL lives on and the next cell runs. The control (a cap above the allocation) shows the same cell
// succeeds when the cap allows it, so the refusal comes from the cap and not from wasm's own limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { startSession } from './replTestKit';

const MB = 1024 * 1024;

async function run(session: ReplSession, code: string): Promise<{ out: string; error?: string }> {
  const r = await session.execute(code, { timeoutMs: 60_000 });
  assert.equal(r.restarted, undefined, `the REPL was lost: ${JSON.stringify(r.restarted)}`);
  return { out: r.stdout.trim(), ...(r.error ? { error: `${r.error.type}: ${r.error.message}` } : {}) };
}

describe('a REPL capped at 256 MB', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession({ osIsolation: false, allowWeakerSandbox: true, memoryCapMb: 256 });
  });
  after(async () => {
    await session?.close();
  });

  it('says so in its start-up notes', () => {
    assert.ok(session.protections.notes.some((n) => /heap is capped at 256 MB/.test(n)), session.protections.notes.join('\n'));
  });

  it('refuses one large allocation with MemoryError, and the next cell works', async () => {
    assert.match((await run(session, 'x = bytearray(1500 * 1024**2)')).error ?? '', /^MemoryError/);
    // Past wasm32's index range CPython refuses before allocating; either way nothing is held.
    assert.match((await run(session, 'x = bytearray(3 * 1024**3)')).error ?? '', /^(MemoryError|OverflowError)/);
    assert.equal((await run(session, 'y = bytearray(64 * 1024**2)\nprint(len(y))')).out, String(64 * MB));
  });

  it('refuses a list grown a MB at a time, then frees it and goes on', async () => {
    const grown = await run(session, 'chunks = []\ntry:\n    while True:\n        chunks.append(bytearray(1024**2))\nexcept MemoryError:\n    print("MemoryError after", len(chunks), "MB")\n    raise');
    assert.match(grown.error ?? '', /^MemoryError/);
    const held = Number(/after (\d+) MB/.exec(grown.out)?.[1]);
    assert.ok(held > 64 && held < 256, `stopped after ${held} MB`);
    assert.equal((await run(session, 'del chunks, y\nprint(sum(range(10)))')).out, '45');
  });
});

describe('control: a REPL capped at 2048 MB', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession({ osIsolation: false, allowWeakerSandbox: true, memoryCapMb: 2048 });
  });
  after(async () => {
    await session?.close();
  });

  it('takes the 300 MB the small cap refuses', async () => {
    assert.equal((await run(session, 'x = bytearray(300 * 1024**2)\nprint(len(x))\ndel x')).out, String(300 * MB));
  });
});

/** JS in the worker (layer 1 weakened) allocating 800 MB outside the wasm heap, where its cap cannot see. */
const JS_ALLOCATION = "import js\nbufs = []\nfor i in range(8):\n    bufs.append(js.Uint8Array.new(100 * 1024 * 1024).fill(1))\nprint('allocated', len(bufs))\ndel bufs";

describe("the second layer: the REPL process's RSS watch ends a process past its hard bound", () => {
  it('reports the cell as lost to out-of-memory, and the next cell runs in a fresh REPL', async () => {
    const session = await startSession({ osIsolation: false, allowWeakerSandbox: true, memoryCapMb: 128, weakenForTest: { python: true } });
    try {
      const r = await session.execute(JS_ALLOCATION, { timeoutMs: 60_000 });
      assert.equal(r.restarted?.reason, 'out-of-memory', JSON.stringify(r.restarted ?? r.stdout));
      assert.match(r.restarted?.detail ?? '', /past its hard bound of 672 MB/);
      assert.equal((await run(session, 'print(1 + 1)')).out, '2');
    } finally {
      await session.close();
    }
  });

  it('control: under a bound above the allocation, the same cell completes', async () => {
    const session = await startSession({ osIsolation: false, allowWeakerSandbox: true, memoryCapMb: 2048, weakenForTest: { python: true } });
    try {
      assert.equal((await run(session, JS_ALLOCATION)).out, 'allocated 8');
    } finally {
      await session.close();
    }
  });
});
