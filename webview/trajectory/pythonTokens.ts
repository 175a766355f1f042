// Python syntax highlighting as plain data: highlight.js (core + python only) tokenizes, and a
// custom emitter collects text runs with their scope instead of HTML, so the DOM is built from text
// nodes and no code text is ever parsed as markup. Pure: unit-tested.
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import type { Emitter } from 'highlight.js';

export interface Segment {
  text: string;
  /** highlight.js scope, e.g. "keyword", "string", "title.function"; undefined for plain text. */
  scope?: string;
}

/** One source line as segments. */
export type CodeLine = Segment[];

class SegmentEmitter implements Emitter {
  readonly segments: Segment[] = [];
  private readonly scopes: string[] = [];

  addText(text: string): void {
    const scope = this.scopes[this.scopes.length - 1];
    this.segments.push(scope ? { text, scope } : { text });
  }
  startScope(name: string): void {
    this.scopes.push(name);
  }
  endScope(): void {
    this.scopes.pop();
  }
  // highlight.js 11 calls these older names for mode scopes.
  openNode(name: string): void {
    this.startScope(name);
  }
  closeNode(): void {
    this.endScope();
  }
  __addSublanguage(emitter: Emitter): void {
    if (emitter instanceof SegmentEmitter) this.segments.push(...emitter.segments);
  }
  finalize(): void {}
  toHTML(): string {
    // Never used: the view builds DOM from `segments`.
    return '';
  }
}

const highlighter = hljs.newInstance();
highlighter.registerLanguage('python', python);
highlighter.configure({ __emitter: SegmentEmitter, ignoreUnescapedHTML: true });

/** Past this size highlighting is skipped: plain text is fast and a huge cell is rarely read line by line. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

/** Splits highlighted Python into lines of segments (a segment spanning lines is split). */
export function highlightPython(code: string): CodeLine[] {
  let segments: Segment[];
  if (code.length > MAX_HIGHLIGHT_CHARS) {
    segments = [{ text: code }];
  } else {
    const result = highlighter.highlight(code, { language: 'python', ignoreIllegals: true });
    segments = (result._emitter as unknown as SegmentEmitter).segments;
  }
  const lines: CodeLine[] = [[]];
  for (const seg of segments) {
    const parts = seg.text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1]!.push(seg.scope ? { text: part, scope: seg.scope } : { text: part });
    });
  }
  return lines;
}
