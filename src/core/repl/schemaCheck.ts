// A small declarative check for values decoded from the REPL process: each message type is written
// once as a tree of these checks (childMessages.ts), and a value passes only with every field of the
// right type and size and no field that is not declared. A check returns what is wrong, or undefined;
// the problem starts with the path below the value checked (".call.prompts[2] is not a string"), which
// each level prefixes only on failure, so a value that passes costs no string building.
// Checks never recurse further than the declared shape, except `json`, which walks its value with an
// explicit stack and a depth bound: a hostile value nested a million deep must not overflow the host's stack.

export type Check = (value: unknown) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const str =
  (maxChars: number): Check =>
  (value) =>
    typeof value !== 'string' ? ' is not a string' : value.length > maxChars ? ` has ${value.length} characters, over ${maxChars}` : undefined;

/** A string that matches `pattern` (anchored by the caller). */
export const matching =
  (pattern: RegExp, maxChars: number): Check =>
  (value) =>
    str(maxChars)(value) ?? (pattern.test(value as string) ? undefined : ' is not of the expected form');

export const int =
  (min: number, max: number): Check =>
  (value) =>
    typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max ? ` is not an integer in [${min}, ${max}]` : undefined;

export const num: Check = (value) => (typeof value !== 'number' || !Number.isFinite(value) ? ' is not a finite number' : undefined);

export const bool: Check = (value) => (typeof value !== 'boolean' ? ' is not a boolean' : undefined);

export const literal =
  (...allowed: Array<string | number | boolean | null>): Check =>
  (value) =>
    allowed.includes(value as string) ? undefined : ` is not one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;

export const oneOf =
  (...checks: Check[]): Check =>
  (value) => {
    let first: string | undefined;
    for (const check of checks) {
      const problem = check(value);
      if (!problem) return undefined;
      first ??= problem;
    }
    return first;
  };

export const arr =
  (item: Check, maxItems: number): Check =>
  (value) => {
    if (!Array.isArray(value)) return ' is not an array';
    if (value.length > maxItems) return ` has ${value.length} items, over ${maxItems}`;
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i]);
      if (problem) return `[${i}]${problem}`;
    }
    return undefined;
  };

/** An object with exactly these fields: `optional` ones may be absent (not undefined: JSON has none). */
export const obj =
  (required: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (value) => {
    if (!isRecord(value)) return ' is not an object';
    for (const key in value) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return ` has an undeclared field ${JSON.stringify(key.slice(0, 40))}`;
    }
    for (const key in required) {
      if (!Object.hasOwn(value, key)) return `.${key} is missing`;
      const problem = required[key]!(value[key]);
      if (problem) return `.${key}${problem}`;
    }
    for (const key in optional) {
      if (!Object.hasOwn(value, key)) continue;
      const problem = optional[key]!(value[key]);
      if (problem) return `.${key}${problem}`;
    }
    return undefined;
  };

/** Picks the check by the value's `field` (e.g. `type` or `kind`); an unknown one is refused. */
export const variants =
  (field: string, byName: Record<string, Check>): Check =>
  (value) => {
    if (!isRecord(value)) return ' is not an object';
    const name = value[field];
    if (typeof name !== 'string' || !Object.hasOwn(byName, name)) return `.${field} is not a known one`;
    return byName[name]!(value);
  };

/** Any JSON value nested at most `maxDepth` deep (Python's own values for rlm_query's context). */
export const json =
  (maxDepth: number): Check =>
  (value) => {
    const stack: Array<[unknown, number]> = [[value, 0]];
    while (stack.length) {
      const [v, depth] = stack.pop()!;
      if (typeof v !== 'object' || v === null) continue;
      if (depth >= maxDepth) return ` is nested more than ${maxDepth} deep`;
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
    }
    return undefined;
  };
