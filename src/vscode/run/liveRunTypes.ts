// The shape the extension gives the trajectory view to watch a run as it happens. Kept in its own
// file (no `vscode` import) so the host-side session logic and its tests can use it in plain Node.
import type { EventRecord } from '../../core/trajectory/events';
import type { ApplyResult, TreeBuilder } from '../../core/trajectory/treeBuilder';

/**
 * A run's own tree, kept by the one reducer every surface reads (status bar, notification, chat, view):
 * a view that follows it shows the same figures as the others, and at the same moment.
 */
export interface SharedRunTree {
  readonly builder: TreeBuilder;
  /** Each later record, after the shared tree applied it, with what changed. */
  subscribe(listener: (record: EventRecord, applied: ApplyResult) => void): () => void;
  /** Fires when every surface should redraw: within TICK_MS of each record (activeRun.ts), and at the end. */
  onTick(listener: () => void): () => void;
}
import type { UserCellState } from '../../shared/trajectoryProtocol';

/**
 * The user's own cells in a run's REPL, for the run's view: the REPL stays open while a view holds it
 * (retain) and the run's conversation keeps it; the cells' records join the run's.
 */
export interface UserCellHost {
  state(): UserCellState;
  /** Told whenever state() may have changed. */
  onChange(listener: () => void): () => void;
  /** Runs `code` now; throws when state() is not 'ready' (its reason is the message). */
  run(code: string): Promise<void>;
  /** Interrupts the user's cell running now, if any. */
  stop(): void;
  /** Keeps the REPL open while a view is open; call the returned function when it closes. */
  retain(): () => void;
}

/**
 * A run in progress, as the view sees it. The extension wraps its RlmRun in this.
 *
 * - `records()` returns every record emitted so far, in order (the view replays them when it opens
 *   or is re-created, so a panel opened mid-run shows the whole run). `model.delta` and
 *   `cell.output` records may be included or not; they only feed the "streaming" line.
 * - `subscribe(listener)` delivers each later record once, in order, and returns an unsubscribe
 *   function. Records already returned by `records()` must not be delivered again.
 * - `stop()` asks the run to stop (the view's Stop button); the run then emits its `run.finished`.
 */
export interface LiveRun {
  readonly runId: string;
  records(): readonly EventRecord[];
  subscribe(listener: (record: EventRecord) => void): () => void;
  stop(): void;
  /** The .rlm.jsonl being written, when there is one: shown in the header and used by export. */
  readonly trajectoryPath?: string;
  /** The conversation the question belongs to: its follow-ups reuse its view (one tab per conversation). */
  readonly conversationId?: string | undefined;
  /** The question, for the panel's title before the first record arrives. */
  readonly question?: string;
  /** When present, a view follows this tree instead of building its own from the records. */
  readonly shared?: SharedRunTree;
  /** Present when the user can run their own cells in the run's REPL. */
  readonly userCells?: UserCellHost;
}

/** A question being asked, before its run exists: what its view shows at once. */
export interface StartingRun {
  question: string;
  /** Its conversation: a follow-up shows in the conversation's view from its first moment. */
  conversationId?: string;
  /** The configured models, as the header names them. */
  rootModel?: string;
  subModel?: string;
  /** What the question is about, in words ("file notes.txt (1 file, 24 B)", "the workspace"). */
  target?: string;
  /** The view's Stop while starting: gives up the question before anything is sent. */
  stop(): void;
}

/** The view of a starting question: handed its run once started, or abandoned when none starts. */
export interface PendingView {
  attach(run: LiveRun): void;
  abandon(): void;
}
