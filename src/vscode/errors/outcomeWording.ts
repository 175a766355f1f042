// Words for how a run ended, for every surface at once: a stop by the user is not an error (neutral,
// "Stopped by you after 3 turns"), a limit is a limit (which one, and the setting to raise), and a
// failure says its cause and the next step. Works on recorded runs too, including files written
// before the stable error kinds. No `vscode` import.
import type { RecordedRunError } from '../../core/trajectory/events';
import { plural } from '../../shared/text/format';
import type { RunOutcome } from '../../shared/runOutcomeView';
import { describeRunError, LIMITS, limitReached } from './describeError';
import type { UserMessage } from './describeError';

interface OutcomeInput {
  status: 'completed' | 'forced' | 'limit' | 'cancelled' | 'error' | 'running' | 'incomplete';
  error?: RecordedRunError;
  /** Root turns the run completed (src/core/trajectory/turnCount.ts); the turn under way while it runs. */
  turns: number;
}

/** Kinds a user's Stop is recorded with (older files carry the class name). */
const USER_STOP_KINDS = new Set(['cancelled', 'RunCancelledError']);

function isUserStop(error: OutcomeInput['error']): boolean {
  return error === undefined || USER_STOP_KINDS.has(error.kind);
}

function after(turns: number): string {
  // Only what happened counts: a run that failed in its first model call completed no turn.
  return turns === 0 ? 'before any turn finished' : `after ${plural(turns, 'turn')}`;
}

function limitOutcome(input: OutcomeInput, answered: boolean): RunOutcome {
  const limit = input.error?.limit;
  const named = limit ? LIMITS[limit] : undefined;
  const name = named?.name ?? 'a limit';
  const raise = named?.setting ? ` Raise ${named.setting} to let runs go further.` : '';
  const reached = limitReached(limit, input.error?.message ?? '');
  if (answered) {
    return { tone: 'warning', headline: `Best answer at the ${name}, ${after(input.turns)}`, detail: `${reached} The model was asked for its best answer then.${raise}`, askAgain: false, ...(named?.setting ? { setting: named.setting } : {}) };
  }
  return { tone: 'warning', headline: `Stopped at the ${name} ${after(input.turns)}, without an answer`, detail: `${reached}${raise}`, askAgain: true, ...(named?.setting ? { setting: named.setting } : {}) };
}

export function describeOutcome(input: OutcomeInput): RunOutcome {
  switch (input.status) {
    case 'running':
      return { tone: 'running', headline: input.turns === 0 ? 'Starting' : `Running, turn ${input.turns}`, askAgain: false };
    case 'completed':
      return { tone: 'ok', headline: `Answered in ${plural(input.turns, 'turn')}`, askAgain: false };
    case 'forced':
      return limitOutcome(input, true);
    case 'limit':
      return limitOutcome(input, false);
    case 'cancelled':
      if (isUserStop(input.error)) return { tone: 'neutral', headline: `Stopped by you ${after(input.turns)}`, askAgain: true };
      return { tone: 'warning', headline: `Stopped ${after(input.turns)}`, detail: `${sentence(input.error?.message ?? 'the run was stopped')}`, askAgain: true };
    case 'error': {
      const message = describeRunError(input.error ?? { kind: 'internal', message: 'the run ended with no reason recorded' });
      return { tone: 'error', headline: `Failed ${after(input.turns)}`, detail: message.text, askAgain: true, ...stepsOf(message) };
    }
    case 'incomplete':
      return { tone: 'warning', headline: `Incomplete: the recording ends ${after(input.turns)}`, detail: 'The file ends before the run did: VS Code or the CLI may have quit while it ran.', askAgain: true };
  }
}

/** The message's buttons, when it has any (a RunOutcome without steps offers none). */
export function stepsOf(message: UserMessage): Pick<RunOutcome, 'steps' | 'keySlot'> {
  return { ...(message.steps.length ? { steps: [...message.steps] } : {}), ...(message.keySlot ? { keySlot: { ...message.keySlot } } : {}) };
}

function sentence(text: string): string {
  const t = text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
