// The shape the extension gives the trajectory view to watch a run as it happens. Kept in its own
// file (no `vscode` import) so the host-side session logic and its tests can use it in plain Node.
import type { EventRecord } from '../../core/trajectory/events';
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
  /** Present when the user can run their own cells in the run's REPL. */
  readonly userCells?: UserCellHost;
}
