// The REPL's memory cap, first layer: Pyodide's wasm heap never grows past the cap. Emscripten grows the
// heap through `WebAssembly.Memory.prototype.grow` (its growMemory glue, called by emscripten_resize_heap,
// which catches the error and returns 0). Refusing the growth there makes malloc return NULL, so CPython
// raises MemoryError inside the cell and the REPL lives on. Installed before Pyodide loads, on the
// prototype (Pyodide's memory object does not exist yet), and locked so that code running later in this
// thread cannot put the original back. The second layer, for memory outside the wasm heap, is the REPL
// process's RSS watch (rssWatch.ts).

const WASM_PAGE = 65_536;
/** The cap when none is configured: well past any context the REPL binds (256 MB by default), well under wasm32's 4 GB. */
export const DEFAULT_REPL_MEMORY_MB = 2048;

interface WasmMemoryCap {
  readonly maxBytes: number;
  /** Growths refused so far. */
  refused(): number;
}

export class MemoryCapExceeded extends RangeError {
  constructor(readonly requestedBytes: number, readonly maxBytes: number) {
    super(`the REPL's memory cap of ${Math.round(maxBytes / 1048576)} MB refuses growing the Python heap to ${Math.round(requestedBytes / 1048576)} MB`);
    this.name = 'MemoryCapExceeded';
  }
}

export function capWasmMemory(maxBytes: number, memoryClass: typeof WebAssembly.Memory = WebAssembly.Memory): WasmMemoryCap {
  const proto = memoryClass.prototype;
  const realGrow = proto.grow;
  let refusals = 0;
  function grow(this: WebAssembly.Memory, pages: number): number {
    const requested = this.buffer.byteLength + Number(pages) * WASM_PAGE;
    if (!(requested <= maxBytes)) {
      refusals++;
      throw new MemoryCapExceeded(requested, maxBytes);
    }
    return realGrow.call(this, pages);
  }
  Object.defineProperty(proto, 'grow', { value: grow, writable: false, configurable: false, enumerable: false });
  return { maxBytes, refused: () => refusals };
}
