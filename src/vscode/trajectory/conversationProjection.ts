// The conversation a file holds (a question and its follow-ups, each a top-level run) as the view's
// header shows it: every question and answer with its own figures, and the total. No `vscode` import.
import { describeSession } from '../../core/trajectory/conversationText';
import { conversationTotals } from '../../core/trajectory/treeNodes';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { shownTurns } from '../../core/trajectory/turnCount';
import type { ConversationView } from '../../shared/trajectoryProtocol';
import { preview, totalsView } from './runProjection';

/** Undefined for a file of one run. */
export function conversationView(runs: RunNode[]): ConversationView | undefined {
  if (runs.length < 2) return undefined;
  return {
    runs: runs.map((run, i) => {
      const session = describeSession(run.session, i);
      return {
        runId: run.runId,
        question: preview(run.question, 600),
        ...(run.answer !== undefined && { answer: preview(run.answer, 2000) }),
        status: run.status,
        forced: run.forced,
        iterations: shownTurns(run),
        totals: totalsView(run.totals),
        ...(session !== undefined && { session }),
      };
    }),
    totals: conversationTotals(runs),
  };
}
