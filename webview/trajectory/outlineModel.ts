// What an outline entry says and how it is marked. Pure: unit-tested.
import type { TurnSummary } from '../../src/shared/trajectoryProtocol';
import { formatDuration, plural } from '../../src/shared/text/format';
import { callCost } from './viewFormat';

export interface OutlineLabel {
  /** The turn number, shown muted before the text. */
  number: string;
  /** What the turn is about, with its markers. */
  text: string;
  /** What a screen reader announces: who, then the text ("Turn 7: …", "Your cell: …"). */
  spoken: string;
  classes: string[];
}

export function outlineLabel(s: TurnSummary): OutlineLabel {
  const classes = ['outline-entry'];
  if (s.errors) classes.push('has-error');
  if (s.final) classes.push('is-final');
  if (s.running) classes.push('is-running');
  if (s.author === 'user') classes.push('is-user');
  const marks = `${s.errors ? '⚠ ' : ''}${s.final ? '✓ ' : ''}${s.running ? '… ' : ''}`;
  // A user's cell reads as theirs: "You" where a root turn has its number.
  const about = aboutTurn(s);
  const text = `${marks}${about}`;
  const who = whoseTurn(s);
  return { number: s.author === 'user' ? 'You' : String(s.turn), text, spoken: `${who}: ${text}`, classes };
}

/** The entry's tooltip: what the turn is about and its figures. Built when the pointer reaches the entry. */
export function outlineTitle(s: TurnSummary, local = false): string {
  const duration = s.finishedAt !== undefined ? formatDuration(s.finishedAt - s.startedAt) : 'running';
  const about = aboutTurn(s);
  const who = whoseTurn(s);
  return `${who}: ${about}\n${[plural(s.cells, 'cell'), plural(s.subCalls, 'sub-call'), plural(s.errors, 'error'), callCost(s.costUsd, local, s.includedInPlan === true), duration].join(', ')}`;
}

function whoseTurn(s: TurnSummary): string {
  return s.author === 'user' ? 'Your cell' : `Turn ${s.turn}`;
}

function aboutTurn(s: TurnSummary): string {
  return s.label || s.firstLine || (s.running ? 'thinking' : 'no code');
}

/** The one line an unloaded turn shows until its body arrives. */
export function placeholderText(s: TurnSummary): string {
  const parts = [s.author === 'user' ? 'You' : `Turn ${s.turn}`, plural(s.cells, 'cell'), plural(s.subCalls, 'sub-call')];
  if (s.errors) parts.push(plural(s.errors, 'error'));
  const about = s.label || s.firstLine;
  return `${parts.join(' · ')}${about ? ` — ${about}` : ''}`;
}
