// A chat conversation: earlier questions and answers go to the root as prior turns, and follow-ups
// about the same target reuse the conversation's warm REPL session (its variables survive).
import type { BridgeRouter, ReplFactory } from '../../core/loop/loopTypes';
import type { RunStatus } from '../../core/trajectory/events';
import type { ReplSession } from '../../core/repl/replTypes';

interface ConversationDeps {
  repl: () => Promise<ReplFactory>;
  createBridgeRouter: () => Promise<BridgeRouter>;
}

interface RunSessionOptions {
  session: ReplSession;
  sessionBridge: BridgeRouter;
  priorTurns: Array<{ question: string; answer: string }>;
}

/** Most prior turns given to the root; older ones are dropped (the oldest first). */
const MAX_PRIOR_TURNS = 10;

export class Conversation {
  private warm: { contextKey: string; session: ReplSession; router: BridgeRouter; factory: ReplFactory } | undefined;
  private readonly turns: Array<{ question: string; answer: string }> = [];
  /** Targets whose "Bind N files?" the user already answered with Ask in this conversation. */
  private readonly confirmed = new Set<string>();

  constructor(private readonly deps: ConversationDeps) {}

  get priorTurns(): ReadonlyArray<{ question: string; answer: string }> {
    return this.turns;
  }

  get hasWarmSession(): boolean {
    return this.warm !== undefined;
  }

  /** The session for a run about `contextKey`: the warm one when the target is unchanged, else a new one. */
  async prepare(contextKey: string, signal?: AbortSignal): Promise<RunSessionOptions> {
    if (this.warm && this.warm.contextKey !== contextKey) await this.endSession();
    if (!this.warm) {
      const factory = await this.deps.repl();
      const router = await this.deps.createBridgeRouter();
      const session = await factory.acquire({ bridge: router.handler, ...(signal ? { signal } : {}) });
      this.warm = { contextKey, session, router, factory };
    }
    return { session: this.warm.session, sessionBridge: this.warm.router, priorTurns: this.turns.slice(-MAX_PRIOR_TURNS) };
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
    if (status === 'error') await this.endSession();
  }

  async endSession(): Promise<void> {
    const warm = this.warm;
    this.warm = undefined;
    if (warm) await warm.factory.release(warm.session).catch(() => undefined);
  }

  /** Ends the REPL and forgets the turns. */
  async end(): Promise<void> {
    this.turns.length = 0;
    this.confirmed.clear();
    await this.endSession();
  }
}
