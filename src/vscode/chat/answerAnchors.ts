// Splits an answer's Markdown so that mentions of the run's files (`src/a.ts`, `src/a.ts:12`,
// `a.ts#L3-L9`), of a notebook's cells (`analysis.ipynb#cell=3:2`) and of a PDF's pages
// (`design.pdf#page=18:3`) can be shown as anchors that open the file at that line, cell or page. The
// mentions are found by the grammar every surface uses (shared/text/mentionGrammar.ts); here any of the
// run's files may be named, with or without a line. Code blocks are left alone. No `vscode` import: the
// participant turns `file` parts into ChatResponseStream.anchor calls.
import type { GatheredContext } from '../run/runLauncher';
import { isNotebookPath } from '../../core/context/notebookJson';
import { isPdfPath, parsePdfPageKey, pdfPageKey } from '../../core/context/pdfPages';
import type { ReferenceLike } from '../../shared/text/referenceLabel';
import { findMentions, mentionPath } from '../../shared/text/mentionGrammar';
import type { MentionAnchor } from '../../shared/text/mentionGrammar';

export type AnswerPart = { kind: 'markdown'; text: string } | { kind: 'file'; path: string; line?: number; endLine?: number; anchor?: MentionAnchor; text: string };

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
    for (const mention of findMentions(segment)) {
      const path = resolve(mention.path);
      if (path === undefined) continue;
      const { anchor, line, endLine, text } = mention;
      // A cell of something not a notebook, or a page of something not a PDF, is no place to open.
      if (anchor && !(anchor.kind === 'cell' ? isNotebookPath(path) : isPdfPath(path))) continue;
      pushMarkdown(segment.slice(at, mention.start));
      parts.push({ kind: 'file', path, text, ...(anchor ? { anchor } : { ...(line !== undefined ? { line } : {}), ...(endLine !== undefined ? { endLine } : {}) }) });
      at = mention.end;
    }
    pushMarkdown(segment.slice(at));
  });
  return parts;
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
    const clean = mentionPath(mention);
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
export function mentionReference(path: string, anchor: MentionAnchor): ReferenceLike & { line: number } {
  if (anchor.kind === 'page') return { path: pdfPageKey(path, anchor.page), line: anchor.line ?? 1, ...(anchor.endLine !== undefined ? { endLine: anchor.endLine } : {}) };
  const { kind: _kind, ...cell } = anchor;
  return { path, line: 1, notebookCell: cell };
}
