// What a "turn" is, for every count a person reads ("Answered in 4 turns", TURNS 4, "4 turns · 9
// sub-calls", "Failed after 1 turn"): one reply of the root model that arrived. The user's own cells
// after a run are not turns of the loop, and a turn whose request is still out (or failed) has not
// happened yet. One definition, so the headline and the figures never disagree.
import type { TurnNode } from './treeTypes';

/** True for a root-model turn whose reply arrived (a recorded model.output). */
function isCompletedTurn(turn: Pick<TurnNode, 'author' | 'usage'>): boolean {
  return turn.author !== 'user' && turn.usage !== undefined;
}

/** The turns a run completed. */
export function completedTurns(run: { turns: ReadonlyArray<Pick<TurnNode, 'author' | 'usage'>> }): number {
  return run.turns.filter(isCompletedTurn).length;
}

/**
 * The turn figure of a run as shown: while it runs, the turn under way counts ("Running, turn 3"), as
 * the status bar's "turn 3" does; once it has ended, only the turns it completed.
 */
export function shownTurns(run: { status: string; turns: ReadonlyArray<Pick<TurnNode, 'author' | 'usage'>> }): number {
  if (run.status === 'running') return run.turns.filter((t) => t.author !== 'user').length;
  return completedTurns(run);
}
