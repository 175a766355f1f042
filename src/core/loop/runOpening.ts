// The opening of one run, root or child: what the root is first shown of `context` (known before it
// is bound, so the first request need not wait for a REPL), the REPL session (taken from the factory,
// or a follow-up's adopted) with the run's bridge routed to it, `context` bound, and run.started
// recorded exactly once, however the opening ends. runDriver.ts drives the turns once the run is open.
import type { ContextMetadata, ContextSource, PendingContext, TargetDescription } from '../context/contextTypes';
import { previewMetadata } from '../repl/contextEncoding';
import type { BridgeHandler, ReplSession, SandboxProtections } from '../repl/replTypes';
import { raceAbort } from './boundedMap';
import { configRecord } from './limits';
import { LoopError } from './loopErrors';
import { NO_PROTECTIONS } from './endStatus';
import type { RunInput } from './runInput';
import type { RunTree } from './runTree';

/** How often a folder walk that has found nothing yet is asked again for what it found, before the first request. */
const FIRST_FILES_POLL_MS = 20;

const delay = (ms: number): Promise<undefined> => new Promise((resolve) => setTimeout(() => resolve(undefined), ms));

export interface OpenedRun {
  metadata: ContextMetadata;
  protections: SandboxProtections;
}

export class RunOpening {
  /** The session the run's cells go to, once open() has it. */
  session?: ReplSession;
  /** What is bound, and what the user pointed at: the input's, or a pending context's once its walk ended. */
  context?: ContextSource;
  private target?: TargetDescription;
  private started = false;
  private release?: () => Promise<void>;
  private readonly cleanups: Array<() => void | Promise<void>> = [];

  constructor(
    private readonly tree: RunTree,
    private readonly input: RunInput,
    /** The cell running now, which the session's output belongs to. */
    private readonly cellId: () => string,
  ) {}

  /** What the first request may show of `context` before it is bound. */
  async preview(): Promise<ContextMetadata> {
    const given = this.input.context;
    return given.kind === 'pending' ? this.previewPending(given) : this.resolved({ context: given, target: this.input.target });
  }

  /** A folder still being walked: its binding waits for the walk (the first request did not). */
  async walked(): Promise<void> {
    const given = this.input.context;
    if (given.kind === 'pending' && !this.context) this.resolved(await raceAbort(given.ready, this.input.signal, () => undefined));
  }

  /**
   * The first request's view of a folder still being walked: the whole plan if the walk ends before
   * `previewDue`, else what it found so far (if it found nothing yet: its first files, or the plan if it ends first).
   */
  private async previewPending(pending: PendingContext): Promise<ContextMetadata> {
    const { signal } = this.input;
    // Awaited below or, if the run is cancelled first, never: its failure must not go unhandled.
    pending.ready.catch(() => undefined);
    const first = await raceAbort(Promise.race([pending.ready, pending.previewDue.then(() => undefined)]), signal, () => undefined);
    if (first) return this.resolved(first);
    // Nothing found yet (a slow start, a loaded machine): the first files found are enough, not the
    // whole walk, which for a big folder takes seconds.
    for (;;) {
      const soFar = pending.soFar();
      if (soFar) return soFar;
      const ended = await raceAbort(Promise.race([pending.ready, delay(FIRST_FILES_POLL_MS)]), signal, () => undefined);
      if (ended) return this.resolved(ended);
    }
  }

  /** Keeps what is bound (and its target), and returns the metadata the root may be shown before binding. */
  private resolved(ready: { context: ContextSource; target?: TargetDescription | undefined }): ContextMetadata {
    this.context = ready.context;
    this.target = ready.target;
    return previewMetadata(ready.context);
  }

  /** Acquires (or adopts) a session routed to `handler`, the run's bridge, and binds `context`. */
  async open(preview: ContextMetadata, handler: BridgeHandler): Promise<OpenedRun> {
    const { input, tree } = this;
    try {
      if (input.session) {
        if (!input.sessionBridge) throw new LoopError('RunOptions.session was given without sessionBridge: acquire it with a bridge router (createBridgeRouter) and pass the router too');
        // Routed first, so the session's bridge reaches this run from its first cell; a session still
        // starting is awaited here (a Stop does not wait for it: the session is the caller's to end).
        this.cleanups.push(input.sessionBridge.route(handler));
        this.session = await raceAbort(Promise.resolve(input.session), input.signal, () => undefined);
      } else {
        // A cold REPL start takes seconds; a Stop during it must not wait for it.
        // The session is this run's alone and is killed when the run ends (RunOptions.session, used by
        // follow-ups, is never released here).
        const session = await raceAbort(tree.repl.acquire({ bridge: handler, signal: input.signal }), input.signal, (late) => tree.repl.release(late));
        this.session = session;
        this.release = () => tree.repl.release(session);
      }
      const session = this.session;
      this.cleanups.push(
        session.onOutput((event) => tree.events.emit({ type: 'cell.output', runId: input.runId, cellId: this.cellId(), stream: event.stream, text: event.text })),
      );
      const metadata = await raceAbort(session.bindContext(this.context!), input.signal, () => undefined);
      return { metadata, protections: session.protections };
    } catch (error) {
      this.emitStarted(preview, this.session?.protections ?? NO_PROTECTIONS);
      throw error;
    }
  }

  /** Records run.started, once: with what was bound, or (when the opening failed) with what was previewed. */
  emitStarted(context: ContextMetadata, protections: SandboxProtections, shown?: ContextMetadata): void {
    if (this.started) return;
    this.started = true;
    const { input, tree } = this;
    // Files left out while reading are part of what the target skipped.
    const given = this.target ?? input.target;
    const target = given && context.leftOut?.length ? { ...given, fileCount: context.fileCount, totalBytes: context.totalBytes, skipped: [...given.skipped, ...context.leftOut] } : given;
    tree.events.emit({
      type: 'run.started',
      runId: input.runId,
      ...(input.parent ? { parentRunId: input.parent.runId, parentCellId: input.parent.cellId, parentCallId: input.parent.callId } : {}),
      depth: input.depth,
      question: input.question,
      context,
      ...(shown && shown !== context && shown.approximate ? { contextShown: shown } : {}),
      ...(target ? { target } : {}),
      config: configRecord(tree.limits, tree.root, tree.sub),
      protections,
      ...(input.priorTurns?.length ? { priorTurns: input.priorTurns } : {}),
      ...(input.replay ? { continuedFrom: input.replay.from } : {}),
    });
  }

  /** Unroutes the bridge and stops listening to the session; kills the session if this run took it. */
  async close(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) await cleanup();
    if (this.release) await this.release().catch(() => undefined);
  }
}
