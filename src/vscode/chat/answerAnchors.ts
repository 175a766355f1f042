// Splits an answer's Markdown so that mentions of the run's files (`src/a.ts`, `src/a.ts:12`,
// `a.ts#L3-L9`), of a notebook's cells (`analysis.ipynb#cell=3:2`) and of a PDF's pages
// (`design.pdf#page=18:3`) can be shown as anchors that open the file at that line, cell or page. Code
// blocks are left alone. No `vscode` import: the participant turns `file` parts into
// ChatResponseStream.anchor calls.
import type { GatheredContext } from '../run/runLauncher';
import { isNotebookPath } from '../../core/context/notebookJson';
import { isPdfPath, parsePdfPageKey, pdfPageKey } from '../../core/context/pdfPages';
import type { ReferenceLike } from '../../shared/text/referenceLabel';

/** A notebook's cell (`#cell=3:2`, `#cell=3:2-4`, `#cell=3`, `#cell=3-5`) or a PDF's page (`#page=18`, `#page=18:3`). */
type Anchor = { kind: 'cell'; cell: number; endCell?: number; line?: number; endLine?: number } | { kind: 'page'; page: number; line?: number; endLine?: number };

export type AnswerPart = { kind: 'markdown'; text: string } | { kind: 'file'; path: string; line?: number; endLine?: number; anchor?: Anchor; text: string };

// A mention starts where a run of path characters starts: tried at every position inside a long run
// (a model's answer of 40,000 letters), the path's backtracking made this quadratic and held the
// extension host for seconds, for minutes on a megabyte.
// 1: a backtick, 2: the path; then 3-7: `#cell=`/`#page=` with its number, a later cell, a line and an
// end line; or 8-9: `:line` / `#Lline` and an end line.
const MENTION = /(`?)(?<![\w.@/-])((?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[A-Za-z0-9]+)(?:#(cell|page)=(\d{1,7})(?:-(\d{1,7}))?(?::(\d{1,9})(?:-(\d{1,9}))?)?|(?::|#L)(\d+)(?:(?:-|-L|:)(\d+))?)?\1/g;

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
      const text = match[0].replace(/^`|`$/g, '');
      let part: AnswerPart;
      if (match[3] !== undefined) {
        // A cell of something not a notebook, or a page of something not a PDF, is no place to open.
        const anchor = anchorOf(match[3], match.slice(4, 8));
        if (!(anchor.kind === 'cell' ? isNotebookPath(path) : isPdfPath(path))) continue;
        part = { kind: 'file', path, text, anchor };
      } else {
        const line = match[8] !== undefined ? Number(match[8]) : undefined;
        const endLine = match[9] !== undefined ? Number(match[9]) : undefined;
        part = { kind: 'file', path, text, ...(line ? { line } : {}), ...(endLine && line && endLine >= line ? { endLine } : {}) };
      }
      pushMarkdown(segment.slice(at, match.index));
      parts.push(part);
      at = (match.index ?? 0) + match[0].length;
    }
    pushMarkdown(segment.slice(at));
  });
  return parts;
}

/** The cell or page of a mention; numbers of 0 and ends before their starts are dropped, not guessed at. */
function anchorOf(kind: string, [n, endN, line, endLine]: Array<string | undefined>): Anchor {
  const whole = (v: string | undefined): number | undefined => (v !== undefined && Number(v) >= 1 ? Number(v) : undefined);
  const first = whole(n) ?? 1;
  const at = whole(line);
  const to = at !== undefined ? whole(endLine) : undefined;
  const lines = { ...(at !== undefined ? { line: at } : {}), ...(to !== undefined && at !== undefined && to > at ? { endLine: to } : {}) };
  if (kind === 'page') return { kind: 'page', page: first, ...lines };
  const last = whole(endN);
  return { kind: 'cell', cell: first, ...(last !== undefined && last > first ? { endCell: last } : {}), ...lines };
}

function pathResolver(knownPaths: readonly string[]): (mention: string) => string | undefined {
  // A PDF asked about alone is bound as its pages (`design.pdf#page=3`): a mention names the file.
  const files = knownPaths.map((path) => parsePdfPageKey(path)?.file ?? path);
  const exact = new Set(files);
  const bySuffix = new Map<string, string | null>();
  for (const path of exact) {
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

/**
 * A mention of a cell or page as the reference it would be: a page's path is its page key and its line
 * the line within the page (1 for the page as a whole), as the loop records a cited page.
 */
export function mentionReference(path: string, anchor: Anchor): ReferenceLike & { line: number } {
  if (anchor.kind === 'page') return { path: pdfPageKey(path, anchor.page), line: anchor.line ?? 1, ...(anchor.endLine !== undefined ? { endLine: anchor.endLine } : {}) };
  const { kind: _kind, ...cell } = anchor;
  return { path, line: 1, notebookCell: cell };
}
