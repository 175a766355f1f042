// What a turn is about, for the outline and the placeholders: the model's stated intent (the first
// sentence it wrote before its code), else the cell's first meaningful line: a comment's words, or
// the first statement that is not an import. "2 n = 20" tells nobody anything; "Count the errors
// per service" does. No `vscode` import.
import type { TurnNode } from '../../core/trajectory/treeTypes';
import { clip, firstSentence, markdownToPlain } from '../../shared/text/plainText';

/** Only the start of a long model text is read: the intent comes first. */
const SCAN_CHARS = 2000;
const MAX_LABEL = 80;

export function turnLabel(turn: Pick<TurnNode, 'modelText' | 'cells'>): string {
  const text = (turn.modelText ?? '').slice(0, SCAN_CHARS);
  const prose = markdownToPlain(text.split(/^ {0,3}(?:```|~~~)/m)[0] ?? '');
  const intent = firstSentence(prose, MAX_LABEL);
  if (intent && !/^(FINAL|FINAL_VAR)\(/.test(intent)) return intent;
  const code = turn.cells[0]?.code;
  if (code !== undefined) return codeLabel(code);
  return intent;
}

/** The first comment's words, or the first line that is not blank, an import or a bare print of a name. */
export function codeLabel(code: string): string {
  const lines = code.split('\n').slice(0, 200).map((l) => l.trim()).filter((l) => l !== '');
  const comment = lines.find((l) => /^#+\s*\S/.test(l) && !/^#!/.test(l));
  if (comment && lines.indexOf(comment) <= 2) return clip(comment.replace(/^#+\s*/, ''), MAX_LABEL);
  const statement = lines.find((l) => !/^(import|from)\s/.test(l) && !l.startsWith('#')) ?? lines[0] ?? '';
  return clip(statement, MAX_LABEL);
}
