// Layer 1: Pyodide's C types are immutable (Py_TPFLAGS_IMMUTABLETYPE), so Python code cannot strip their
// methods. The worker lifts that flag in wasm memory while isolation.py makes them inert, then sets it on
// every one of them (Pyodide's Python classes too) so that no cell can put anything back. Each address and flags value comes from Python (id(t),
// t.__flags__) and is checked against memory before anything is written: a layout this code does not
// know (another CPython) is refused, never guessed at.

const IMMUTABLE = 1 << 8;
/** Offsets in PyTypeObject on wasm32 (CPython 3.12 to 3.14): tp_flags and tp_base. */
const TP_FLAGS = 84;
const TP_BASE = 128;

interface TypeHeap {
  HEAPU32: Uint32Array;
}

/** [address, tp_flags, address of tp_base], as isolation.py's _iso_immutable_types gives them. */
export type TypeRecord = [number, number, number];

export class TypeLayoutMismatch extends Error {
  constructor(readonly address: number, readonly expected: string, readonly found: string) {
    super(`a type at ${address} does not have the memory layout expected (${expected}, found ${found}): Pyodide's types were left as they are`);
    this.name = 'TypeLayoutMismatch';
  }
}

function check(heap: TypeHeap, [address, flags, base]: TypeRecord): void {
  const foundFlags = heap.HEAPU32[(address + TP_FLAGS) >> 2]!;
  const foundBase = heap.HEAPU32[(address + TP_BASE) >> 2]!;
  if (address % 4 !== 0 || foundFlags !== flags >>> 0 || foundBase !== base >>> 0) {
    throw new TypeLayoutMismatch(address, `flags ${flags >>> 0}, base ${base >>> 0}`, `flags ${foundFlags}, base ${foundBase}`);
  }
}

function setFlag(heap: TypeHeap, address: number, immutable: boolean): void {
  const at = (address + TP_FLAGS) >> 2;
  const flags = heap.HEAPU32[at]!;
  heap.HEAPU32[at] = immutable ? flags | IMMUTABLE : flags & ~IMMUTABLE;
}

/**
 * Runs `edit` with the listed types mutable, and makes them all immutable afterwards, whatever `edit`
 * did. Every record is checked before the first write.
 */
export function withTypesMutable<T>(heap: TypeHeap, types: TypeRecord[], edit: () => T): T {
  for (const record of types) check(heap, record);
  for (const [address] of types) setFlag(heap, address, false);
  try {
    return edit();
  } finally {
    // Re-read: the edit may have changed other bits (the version-tag bit); only the immutable one is set.
    for (const [address] of types) setFlag(heap, address, true);
  }
}
