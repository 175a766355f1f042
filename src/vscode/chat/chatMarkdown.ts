// What the @rlm chat shows of a run's text, built here (no `vscode` import) so it can be tested.
// The answer, the partial findings, error messages and progress lines are written by a model
// steered by the file, or quote its output: each goes through the untrusted-text rules, so an escape
// sequence (a terminal hyperlink, a colour code) shows as text and never becomes a link or styling.
import { fencedBlock, linkSafeMarkdown, visibleControls } from '../../shared/text/untrustedText';

/** A piece of the answer, as Markdown that keeps the model's formatting and only safe links. */
export function answerMarkdown(text: string): string {
  return linkSafeMarkdown(text);
}

/** The run's last output when it ended without an answer: a cell's output, so shown as a code block (no links at all). */
export function partialFindingsMarkdown(partial: string): string {
  return `\n\nWhat it had found so far:\n\n${fencedBlock(partial, 'text')}`;
}

/** An error's sentence; its detail may quote a server or a cell. */
export function errorMarkdown(message: string): string {
  return linkSafeMarkdown(message);
}

/** A progress line (plain text in the chat), with control characters visible. */
export function progressText(line: string): string {
  return visibleControls(line);
}
