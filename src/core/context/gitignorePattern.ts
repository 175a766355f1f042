// One .gitignore file's lines as git reads them (gitignore(5)): comments, trailing spaces, `!` negation,
// a trailing `/` for folders only, a pattern without an inner `/` matched against the name alone, and
// wildmatch with WM_PATHNAME (`*`, `?` and `[...]` stop at `/`, `**` crosses folders only as a whole
// path segment). Written here rather than taken from a library because gitignoreLayers.ts needs each
// file's verdict on a path by itself, without its folders: folders are git's job there, not the file's.

export interface GitignoreRule {
  /** `!pattern`: a match re-includes. */
  negative: boolean;
  /** `pattern/`: matches folders only. */
  folderOnly: boolean;
  /** No `/` but a trailing one: matched against the last path segment, at any depth. */
  nameOnly: boolean;
  regex: RegExp;
}

/** The rules of one .gitignore, in file order; lines that can never match are left out. */
export function parseGitignore(text: string, ignoreCase: boolean): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const rule = parseLine(line, ignoreCase);
    if (rule) rules.push(rule);
  }
  return rules;
}

function parseLine(line: string, ignoreCase: boolean): GitignoreRule | undefined {
  let pattern = trimTrailingSpaces(line);
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const negative = pattern.startsWith('!');
  if (negative) pattern = pattern.slice(1);
  const folderOnly = pattern.endsWith('/');
  if (folderOnly) pattern = pattern.slice(0, -1);
  if (pattern === '') return undefined;
  const nameOnly = !pattern.includes('/');
  // A leading `/` only anchors the pattern, which any pattern with a `/` already is.
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const source = wildmatchSource(pattern);
  if (source === undefined) return undefined;
  return { negative, folderOnly, nameOnly, regex: new RegExp(`^${source}$`, ignoreCase ? 'i' : '') };
}

/** Trailing spaces are dropped unless the last one is escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') end--;
  if (end < line.length && end > 0 && line[end - 1] === '\\' && !isEscaped(line, end - 1)) end++;
  return line.slice(0, end);
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** A regular expression source for the pattern, or undefined where git's wildmatch matches nothing. */
/** A wildmatch pattern as a regular expression's source (no anchors), or undefined when it can match nothing. */
export function wildmatchSource(pattern: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      // A trailing backslash escapes nothing: git's wildmatch then matches no path.
      if (i + 1 >= pattern.length) return undefined;
      out += escapeRegex(pattern[i + 1]!);
      i += 2;
    } else if (ch === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const wholeSegment = end - i >= 2 && (i === 0 || pattern[i - 1] === '/') && (end === pattern.length || pattern[end] === '/');
      if (!wholeSegment) out += '[^/]*';
      else if (end === pattern.length) out += '.*';
      else {
        // `**/`: zero or more whole folders.
        out += '(?:.*/)?';
        end++;
      }
      i = end;
    } else if (ch === '?') {
      out += '[^/]';
      i++;
    } else if (ch === '[') {
      const bracket = bracketSource(pattern, i);
      if (!bracket) return undefined;
      out += bracket.source;
      i = bracket.end;
    } else {
      out += escapeRegex(ch);
      i++;
    }
  }
  return out;
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

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch;
}

function escapeClassChar(ch: string): string {
  return /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
}
