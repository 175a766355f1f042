// Reads a benchmark question the way the scripted root does: from the question text alone, it works
// out what kind of task it faces and the parameters (labels, names, choices) its code needs.


export type ParsedQuestion =
  | { suite: 'niah' }
  | { suite: 'oolong'; kind: 'count'; label: string }
  | { suite: 'oolong'; kind: 'compare'; a: string; b: string }
  | { suite: 'oolong'; kind: 'most-common' }
  | { suite: 'pairs'; condition: 'both' | 'without'; a: string; b: string }
  | { suite: 'code'; kind: 'defines' | 'callers' | 'dependsOn'; name: string; choices: Record<string, string> };

export function parseQuestion(text: string): ParsedQuestion | undefined {
  if (/secret key/i.test(text) && !/source tree/.test(text)) return { suite: 'niah' };
  const pairs = /the user has at least one instance with the label '([^']+)' and (at least one|no) instance with the label '([^']+)'/.exec(text);
  if (/List every pair of user ids/.test(text) && pairs) {
    return { suite: 'pairs', condition: pairs[2] === 'no' ? 'without' : 'both', a: pairs[1]!, b: pairs[3]! };
  }
  const count = /How many records have an instance with the label '([^']+)'/.exec(text);
  if (count) return { suite: 'oolong', kind: 'count', label: count[1]! };
  const compare = /Is the label '([^']+)' more common than, less common than, or the same frequency as the label '([^']+)'/.exec(text);
  if (compare) return { suite: 'oolong', kind: 'compare', a: compare[1]!, b: compare[2]! };
  if (/Which label is the most common/.test(text)) return { suite: 'oolong', kind: 'most-common' };
  const choices: Record<string, string> = {};
  for (const m of text.matchAll(/^([A-D])\) (.*)$/gm)) choices[m[1]!] = m[2]!.trim();
  const defines = /Which file defines the function `([^`]+)`/.exec(text);
  if (defines) return { suite: 'code', kind: 'defines', name: defines[1]!, choices };
  const callers = /How many files contain a call to `([^`]+)`/.exec(text);
  if (callers) return { suite: 'code', kind: 'callers', name: callers[1]!, choices };
  const dep = /lists `([^`]+)` under "dependencies"/.exec(text);
  if (dep) return { suite: 'code', kind: 'dependsOn', name: dep[1]!, choices };
  return undefined;
}
