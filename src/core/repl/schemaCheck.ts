// A small declarative check for values decoded from the REPL process: each message type is written
// once as a tree of these checks (childMessages.ts), and a value passes only with every field of the
// right type and size and no field that is not declared. A check returns what is wrong, or undefined.
// Checks never recurse further than the declared shape, except `json`, which walks its value with an
// explicit stack and a depth bound: a hostile value nested a million deep must not overflow the host's stack.

export type Check = (value: unknown, at: string) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const str =
  (maxChars: number): Check =>
  (value, at) =>
    typeof value !== 'string' ? `${at} is not a string` : value.length > maxChars ? `${at} has ${value.length} characters, over ${maxChars}` : undefined;

/** A string that matches `pattern` (anchored by the caller). */
export const matching =
  (pattern: RegExp, maxChars: number): Check =>
  (value, at) =>
    str(maxChars)(value, at) ?? (pattern.test(value as string) ? undefined : `${at} is not of the expected form`);

export const int =
  (min: number, max: number): Check =>
  (value, at) =>
    typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max ? `${at} is not an integer in [${min}, ${max}]` : undefined;

export const num: Check = (value, at) => (typeof value !== 'number' || !Number.isFinite(value) ? `${at} is not a finite number` : undefined);

export const bool: Check = (value, at) => (typeof value !== 'boolean' ? `${at} is not a boolean` : undefined);

export const literal =
  (...allowed: Array<string | number | boolean | null>): Check =>
  (value, at) =>
    allowed.includes(value as string) ? undefined : `${at} is not one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;

export const oneOf =
  (...checks: Check[]): Check =>
  (value, at) => {
    const problems = checks.map((check) => check(value, at));
    return problems.includes(undefined) ? undefined : problems[0];
  };

export const arr =
  (item: Check, maxItems: number): Check =>
  (value, at) => {
    if (!Array.isArray(value)) return `${at} is not an array`;
    if (value.length > maxItems) return `${at} has ${value.length} items, over ${maxItems}`;
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };

/** An object with exactly these fields: `optional` ones may be absent (not undefined: JSON has none). */
export const obj =
  (required: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (value, at) => {
    if (!isRecord(value)) return `${at} is not an object`;
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return `${at} has an undeclared field ${JSON.stringify(key.slice(0, 40))}`;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(value, key)) return `${at}.${key} is missing`;
      const problem = check(value[key], `${at}.${key}`);
      if (problem) return problem;
    }
    for (const [key, check] of Object.entries(optional)) {
      if (!Object.hasOwn(value, key)) continue;
      const problem = check(value[key], `${at}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };

/** Picks the check by the value's `field` (e.g. `type` or `kind`); an unknown one is refused. */
export const variants =
  (field: string, byName: Record<string, Check>): Check =>
  (value, at) => {
    if (!isRecord(value)) return `${at} is not an object`;
    const name = value[field];
    if (typeof name !== 'string' || !Object.hasOwn(byName, name)) return `${at}.${field} is not a known one`;
    return byName[name]!(value, at);
  };

/** Any JSON value nested at most `maxDepth` deep (Python's own values for rlm_query's context). */
export const json =
  (maxDepth: number): Check =>
  (value, at) => {
    const stack: Array<[unknown, number]> = [[value, 0]];
    while (stack.length) {
      const [v, depth] = stack.pop()!;
      if (typeof v !== 'object' || v === null) continue;
      if (depth >= maxDepth) return `${at} is nested more than ${maxDepth} deep`;
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
    }
    return undefined;
  };
