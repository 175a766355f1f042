// Which workspace file a typed `#file:NAME` means, from the workspace's relative paths: the path
// itself ("src/retry.ts"), else every file whose path ends with it ("retry.ts", "core/retry.ts"),
// else the same ignoring case. One match is the file; several are named back to the person, who
// picks by typing more of the path. No `vscode` import.

type TypedFileMatch = { kind: 'one'; path: string } | { kind: 'many'; paths: string[] } | { kind: 'none' };

/** "./src\\retry.ts" → "src/retry.ts". */
export function normalizeTypedName(name: string): string {
  return name.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

export function matchTypedFile(name: string, candidates: readonly string[]): TypedFileMatch {
  const wanted = normalizeTypedName(name);
  if (wanted === '') return { kind: 'none' };
  const paths = [...new Set(candidates.map(normalizeTypedName))].sort();
  if (paths.includes(wanted)) return { kind: 'one', path: wanted };
  const endsWith = (p: string, w: string): boolean => p === w || p.endsWith(`/${w}`);
  let found = paths.filter((p) => endsWith(p, wanted));
  if (found.length === 0) found = paths.filter((p) => endsWith(p.toLowerCase(), wanted.toLowerCase()));
  if (found.length === 1) return { kind: 'one', path: found[0]! };
  return found.length === 0 ? { kind: 'none' } : { kind: 'many', paths: found };
}

/** The sentence for a name that does not say which file, or names none. */
export function typedFileProblem(name: string, match: Exclude<TypedFileMatch, { kind: 'one' }>): string {
  if (match.kind === 'none') {
    return `No file named "${name}" is in the workspace (files excluded by files.exclude and search.exclude are not searched). Check the name, or open the file and ask with @rlm /file.`;
  }
  const shown = match.paths.slice(0, 5);
  const more = match.paths.length > shown.length ? `, and ${match.paths.length - shown.length} more` : '';
  return `"${name}" matches ${match.paths.length} files in the workspace: ${shown.join(', ')}${more}. Type more of the path to say which, e.g. #file:${shown[0]}.`;
}
