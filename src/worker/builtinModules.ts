// Sandbox layer 1, the C half: built-in extension modules that give Python raw memory or JavaScript are
// made unimportable in CPython's own tables, where no Python code can put them back.
//
// Python-level blocks (a refusing meta-path finder, popping sys.modules) are undone by one call to
// `_imp.create_builtin`, which looks the name up in the interpreter's inittab. CPython keeps two copies
// of that table in wasm memory (the one `PyImport_Inittab` points to, and the runtime's copy made at
// start-up); each entry is a pointer to the module's name and its init function. Pointing the name of
// a disabled entry at a string no Python str can equal (it holds a non-ASCII byte) makes the module
// unfindable by every import path, and `ctypes` (the only other way to write that memory) is one of them.
// The patch is made before the memory snapshot is taken, so a restored process inherits it; the
// probe (isolation.py) checks it after every start either way.

/** What makes a module dangerous here: raw memory (ctypes, the test modules), JS values (_pyodide_core). */
export const DISABLED_BUILTINS = [
  '_ctypes',
  '_pyodide_core',
  '_testcapi',
  '_testinternalcapi',
  '_testlimitedcapi',
  '_testbuffer',
  '_testclinic',
  '_testclinic_limited',
  '_xxtestfuzz',
  'xxsubtype',
  '_remote_debugging',
  '_posixsubprocess',
];

/** The parts of Pyodide's Emscripten module this needs. */
export interface WasmMemoryAccess {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  /** Address of the `PyImport_Inittab` pointer variable. */
  _PyImport_Inittab: number;
  _malloc(size: number): number;
}

export interface BuiltinPatchResult {
  /** Tables found and patched (CPython keeps two). */
  tables: number;
  disabled: string[];
  /** Names asked for that no table lists (not built into this Pyodide). */
  absent: string[];
}

const ENTRY_BYTES = 8; // { const char *name; PyObject *(*initfunc)(void); } on wasm32
const MAX_NAME = 64;

function cString(heap: Uint8Array, address: number): string {
  let text = '';
  for (let i = 0; i < MAX_NAME && heap[address + i]; i++) text += String.fromCharCode(heap[address + i]!);
  return text;
}

function entriesOf(mem: WasmMemoryAccess, table: number): number[] {
  const entries: number[] = [];
  for (let at = table; mem.HEAPU32[at >> 2] !== 0; at += ENTRY_BYTES) entries.push(at);
  return entries;
}

/** Every copy of the inittab: the one PyImport_Inittab points at, and any other with the same first entries. */
function findTables(mem: WasmMemoryAccess): number[] {
  const words = mem.HEAPU32;
  const primary = words[mem._PyImport_Inittab >> 2]!;
  const head = [words[primary >> 2]!, words[(primary >> 2) + 1]!, words[(primary >> 2) + 2]!, words[(primary >> 2) + 3]!];
  const tables = [primary];
  for (let i = 0; i < words.length - 3; i++) {
    if (words[i] === head[0] && words[i + 1] === head[1] && words[i + 2] === head[2] && words[i + 3] === head[3] && i * 4 !== primary) tables.push(i * 4);
  }
  return tables;
}

export function disableBuiltinModules(mem: WasmMemoryAccess, names: readonly string[] = DISABLED_BUILTINS): BuiltinPatchResult {
  const tables = findTables(mem);
  // "\xff" then the name: never equal to a Python str, which the lookup requires to be ASCII.
  const unmatchable = mem._malloc(2);
  mem.HEAPU8[unmatchable] = 0xff;
  mem.HEAPU8[unmatchable + 1] = 0;
  const disabled = new Set<string>();
  for (const table of tables) {
    for (const entry of entriesOf(mem, table)) {
      const name = cString(mem.HEAPU8, mem.HEAPU32[entry >> 2]!);
      if (!names.includes(name)) continue;
      mem.HEAPU32[entry >> 2] = unmatchable;
      disabled.add(name);
    }
  }
  return { tables: tables.length, disabled: [...disabled], absent: names.filter((n) => !disabled.has(n)) };
}
