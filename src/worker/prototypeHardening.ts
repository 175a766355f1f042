// Layer 1, the JavaScript half: code that gets hold of any JS object in this worker must not reach
// Pyodide's internals through the prototypes every object shares. The attack pass planted getters on
// Object.prototype (`debug_ffi`, `fetch`) that Pyodide's own lookups then called, handing out its API,
// `Module`, this thread's globalThis and `process`; and a Symbol.toPrimitive hook there that Node's
// default stack formatting called with V8 CallSites, though Error.prepareStackTrace is frozen. Freezing
// the shared prototypes after the boot closes that class: nothing can be added to or changed on them.
// Pyodide and Node assign no property of these prototypes on ordinary objects after start-up (the
// tests of the REPL run with them frozen); defineProperty on an object's own properties still works.
// The timer functions and process.nextTick are locked too, so the worker's own scheduling (its warm-up)
// always goes through the tracked wrappers of cellTimers.ts, never through a function a cell put there.
import type { SandboxProbe } from '../core/repl/replTypes';

/** The prototypes of the values Pyodide and Node pass around. */
const SHARED = (): object[] => [Object.prototype, Array.prototype, Function.prototype, Error.prototype, Promise.prototype, Symbol.prototype, String.prototype, Number.prototype, Boolean.prototype, RegExp.prototype, Map.prototype, Set.prototype];

/**
 * Freezing makes each property read-only, and JavaScript then refuses an assignment to an object's own
 * property of the same name ("the override mistake": `proto.constructor = C` in Pyodide's PyProxy
 * classes, `this.name = ...` in error classes throw in strict code). For the writable data properties
 * such code assigns, the value becomes a getter, and a setter that gives the assigned-to object its own
 * property; assigning on the prototype itself is still refused. The approach of SES's lockdown.
 */
const OVERRIDABLE: Array<[() => object, string[]]> = [
  [() => Object.prototype, ['constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']],
  [() => Function.prototype, ['constructor', 'toString']],
  [() => Error.prototype, ['constructor', 'name', 'message', 'toString']],
  // Not Array.prototype.constructor: V8 keeps arrays' fast paths (map, filter, slice, concat, splice:
  // about ten times faster) only while that property is the original data property (its "species
  // protector"); an accessor there slows every array operation in this thread. Frozen as it is, it
  // still cannot be replaced, and nothing in Pyodide or Node assigns `constructor` on an array.
  [() => Array.prototype, ['toString', 'toLocaleString']],
  [() => Promise.prototype, ['constructor']],
  [() => RegExp.prototype, ['constructor', 'toString']],
  [() => Map.prototype, ['constructor']],
  [() => Set.prototype, ['constructor']],
];

function overridable(proto: object, name: string): void {
  const desc = Object.getOwnPropertyDescriptor(proto, name);
  if (!desc || !('value' in desc) || !desc.writable || !desc.configurable) return;
  const value: unknown = desc.value;
  Object.defineProperty(proto, name, {
    get: () => value,
    set(this: object, replacement: unknown) {
      if (this === proto) throw new TypeError(`Cannot assign to read only property '${name}' of a shared prototype`);
      Object.defineProperty(this, name, { value: replacement, writable: true, enumerable: true, configurable: true });
    },
    enumerable: desc.enumerable ?? false,
    configurable: false,
  });
}

/** The schedulers the worker's own code uses: after the boot, JS cannot swap them for its own. */
const SCHEDULERS = ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask'] as const;

export function hardenPrototypes(): void {
  for (const [proto, names] of OVERRIDABLE) for (const name of names) overridable(proto(), name);
  for (const proto of SHARED()) Object.freeze(proto);
  for (const name of SCHEDULERS) Object.defineProperty(globalThis, name, { writable: false, configurable: false });
  Object.defineProperty(process, 'nextTick', { writable: false, configurable: false });
}

function refused(name: string, plant: () => unknown, planted: () => boolean): SandboxProbe {
  let detail = 'ignored';
  try {
    plant();
  } catch (error) {
    detail = `${(error as Error).name}: ${String((error as Error).message).slice(0, 100)}`;
  }
  try {
    return planted() ? { name, held: false, detail: 'planted' } : { name, held: true, detail };
  } catch (error) {
    return { name, held: false, detail: `could not check: ${String(error).slice(0, 100)}` };
  }
}

/** Each planting the attack pass used, tried as hostile JS in this thread would. */
export function probePrototypes(): SandboxProbe[] {
  const target = Object.prototype as Record<PropertyKey, unknown>;
  const { map } = Array.prototype;
  const { call } = Function.prototype;
  const timeout = globalThis.setTimeout;
  const { nextTick } = process;
  return [
    refused("a getter planted on Object.prototype (the route to Pyodide's API and Module)", () => Object.defineProperty(Object.prototype, 'debug_ffi', { get: () => 'leak', configurable: true }), () => ({} as Record<string, unknown>).debug_ffi === 'leak'),
    refused('an Object.prototype[Symbol.toPrimitive] hook (the route to CallSites through stack formatting)', () => {
      target[Symbol.toPrimitive] = () => 'leak';
    }, () => `${{}}` === 'leak'),
    refused('a method replaced on Array.prototype or Function.prototype (the route through captureThis)', () => {
      (Array.prototype as unknown as Record<string, unknown>).map = () => 'leak';
      (Function.prototype as unknown as Record<string, unknown>).call = () => 'leak';
    }, () => Array.prototype.map !== map || Function.prototype.call !== call),
    refused("the worker's timer functions or process.nextTick replaced", () => {
      (globalThis as unknown as Record<string, unknown>).setTimeout = () => 'leak';
      (process as unknown as Record<string, unknown>).nextTick = () => 'leak';
    }, () => (globalThis.setTimeout as unknown) !== timeout || process.nextTick !== nextTick),
    { name: 'the shared prototypes are frozen', held: SHARED().every((p) => Object.isFrozen(p)), detail: `${SHARED().filter((p) => Object.isFrozen(p)).length} of ${SHARED().length}` },
  ];
}
