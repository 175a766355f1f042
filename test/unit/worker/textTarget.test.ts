// The text target and its device requests (src/worker/textTarget.ts, pythonChannel.ts) against a fake
// wasm heap: every write stays inside the str it was opened for, non-ASCII bytes are never taken, the
// prefix is read from the heap as it is when Python reads it, and each str is released exactly once,
// never from inside a device request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PyProxy } from 'pyodide/ffi';
import { PythonChannel } from '../../../src/worker/pythonChannel';
import type { EmscriptenFs } from '../../../src/worker/pythonChannel';
import { TEXT_TARGET_MAX_BYTES, TextTarget } from '../../../src/worker/textTarget';
import type { PythonStrApi } from '../../../src/worker/textTarget';

const HEADER = 20;

/** A bump-allocated heap with the C API calls a target makes, and a log of them. */
function fakeHeap(bytes = 4096) {
  const state = { heap: new Uint8Array(bytes), next: 64, decRefs: [] as number[], proxies: [] as number[], failNext: false, cleared: 0 };
  const api: PythonStrApi = {
    get HEAPU8() {
      return state.heap;
    },
    _PyUnicode_New(size) {
      if (state.failNext) {
        state.failNext = false;
        return 0;
      }
      const at = state.next;
      state.next += HEADER + size;
      return at;
    },
    _PyUnicode_Data: (str) => str + HEADER,
    _Py_DecRef: (str) => void state.decRefs.push(str),
    _PyErr_Clear: () => void state.cleared++,
    pyproxy_new: (str) => {
      state.proxies.push(str);
      return { destroy: () => undefined } as unknown as PyProxy;
    },
  };
  /** Memory growth: a new, larger heap with the same contents (the old view no longer counts). */
  const grow = (): void => {
    const bigger = new Uint8Array(state.heap.length * 2);
    bigger.set(state.heap);
    structuredClone(undefined, { transfer: [state.heap.buffer] }); // detached, as wasm growth leaves it
    state.heap = bigger;
  };
  return { state, api, grow };
}

class FakeErrno extends Error {
  constructor(readonly errno: number) {
    super(`errno ${errno}`);
  }
}

/** The channel's device as Python sees it: write a request, read the reply (4-byte length, then the body). */
function device(channel: PythonChannel, heapOf: () => Uint8Array, scratchAt: number) {
  type Io = (stream: object, buffer: Int8Array, offset: number, length: number, position: number) => number;
  let ops: { read: Io; write: Io } | undefined;
  const fs: EmscriptenFs = {
    makedev: () => 1,
    registerDevice: (_dev, o) => void (ops = o as never),
    mkdev: () => undefined,
    ErrnoError: FakeErrno as never,
  };
  channel.install(fs);
  const heap = () => new Int8Array(heapOf().buffer);
  return {
    /** Writes a request and reads nothing back. */
    send(text: string): void {
      const bytes = Buffer.from(text, 'latin1');
      ops!.write({}, new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.byteLength, 0);
    },
    /** Reads up to `n` bytes of the pending reply into the heap, as Python does. */
    readOnly(n: number): Uint8Array {
      const got = ops!.read({}, heap(), scratchAt, n, 0);
      return heapOf().slice(scratchAt, scratchAt + got);
    },
    request(text: string | Uint8Array): { ok: true; body: Uint8Array } | { ok: false; errno: number } {
      const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
      try {
        ops!.write({}, new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.byteLength, 0);
      } catch (error) {
        return { ok: false, errno: (error as FakeErrno).errno };
      }
      // The reply is read into the heap, as Python reads it into its own buffer.
      const n = ops!.read({}, heap(), scratchAt, 4, 0);
      if (n < 4) return { ok: true, body: new Uint8Array(0) };
      const size = new DataView(heapOf().buffer, scratchAt, 4).getUint32(0);
      const got = ops!.read({}, heap(), scratchAt, size, 0);
      return { ok: true, body: heapOf().slice(scratchAt, scratchAt + got) };
    },
  };
}

describe('text target', () => {
  it('opens only sizes a str can have, and reports an allocation that failed', () => {
    const { state, api } = fakeHeap();
    const target = new TextTarget(api);
    assert.equal(target.open(0), false);
    assert.equal(target.open(-5), false);
    assert.equal(target.open(TEXT_TARGET_MAX_BYTES + 1), false);
    assert.equal(target.open(1.5), false);
    state.failNext = true;
    assert.equal(target.open(100), false);
    assert.equal(state.cleared, 1, 'the MemoryError the failed allocation raised is cleared');
    assert.equal(target.open(100), true);
    assert.equal(target.isOpen, true);
  });

  it('writes only ASCII, only inside its str, and is adopted only once full', () => {
    const { state, api } = fakeHeap();
    const target = new TextTarget(api);
    target.open(8);
    const data = api._PyUnicode_Data(state.next - HEADER - 8);
    assert.equal(target.append(Buffer.from('abc')), true);
    assert.equal(target.append(Buffer.from('dé')), false, 'a non-ASCII byte: nothing taken');
    assert.equal(Buffer.from(state.heap.subarray(data, data + 5)).toString('latin1'), 'abc\0\0');
    assert.throws(() => target.append(Buffer.from('123456')), RangeError, 'past the end of the str');
    assert.throws(() => target.adopt(() => undefined), RangeError, 'not full yet');
    assert.equal(target.append(Buffer.from('defgh')), true);
    let adopted: unknown;
    target.adopt((proxy) => (adopted = proxy));
    assert.ok(adopted);
    assert.deepEqual(state.proxies, [data - HEADER]);
    assert.deepEqual(state.decRefs, [data - HEADER], 'its own reference let go after the hand-over');
    assert.equal(target.isOpen, false);
    assert.throws(() => target.append(Buffer.from('x')), RangeError);
  });

  it('a new open, a discard and a settle each release a str once', () => {
    const { state, api } = fakeHeap();
    const target = new TextTarget(api);
    target.open(4);
    const first = state.next - HEADER - 4;
    target.open(4);
    const second = state.next - HEADER - 4;
    assert.deepEqual(state.decRefs, [first]);
    target.takePrefix();
    assert.deepEqual(state.decRefs, [first], 'not released while Python reads the prefix');
    target.settle();
    target.settle();
    target.discard();
    assert.deepEqual(state.decRefs, [first, second]);
  });
});

