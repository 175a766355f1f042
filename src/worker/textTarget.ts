// One copy of a large text `context`: the worker allocates the final Python str itself and writes the
// streamed bytes straight into it, so a 200 MB log is held once in Python's memory rather than as a
// 200 MB bytes buffer plus the str decoded from it (wasm memory never shrinks, so the buffer's pages
// stayed resident after it was freed). Only ASCII fits: a compact ASCII str's data is exactly its UTF-8
// bytes. A text with any other byte falls back to the buffered decode (binding.py, Binder.feed), with
// the ASCII prefix written so far handed back.
// Memory safety is kept here, not in Python: Python never names an address. It asks for a target of
// n bytes, appends bytes, and asks for the prefix back; every write is bounded to the str allocated
// here, and the str reaches Python (bind_adopt) only once full, before anything could hash it.
// The C API is called only between Python calls (the worker's bind loop), never from a device request:
// CPython's os.write and os.read release the GIL around the syscall (_Py_write, _Py_read), and
// allocating or freeing an object without it is not allowed.
import { isAscii } from 'node:buffer';
import type { PyProxy } from 'pyodide/ffi';

/** The Emscripten module exports used (CPython's C API and Pyodide's proxy constructor). */
export interface PythonStrApi {
  /** Re-read on every use: growing wasm memory replaces the view (addresses stay valid). */
  readonly HEAPU8: Uint8Array;
  _PyUnicode_New(size: number, maxChar: number): number;
  _PyUnicode_Data(str: number): number;
  _Py_DecRef(object: number): void;
  _PyErr_Clear(): void;
  pyproxy_new(object: number): PyProxy;
}

/** The largest text a target takes: a str's length is a signed 32-bit size in wasm32. */
export const TEXT_TARGET_MAX_BYTES = 2 ** 31 - 1024;

/** A region of wasm memory read when the reply is read (memory growth in between replaces HEAPU8). */
export interface HeapSlice {
  start: number;
  length: number;
}

export class TextTarget {
  private str = 0;
  private data = 0;
  private size = 0;
  private filled = 0;
  /** Strs let go of during a device request, released by settle() once Python has returned. */
  private dropped: number[] = [];

  constructor(private readonly api: PythonStrApi) {}

  get isOpen(): boolean {
    return this.str !== 0;
  }

  get isFull(): boolean {
    return this.str !== 0 && this.filled === this.size;
  }

  /**
   * Allocates an ASCII str of `size` characters (any open target is dropped). False when it cannot: no
   * memory, or a size no str can have, which the buffered path then reports as a MemoryError.
   */
  open(size: number): boolean {
    this.discard();
    if (!Number.isSafeInteger(size) || size <= 0 || size > TEXT_TARGET_MAX_BYTES) return false;
    const str = this.api._PyUnicode_New(size, 127);
    if (str === 0) {
      this.api._PyErr_Clear(); // the MemoryError is raised again, with its context, by the buffered path
      return false;
    }
    this.str = str;
    this.data = this.api._PyUnicode_Data(str);
    this.size = size;
    this.filled = 0;
    return true;
  }

  /** Appends `bytes` if all are ASCII (true); otherwise writes nothing (false). */
  append(bytes: Uint8Array): boolean {
    if (!this.str) throw new RangeError('no text target is open');
    if (bytes.byteLength > this.size - this.filled) throw new RangeError(`${bytes.byteLength} bytes past a text target with ${this.size - this.filled} left`);
    if (!isAscii(bytes)) return false;
    this.api.HEAPU8.set(bytes, this.data + this.filled);
    this.filled += bytes.byteLength;
    return true;
  }

  /** The bytes written so far, as a slice to read from wasm memory; the target is closed (see settle). */
  takePrefix(): HeapSlice {
    if (!this.str) throw new RangeError('no text target is open');
    this.dropped.push(this.str);
    this.str = 0;
    return { start: this.data, length: this.filled };
  }

  /** Releases the strs closed by takePrefix(). Call only when no Python code is running. */
  settle(): void {
    for (const str of this.dropped.splice(0)) this.api._Py_DecRef(str);
  }

  /** Hands the full str to `adopt` (which keeps its own reference) and lets go of this one. */
  adopt(adopt: (text: PyProxy) => void): void {
    if (!this.isFull) throw new RangeError('the text target is not full');
    const str = this.str;
    this.str = 0;
    const proxy = this.api.pyproxy_new(str);
    try {
      adopt(proxy);
    } finally {
      proxy.destroy();
      this.api._Py_DecRef(str);
    }
  }

  discard(): void {
    this.settle();
    if (!this.str) return;
    this.api._Py_DecRef(this.str);
    this.str = 0;
  }
}
