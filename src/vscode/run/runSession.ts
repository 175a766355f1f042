// The REPL a run leaves behind, for the user's own cells from the run's view. The run's conversation
// keeps the session (a chat's, or one of the run's own); it stays open while a view holds it and the
// conversation still has it, and ends with the last view (an own conversation is ended then, a chat's
// lives on with the chat). The cells' records join the run's (file and views). No `vscode` import.
import type { RunLimits, SubCallCacheUse, UserCellNote } from '../../core/loop/loopTypes';
import type { UserCellOptions, UserCellResult } from '../../core/loop/userCell';
import type { ModelClient } from '../../core/models/modelTypes';
import type { ReplSession } from '../../core/repl/replTypes';
import type { UserCellState } from '../../shared/trajectoryProtocol';
import type { UserCellHost } from './liveRunTypes';
import type { ActiveRun } from './activeRun';
import type { WarmSession } from './conversation';

/** Where the run's REPL is kept: a chat's Conversation, or the run's OwnSession. */
interface SessionSource {
  readonly warmSession: WarmSession | undefined;
  /** A question (or a user's cell) is using the session now. */
  readonly busy: boolean;
  onChange(listener: () => void): () => void;
  /** Marks the session in use by a user's cell until the returned function is called. */
  claim(): () => void;
  noteUserCell(note: UserCellNote): void;
  end(): Promise<void>;
}

interface RunSessionDeps {
  run: ActiveRun;
  conversation: SessionSource;
  /** The session is this run's alone: it ends when no view holds it any more (a chat's lives on). */
  owned: boolean;
  runUserCell: (options: UserCellOptions) => Promise<UserCellResult>;
  sub: ModelClient;
  root: ModelClient;
  limits: Partial<RunLimits>;
  subCallCache?: SubCallCacheUse;
}

/** A cell asked for when it cannot run; the message says why, for the view. */
class UserCellUnavailableError extends Error {
  constructor(readonly state: Exclude<UserCellState, { status: 'ready' }>) {
    super(state.status === 'running' ? 'A cell of yours is already running: wait for it or stop it.' : state.reason);
    this.name = 'UserCellUnavailableError';
  }
}

export class RunSession implements UserCellHost {
  /** The session the run used: a later question of the chat may replace it (then this run's is gone). */
  private session: ReplSession | undefined;
  private holds = 0;
  private ended = false;
  private finished = false;
  private cell: AbortController | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: RunSessionDeps) {
    this.session = deps.conversation.warmSession?.session;
    this.unsubscribe = deps.conversation.onChange(() => {
      // A chat's REPL that ended (new conversation, another target, a failed question) ends this run's.
      if (this.finished && !deps.owned && deps.conversation.warmSession?.session !== this.session) void this.end();
      this.changed();
    });
    void deps.run.result.then(() => {
      // A run's own REPL is acquired by the loop as it starts, so it is known by the end.
      this.session ??= deps.conversation.warmSession?.session;
      this.finished = true;
      if (deps.owned ? this.holds === 0 : deps.conversation.warmSession?.session !== this.session) void this.end();
      this.changed();
    });
  }

  state(): UserCellState {
    if (this.cell) return { status: 'running' };
    if (!this.finished) return { status: 'waiting', reason: 'The run is using its REPL: your cells can run there once it has ended.' };
    const warm = this.deps.conversation.warmSession;
    const replayable = this.deps.run.trajectoryPath !== undefined;
    if (this.ended || !warm || warm.session !== this.session || !this.session) {
      return { status: 'gone', replayable, reason: this.goneReason() };
    }
    if (this.deps.conversation.busy) return { status: 'waiting', reason: 'A follow-up question is using this REPL: your cells can run there once it has ended.' };
    return { status: 'ready' };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  retain(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      // A chat's REPL lives on with the chat (its later views and questions); a run's own ends here.
      if (this.holds === 0 && this.finished && this.deps.owned) void this.end();
    };
  }

  async run(code: string): Promise<void> {
    const state = this.state();
    if (state.status !== 'ready') throw new UserCellUnavailableError(state);
    const warm = this.deps.conversation.warmSession!;
    const { run, sub, root, limits, subCallCache } = this.deps;
    const controller = new AbortController();
    this.cell = controller;
    const release = this.deps.conversation.claim();
    this.changed();
    try {
      const result = await this.deps.runUserCell({
        code,
        runId: run.runId,
        turn: nextTurn(run),
        lastSeq: run.lastRecordSeq,
        session: warm.session,
        sessionBridge: warm.router,
        sub,
        root,
        repl: warm.factory,
        limits,
        ...(subCallCache ? { subCallCache } : {}),
        signal: controller.signal,
        sink: (record) => run.append(record),
      });
      this.deps.conversation.noteUserCell(result.note);
    } finally {
      this.cell = undefined;
      release();
      this.changed();
    }
  }

  stop(): void {
    this.cell?.abort(new Error('Stopped by the user'));
  }

  private goneReason(): string {
    if (this.deps.owned) return this.ended ? 'This run\'s REPL was closed with its view.' : 'This run\'s REPL has ended (the run failed).';
    return 'This run\'s REPL has ended with its chat (a new conversation, a question about another target, or a failed run).';
  }

  private async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.cell?.abort(new Error('the view was closed'));
    this.unsubscribe();
    if (this.deps.owned) await this.deps.conversation.end();
    await this.deps.run.closeRecord();
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A closed view must not stop the others hearing of it.
      }
    }
  }
}

/** The turn after every turn the run has so far (the root's, and the user's cells'). */
function nextTurn(run: ActiveRun): number {
  let last = 0;
  for (const record of run.records()) {
    if ((record.type === 'turn.started' || record.type === 'cell.started') && record.runId === run.runId) last = Math.max(last, record.turn);
  }
  return last + 1;
}
