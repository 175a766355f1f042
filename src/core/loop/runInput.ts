// What one run of the loop is given, root or child: the run's own part of RunOptions plus what the
// run tree does not hold (its depth, meter and signal, and the parent cell of a child run). Declared
// apart from runDriver.ts so the files that open and drive a run share it without importing each other.
import type { ContextSource, PendingContext, TargetDescription } from '../context/contextTypes';
import type { ReplayInput } from '../continuation/replayPlan';
import type { BridgeRouter } from '../repl/replFactory';
import type { ReplSession } from '../repl/replTypes';
import type { FinalRunAnswer, UserCellNote } from './loopTypes';
import type { UsageMeter } from './usageMeter';

export interface RunInput {
  runId: string;
  question: string;
  /** Pending only for a root run (RunOptions.context); resolved before `context` is bound. */
  context: ContextSource | PendingContext;
  target?: TargetDescription;
  priorTurns?: Array<{ question: string; answer: string }>;
  /** The user's own cells in this session since the last answer, shown to the root with the question. */
  userCells?: UserCellNote[];
  depth: number;
  meter: UsageMeter;
  signal: AbortSignal;
  session?: ReplSession | Promise<ReplSession>;
  sessionBridge?: BridgeRouter;
  parent?: { runId: string; cellId: string; callId: string };
  /** Re-run a recorded run's cells before the first turn (root runs only; see replayer.ts). */
  replay?: ReplayInput;
  /** Root runs only: told the answer before the bookkeeping after it (RunOptions.onAnswer). */
  onAnswer?: (answer: FinalRunAnswer) => void;
}