describe('channel: text target requests', () => {
  const setup = () => {
    const heap = fakeHeap(1 << 16);
    const channel = new PythonChannel({ bridge: () => '{}', sleep: () => 0, output: () => undefined }, 1000);
    const dev = device(channel, () => heap.state.heap, 60_000);
    return { ...heap, channel, dev };
  };

  it('without a target, or with none open, every target request is refused', () => {
    const { channel, dev, api } = setup();
    channel.offerContext(Buffer.from('abcdef'));
    for (const request of ['T2', 'Wab', 'P']) assert.equal(dev.request(request).ok, false, `${request} with no target`);
    channel.useTextTarget(new TextTarget(api));
    for (const request of ['T2', 'Wab', 'P']) assert.equal(dev.request(request).ok, false, `${request} with none open`);
    assert.equal(channel.contextLeft(), 6, 'nothing was taken');
  });

  it('T takes offered bytes into the str; non-ASCII ones stay offered for the buffered path', () => {
    const { channel, dev, api, state } = setup();
    channel.useTextTarget(new TextTarget(api));
    assert.equal(channel.openText(10), true);
    const data = state.next - 10;
    channel.offerContext(Buffer.from('hello wörld', 'utf8'));
    const ok = dev.request('T5');
    assert.deepEqual(ok.ok && Buffer.from(ok.body).toString(), '1');
    const refused = dev.request('T4');
    assert.deepEqual(refused.ok && Buffer.from(refused.body).toString(), '0');
    assert.equal(channel.contextLeft(), 7, 'the refused bytes are still offered');
    assert.equal(dev.request('T99').ok, false, 'more than is offered');
    assert.equal(dev.request('T1x').ok, false, 'not a number');
    const rest = dev.request('C3');
    assert.deepEqual(rest.ok && [...rest.body], [0x20, 0x77, 0xc3], "' w' and the first byte of 'ö'");
    assert.equal(Buffer.from(state.heap.subarray(data, data + 5)).toString(), 'hello');
  });

  it('W past the end of the str is refused and writes nothing', () => {
    const { channel, dev, api, state } = setup();
    channel.useTextTarget(new TextTarget(api));
    channel.openText(4);
    const data = state.next - 4;
    const end = state.heap.slice(data + 4, data + 16);
    assert.equal(dev.request('Wabcdefgh').ok, false);
    assert.deepEqual(state.heap.slice(data + 4, data + 16), end);
    assert.deepEqual(state.heap.slice(data, data + 4), new Uint8Array(4));
  });

  it('P reads the prefix from the heap as it is when read, closes the target, and settle releases it', () => {
    const { channel, dev, api, state, grow } = setup();
    channel.useTextTarget(new TextTarget(api));
    channel.openText(64);
    const str = state.next - HEADER - 64;
    channel.offerContext(Buffer.from('prefix-bytes'));
    dev.request('T12');
    grow(); // Python allocated its buffer for the prefix: memory grew and the heap view was replaced
    const prefix = dev.request('P');
    assert.deepEqual(prefix.ok && Buffer.from(prefix.body).toString(), 'prefix-bytes');
    assert.equal(dev.request('Wx').ok, false, 'the target is closed');
    assert.deepEqual(state.decRefs, [], 'released only once Python has returned');
    channel.settleText();
    assert.deepEqual(state.decRefs, [str]);
  });

  it('a prefix reply left unread is dropped when its str is released', () => {
    const { channel, dev, api, state } = setup();
    channel.useTextTarget(new TextTarget(api));
    channel.openText(64);
    channel.offerContext(Buffer.from('secret-bytes'));
    dev.request('T12');
    dev.send('P');
    const head = dev.readOnly(4); // only the length is read, then Python returns to the worker
    assert.equal(new DataView(head.buffer, head.byteOffset, 4).getUint32(0), 12);
    channel.settleText();
    assert.equal(state.decRefs.length, 1);
    assert.equal(dev.readOnly(12).byteLength, 0, 'nothing is read from the freed str');
  });
});
