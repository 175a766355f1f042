// One .gitignore file's lines as git reads them (gitignore(5)): comments, trailing spaces, `!` negation,
// a trailing `/` for folders only, a pattern without an inner `/` matched against the name alone, and
// wildmatch with WM_PATHNAME (`*`, `?` and `[...]` stop at `/`, `**` crosses folders only as a whole
// path segment; the matching itself is wildmatch.ts). Written here rather than taken from a library because gitignoreLayers.ts needs each
// file's verdict on a path by itself, without its folders: folders are git's job there, not the file's.

import { compileWildmatch } from './wildmatch';
import type { WildmatchMatcher } from './wildmatch';

export interface GitignoreRule {
  /** `!pattern`: a match re-includes. */
  negative: boolean;
  /** `pattern/`: matches folders only. */
  folderOnly: boolean;
  /** No `/` but a trailing one: matched against the last path segment, at any depth. */
  nameOnly: boolean;
  /** The pattern, matched in time linear in the path (never a backtracking RegExp: a file is hostile). */
  matcher: WildmatchMatcher;
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
  const matcher = compileWildmatch(pattern, ignoreCase);
  if (matcher === undefined) return undefined;
  return { negative, folderOnly, nameOnly, matcher };
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
