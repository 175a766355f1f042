// How an `@rlm` answer ends, in words built here (no `vscode` import) so they can be tested: the
// footer of figures, a stop ("Stopped by you after 2 turns", with what was done so far), and a
// failure's sentence. The figures are the live line's (src/shared/text/liveLine.ts), so the chat's cost
// reads as the status bar's and the view's ("local (no charge)", never "$0.00" for a local run).
import { formatFigures } from '../../shared/text/liveLine';
import { plural } from '../../shared/text/format';
import type { RunLiveLine } from '../../shared/sidebarState';
import { describeOutcome } from '../errors/outcomeWording';

/** "_4 turns · 9 sub-calls · 12k tokens · local (no charge) · qwen2.5-coder_": turns completed, as the view counts them. */
export function footerMarkdown(turns: number, figures: Omit<RunLiveLine, 'turn' | 'activity'>, rootModel: string): string {
  return `\n\n---\n_${plural(turns, 'turn')} · ${formatFigures(figures)} · ${rootModel}_`;
}

/**
 * A run the user stopped: said as a stop, not as an answer, with what it had done. `figures` is
 * undefined when the stop came before the run started (nothing was sent).
 */
export function stoppedMarkdown(turns: number, figures: Omit<RunLiveLine, 'turn' | 'activity'> | undefined): string {
  if (!figures) return '**Stopped by you** before anything was sent.';
  const headline = describeOutcome({ status: 'cancelled', turns }).headline;
  return `**${headline}.** Done so far: ${formatFigures(figures)}.`;
}
