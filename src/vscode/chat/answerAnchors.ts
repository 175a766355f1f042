// Splits an answer's Markdown so that mentions of the run's files (`src/a.ts`, `src/a.ts:12`,
// `a.ts#L3-L9`) can be shown as anchors that open the file at that line. Code blocks are left alone.
// No `vscode` import: the participant turns `file` parts into ChatResponseStream.anchor calls.
import type { GatheredContext } from '../run/runLauncher';

type AnswerPart = { kind: 'markdown'; text: string } | { kind: 'file'; path: string; line?: number; endLine?: number; text: string };

const MENTION = /(`?)((?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[A-Za-z0-9]+)(?:(?::|#L)(\d+)(?:(?:-|-L|:)(\d+))?)?\1/g;

/**
 * `knownPaths` are the paths the run's context had (workspace-relative, POSIX): only these become
 * anchors, matched in full or by their last segments (`loop.ts` for `src/core/loop.ts` when unique).
 */
export function splitAnswer(markdown: string, knownPaths: readonly string[]): AnswerPart[] {
  const resolve = pathResolver(knownPaths);
  const parts: AnswerPart[] = [];
  const pushMarkdown = (text: string): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'markdown') last.text += text;
    else parts.push({ kind: 'markdown', text });
  };
  // Odd segments are fenced code blocks, kept verbatim.
  const segments = markdown.split(/(^```[\s\S]*?^```[^\n]*$)/m);
  segments.forEach((segment, index) => {
    if (index % 2 === 1) {
      pushMarkdown(segment);
      return;
    }
    let at = 0;
    for (const match of segment.matchAll(MENTION)) {
      const path = resolve(match[2] ?? '');
      if (path === undefined) continue;
      pushMarkdown(segment.slice(at, match.index));
      const line = match[3] !== undefined ? Number(match[3]) : undefined;
      const endLine = match[4] !== undefined ? Number(match[4]) : undefined;
      parts.push({ kind: 'file', path, text: match[0].replace(/^`|`$/g, ''), ...(line ? { line } : {}), ...(endLine && line && endLine >= line ? { endLine } : {}) });
      at = (match.index ?? 0) + match[0].length;
    }
    pushMarkdown(segment.slice(at));
  });
  return parts;
}

function pathResolver(knownPaths: readonly string[]): (mention: string) => string | undefined {
  const exact = new Set(knownPaths);
  const bySuffix = new Map<string, string | null>();
  for (const path of knownPaths) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const suffix = segments.slice(i).join('/');
      // null marks an ambiguous suffix (two files named alike): no anchor rather than a wrong one.
      bySuffix.set(suffix, bySuffix.has(suffix) && bySuffix.get(suffix) !== path ? null : path);
    }
  }
  return (mention) => {
    const clean = mention.replace(/^\.\//, '');
    if (exact.has(clean)) return clean;
    return bySuffix.get(clean) ?? undefined;
  };
}

/**
 * The paths an answer may mention: the files bound (listed, or planned for a lazy or streamed
 * folder), else the target's own paths. `single`: one text was asked about (a file, a selection), so
 * every citation is in that one file whatever name it uses.
 */
export function contextPaths(gathered: GatheredContext | undefined): { single: boolean; known: string[] } {
  if (!gathered) return { single: false, known: [] };
  const { source } = gathered;
  const single = source.kind === 'text' || (source.kind === 'plan' && source.plan.shape === 'text');
  const files = source.kind === 'files' ? source.files.map((f) => f.path) : source.kind === 'plan' ? source.plan.files.map((f) => f.path) : [];
  return { single, known: [...new Set(files.length ? files : gathered.target.paths)] };
}

/** Matches an answer's `path:line` mention with the loop's resolved citation of the same lines. */
export function citationKey(single: boolean, path: string, line: number, endLine: number | undefined): string {
  return `${single ? '' : `${path}:`}${line}-${endLine ?? line}`;
}
