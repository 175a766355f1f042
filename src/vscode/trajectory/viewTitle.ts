// A trajectory view's tab title: the run's question, clipped at a word, so tabs tell questions apart
// (Copilot Chat titles its sessions by the question too). A fork says so: it asks its original's
// question again, and two tabs with one title cannot be told apart. No `vscode` import: unit-tested.
import type { RunNode } from '../../core/trajectory/treeTypes';
import { visibleControls } from '../../shared/text/untrustedText';

/** Longest title, in characters, before it is clipped: what a tab shows without growing wide. */
const MAX_TITLE_CHARS = 40;

/** `text` cut at the last word boundary before `max` characters (at `max` when one word is longer), with "…". */
export function clipAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // A break far back would waste most of the room: cut the word instead.
  const clipped = space >= max * 0.6 ? cut.slice(0, space) : cut;
  return `${clipped.replace(/[\s,;:.–—-]+$/, '')}…`;
}

/** "How many lines and words?", "Fork: How many errors are in…", or "RLM run" before the question is known. */
export function viewTitle(run: Pick<RunNode, 'question' | 'continuedFrom'>): string {
  const fork = run.continuedFrom?.mode === 'fork';
  const prefix = fork ? 'Fork: ' : '';
  // A tab title is plain text, but a recorded question is hostile: controls (ESC, a right-to-left
  // override that reorders the title) are shown as escapes.
  const question = visibleControls(run.question.replace(/\s+/g, ' ').trim());
  if (!question) return fork ? 'Fork of an RLM run' : 'RLM run';
  return prefix + clipAtWord(question, MAX_TITLE_CHARS - prefix.length);
}
