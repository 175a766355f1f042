// Brace expansion of glob patterns, shared by VS Code's exclude settings and the paths an agent names.

/** Expands `a{b,c}d` into `abd`, `acd` (nested groups too). Unbalanced braces are kept literally. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (ch === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k < bounds.length - 1; k++) {
    const option = pattern.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
    for (const expanded of expandBraces(head + option + tail)) out.push(expanded);
  }
  return out;
}
