// A chat conversation: earlier questions and answers go to the root as prior turns, and follow-ups
// about the same target reuse the conversation's warm REPL session (its variables survive).
import type { BridgeRouter, ReplFactory } from '../../core/repl/replFactory';
import type { RunStatus } from '../../core/trajectory/events';
import type { ReplSession } from '../../core/repl/replTypes';
import type { UserCellNote } from '../../core/loop/loopTypes';

interface ConversationDeps {
  repl: () => Promise<ReplFactory>;
  createBridgeRouter: () => Promise<BridgeRouter>;
}

interface RunSessionOptions {
  /** Still starting on a conversation's first question: the run does not wait for it to ask. */
  session: ReplSession | Promise<ReplSession>;
  sessionBridge: BridgeRouter;
  priorTurns: Array<{ question: string; answer: string }>;
  /** The user's own cells since the last question: the root is shown them with the next one. */
  userCells?: UserCellNote[];
}

/** The warm session as a user's cell needs it. */
export interface WarmSession {
  session: ReplSession;
  router: BridgeRouter;
  factory: ReplFactory;
}

/** Most prior turns given to the root; older ones are dropped (the oldest first). */
const MAX_PRIOR_TURNS = 10;

export class Conversation {
  /** `ready` once the session has started; until then only `session`, its start, is known. */
  private warm: { contextKey: string; session: Promise<ReplSession>; ready?: ReplSession; router: BridgeRouter; factory: ReplFactory } | undefined;
  private readonly turns: Array<{ question: string; answer: string }> = [];
  /** Targets whose "Bind N files?" the user already answered with Ask in this conversation. */
  private readonly confirmed = new Set<string>();
  /** The user's cells since the last question was asked. */
  private userCells: UserCellNote[] = [];
  /** Runs using the session now (prepared, not finished): a user's cell waits for them. */
  private running = 0;
  private readonly listeners = new Set<() => void>();
  /** Settles when the user's cell running now ends: a question waits for it (one REPL, one cell at a time). */
  private userCell: Promise<void> | undefined;

  constructor(private readonly deps: ConversationDeps) {}

  get priorTurns(): ReadonlyArray<{ question: string; answer: string }> {
    return this.turns;
  }

  get hasWarmSession(): boolean {
    return this.warm !== undefined;
  }

  /** True while a question of this conversation is using the session. */
  get busy(): boolean {
    return this.running > 0;
  }

  /** The warm session, if any (a user's cell runs in it). */
  get warmSession(): WarmSession | undefined {
    return this.warm?.ready && { session: this.warm.ready, router: this.warm.router, factory: this.warm.factory };
  }

  /** Told when the session ends or a question starts or finishes using it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The session for a run about `contextKey`: the warm one when the target is unchanged, else a new one. */
  async prepare(contextKey: string, signal?: AbortSignal): Promise<RunSessionOptions> {
    while (this.userCell) await this.userCell;
    if (this.warm && this.warm.contextKey !== contextKey) await this.endSession();
    if (!this.warm) {
      const factory = await this.deps.repl();
      const router = await this.deps.createBridgeRouter();
      // Not awaited: a REPL start takes seconds, and the run's first request and its live view need
      // none of it (the run waits for the session only to bind `context`).
      const session = factory.acquire({ bridge: router.handler, ...(signal ? { signal } : {}) });
      const warm: NonNullable<Conversation['warm']> = { contextKey, session, router, factory };
      this.warm = warm;
      session.then(
        (ready) => (warm.ready = ready),
        // The run that waited for it fails with the cause; the next question starts a new one.
        () => {
          if (this.warm === warm) this.warm = undefined;
        },
      );
    }
    // The user's cells belong with this question; a later one is told of cells run after it.
    const userCells = this.userCells;
    this.userCells = [];
    this.running += 1;
    this.changed();
    return { session: this.warm.session, sessionBridge: this.warm.router, priorTurns: this.turns.slice(-MAX_PRIOR_TURNS), ...(userCells.length ? { userCells } : {}) };
  }

  /** The session is running a user's cell until the returned function is called; questions wait. */
  claim(): () => void {
    let done!: () => void;
    const claimed = new Promise<void>((resolve) => (done = resolve));
    this.userCell = claimed;
    this.running += 1;
    this.changed();
    return () => {
      if (this.userCell === claimed) this.userCell = undefined;
      this.running = Math.max(0, this.running - 1);
      done();
      this.changed();
    };
  }

  /** A cell the user ran in the session: the next question's root sees it. */
  noteUserCell(note: UserCellNote): void {
    this.userCells.push(note);
  }

  /** Takes over the answered turns of a conversation shown again after a window reload. */
  restoreTurns(turns: ReadonlyArray<{ question: string; answer: string }>): void {
    this.turns.push(...turns.slice(-MAX_PRIOR_TURNS));
  }

  /** True when the user already confirmed sending `contextKey` in this conversation: follow-ups do not ask again. */
  isConfirmed(contextKey: string): boolean {
    return this.confirmed.has(contextKey);
  }

  markConfirmed(contextKey: string): void {
    this.confirmed.add(contextKey);
  }

  /** Records a finished run. A failed run's session is not trusted for the next question. */
  async finish(question: string, status: RunStatus, answer: string | undefined): Promise<void> {
    if (answer !== undefined && (status === 'completed' || status === 'forced' || status === 'limit')) {
      this.turns.push({ question, answer });
    }
    this.running = Math.max(0, this.running - 1);
    if (status === 'error') await this.endSession();
    this.changed();
  }

  async endSession(): Promise<void> {
    const warm = this.warm;
    this.warm = undefined;
    this.userCells = [];
    const session = warm && (await warm.session.catch(() => undefined));
    if (warm && session) await warm.factory.release(session).catch(() => undefined);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Ends the REPL and forgets the turns. */
  async end(): Promise<void> {
    this.turns.length = 0;
    this.confirmed.clear();
    await this.endSession();
  }
}
