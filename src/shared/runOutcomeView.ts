// How a finished (or running) run reads to a person: one headline and, for limits and failures, the
// cause with the next step. The host words it (src/vscode/errors/outcomeWording.ts); the chat, the
// trajectory view and the notifications show the same words.
import type { KeySlot, NextStep } from './nextStep';

/** ok: answered. neutral: stopped by you. warning: a limit or an incomplete record. error: failed. */
type OutcomeTone = 'ok' | 'neutral' | 'warning' | 'error' | 'running';

export interface RunOutcome {
  tone: OutcomeTone;
  /** "Answered in 3 turns", "Stopped by you after 3 turns", "Stopped at the cost limit after 4 turns". */
  headline: string;
  /** The cause and what to do about it: a plain sentence, for limits and failures. */
  detail?: string;
  /** The run ended without an answer: offer to ask the question again. */
  askAgain: boolean;
  /** The setting that limited the run (e.g. "rlm.maxIterations"), to open from an action. */
  setting?: string;
  /** The buttons for the next step the detail names ("Configure models...", "Set API key..."). */
  steps?: NextStep[];
  /** The server "Set API key..." is about, when the failure named it. */
  keySlot?: KeySlot;
}
