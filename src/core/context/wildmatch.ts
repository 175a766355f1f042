// git's wildmatch with WM_PATHNAME (`*`, `?` and `[...]` stop at `/`; `**` crosses folders only as a
// whole path segment), matched in time linear in the path for a given pattern. Both sides are hostile:
// a repository ships its .gitignore files and names its own files, and an agent's globs are steered by
// what it read. A backtracking RegExp made from `*a*a*a*a*a*a*a*a*a*a*b` took over a minute on a
// 40-character name, on the thread that gathers the input (the extension host's). So the pattern is
// compiled to a list of steps and run as a set of positions (Thompson's construction): each character
// of the path advances every live position once, never more.

/** One step of a compiled pattern. */
type Step =
  /** One character that passes `test` (a literal, `?` or a bracket class; never `/` for the last two). */
  | { kind: 'char'; test: (ch: string) => boolean }
  /** `*`: any run of characters but `/`. */
  | { kind: 'star' }
  /** A final `**`: anything. */
  | { kind: 'rest' }
  /** `**` then `/`: zero or more whole folders (anything ending in `/`, or nothing). */
  | { kind: 'folders' };

export interface WildmatchMatcher {
  /** True when the whole of `path` matches. */
  test(path: string): boolean;
}

/** The pattern compiled, or undefined where git's wildmatch matches nothing (a trailing `\`, a bad class). */
export function compileWildmatch(pattern: string, ignoreCase = false): WildmatchMatcher | undefined {
  const steps = compileSteps(pattern, ignoreCase);
  if (steps === undefined) return undefined;
  return { test: (path) => run(steps, path) };
}

function literal(ch: string, ignoreCase: boolean): (c: string) => boolean {
  if (!ignoreCase) return (c) => c === ch;
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  return (c) => c === ch || c.toLowerCase() === lower || c.toUpperCase() === upper;
}

function compileSteps(pattern: string, ignoreCase: boolean): Step[] | undefined {
  const steps: Step[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      // A trailing backslash escapes nothing: git's wildmatch then matches no path.
      if (i + 1 >= pattern.length) return undefined;
      steps.push({ kind: 'char', test: literal(pattern[i + 1]!, ignoreCase) });
      i += 2;
    } else if (ch === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const wholeSegment = end - i >= 2 && (i === 0 || pattern[i - 1] === '/') && (end === pattern.length || pattern[end] === '/');
      if (!wholeSegment) steps.push({ kind: 'star' });
      else if (end === pattern.length) steps.push({ kind: 'rest' });
      else {
        steps.push({ kind: 'folders' });
        end++;
      }
      i = end;
    } else if (ch === '?') {
      steps.push({ kind: 'char', test: (c) => c !== '/' });
      i++;
    } else if (ch === '[') {
      const bracket = bracketSource(pattern, i);
      if (!bracket) return undefined;
      // A class tested on one character at a time: constant work, whatever the class holds.
      const one = new RegExp(`^${bracket.source}$`, ignoreCase ? 'i' : '');
      steps.push({ kind: 'char', test: (c) => one.test(c) });
      i = bracket.end;
    } else {
      steps.push({ kind: 'char', test: literal(ch, ignoreCase) });
      i++;
    }
  }
  return steps;
}

/** Marks every position reachable from the live ones without reading a character. */
function close(steps: readonly Step[], live: Uint8Array): void {
  for (let i = 0; i < steps.length; i++) {
    if (live[i] && steps[i]!.kind !== 'char') live[i + 1] = 1;
  }
}

function run(steps: readonly Step[], path: string): boolean {
  let live = new Uint8Array(steps.length + 1);
  let next = new Uint8Array(steps.length + 1);
  live[0] = 1;
  close(steps, live);
  for (let p = 0; p < path.length; p++) {
    const c = path[p]!;
    next.fill(0);
    for (let i = 0; i < steps.length; i++) {
      if (!live[i]) continue;
      const step = steps[i]!;
      if (step.kind === 'char') {
        if (step.test(c)) next[i + 1] = 1;
      } else if (step.kind === 'star') {
        if (c !== '/') next[i] = 1;
      } else {
        next[i] = 1;
        if (step.kind === 'folders' && c === '/') next[i + 1] = 1;
      }
    }
    // No position left alive: the rest of the path cannot match.
    if (!next.includes(1)) return false;
    close(steps, next);
    [live, next] = [next, live];
  }
  return live[steps.length] === 1;
}

const CHARACTER_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  xdigit: '0-9a-fA-F',
};

/**
 * `[...]` from `start`: its regex class (never matching `/`) and the index after it, or undefined where
 * git's wildmatch gives up on the whole pattern (no closing `]`, an unknown `[:class:]`). As there, a
 * character is a member before it can open a range, so `[z-a]` holds `z` alone.
 */
function bracketSource(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i++;
  let body = '';
  let previous: string | undefined;
  for (let first = true; i < pattern.length; first = false) {
    const ch = pattern[i]!;
    if (ch === ']' && !first) return { source: negated ? `[^/${body}]` : `(?!/)[${body}]`, end: i + 1 };
    if (ch === '\\') {
      if (i + 1 >= pattern.length) return undefined;
      previous = pattern[i + 1]!;
      body += escapeClassChar(previous);
      i += 2;
    } else if (ch === '-' && previous !== undefined && i + 1 < pattern.length && pattern[i + 1] !== ']') {
      let to = pattern[i + 1]!;
      i += 2;
      if (to === '\\') {
        if (i >= pattern.length) return undefined;
        to = pattern[i]!;
        i++;
      }
      // `previous` is a member already; a range out of order adds nothing to it.
      if (previous < to) body += `${escapeClassChar(previous)}-${escapeClassChar(to)}`;
      previous = undefined;
    } else if (ch === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) return undefined;
      if (close - 1 < i + 2 || pattern[close - 1] !== ':') {
        // No `:]`: the `[` is a plain member.
        previous = '[';
        body += escapeClassChar('[');
        i++;
      } else {
        const members = CHARACTER_CLASSES[pattern.slice(i + 2, close - 1)];
        if (members === undefined) return undefined;
        body += members;
        previous = undefined;
        i = close + 1;
      }
    } else {
      previous = ch;
      body += escapeClassChar(ch);
      i++;
    }
  }
  return undefined;
}

function escapeClassChar(ch: string): string {
  return /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
}
