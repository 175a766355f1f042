// What an outline entry says and how it is marked. Pure: unit-tested.
import type { TurnSummary } from '../../src/shared/trajectoryProtocol';
import { formatCost, formatDuration } from '../../src/shared/format';

export interface OutlineLabel {
  text: string;
  title: string;
  classes: string[];
}

export function outlineLabel(s: TurnSummary): OutlineLabel {
  const classes = ['outline-entry'];
  if (s.errors) classes.push('has-error');
  if (s.final) classes.push('is-final');
  if (s.running) classes.push('is-running');
  if (s.author === 'user') classes.push('is-user');
  const marks = `${s.errors ? ' ⚠' : ''}${s.final ? ' ✓' : ''}${s.running ? ' …' : ''}`;
  // A user's cell reads as theirs: "You" where a root turn has its number.
  const who = s.author === 'user' ? 'You' : `${s.turn}`;
  const text = `${who}${marks} ${s.firstLine}`.trim();
  const duration = s.finishedAt !== undefined ? formatDuration(s.finishedAt - s.startedAt) : 'running';
  const title = `${s.author === 'user' ? 'Your cell' : `Turn ${s.turn}`}: ${s.cells} cell(s), ${s.subCalls} sub-call(s), ${s.errors} error(s), ${formatCost(s.costUsd, false, s.includedInPlan === true)}, ${duration}`;
  return { text, title, classes };
}

/** The one line an unloaded turn shows until its body arrives. */
export function placeholderText(s: TurnSummary): string {
  const parts = [s.author === 'user' ? 'You' : `Turn ${s.turn}`, `${s.cells} cell${s.cells === 1 ? '' : 's'}`, `${s.subCalls} sub-calls`];
  if (s.errors) parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`);
  return `${parts.join(' · ')}   ${s.firstLine}`;
}
