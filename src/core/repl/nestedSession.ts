// A child run's REPL session nested in its parent's (issue 33, item 1): the child's cells run in the
// parent's already-running Pyodide interpreter, in a namespace of its own (prelude.py, Api.open_child),
// while the parent's cell is blocked in the rlm_query call that started the child. Its ops travel on the
// bridge pipe as frames of that call (BridgePipe.nestedOp); its cells' sub-calls come back one level
// deeper and are answered by this session's own dispatcher. Same user, same run, same input: a child
// shares its parent's process, never another run's (docs/security.md, layer 4).
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import { BridgeDispatcher } from './bridgeDispatcher';
import type { BridgeReplySender } from './bridgeDispatcher';
import { CellTracker } from './cellTracker';
import { CellSession } from './cellSession';
import { TaskQueue } from './taskQueue';
import { buildMetadata } from './contextEncoding';
import { streamContext } from './contextStream';
import { ContextBindError, ReplClosedError } from './replErrors';
import type { NestedDone, NestedOp } from './replProtocol';
import type { BridgeHandler, CellResult, ExecuteOptions, ReplCall, ReplSession, ReplStartupInfo, SandboxProtections } from './replTypes';

type LostReason = NonNullable<CellResult['restarted']>;

/** What a nested child inherits from its parent's session: its sandbox, limits and timers' settings. */
export interface NestedSettings {
  readonly protections: SandboxProtections;
  readonly startup?: ReplStartupInfo;
  readonly captureMaxChars: number;
  readonly contextLimitBytes: number;
  readonly defaultTimeoutMs: number;
  readonly hardTimeoutGraceMs: number;
}

/** What the parent's session lends a nested child: its process, and the settings it inherits. */
export interface NestedHost extends NestedSettings {
  /** Runs one op in the worker; rejects when it cannot be sent or the process is lost meanwhile. */
  op(op: NestedOp, output: (stream: 'stdout' | 'stderr', text: string) => void): Promise<NestedDone>;
  /** Interrupts the child's running cell and cancels only the sub-calls that cell made. */
  interrupt(): void;
  /** The child's cell ignored its interrupt: the process is killed, and the parent's cell fails with `why`. */
  kill(why: LostReason): void;
  /** The child has closed: the parent may nest another. */
  released(session: NestedReplSession): void;
}

export class NestedReplSession extends CellSession implements ReplSession {
  private readonly dispatcher: BridgeDispatcher;
  private readonly queue = new TaskQueue();
  private nextId = 0;
  private closed = false;
  private untouched = true;

  constructor(
    private readonly host: NestedHost,
    /** This child's instance number in the worker. */
    readonly child: number,
    bridge: BridgeHandler,
  ) {
    super();
    this.dispatcher = new BridgeDispatcher(bridge);
  }

  get protections(): SandboxProtections {
    return this.host.protections;
  }

  get startup(): ReplStartupInfo | undefined {
    return this.host.startup;
  }

  get unused(): boolean {
    return this.untouched;
  }

  /** A sub-call made by this child's cell (BridgePipe depth 1); refused outside one of its cells. */
  dispatchCall(callId: number, call: ReplCall, reply: BridgeReplySender): string | undefined {
    if (!this.cell) return 'a nested sub-call made while no child cell was running';
    this.dispatcher.dispatch(callId, call, reply);
    return undefined;
  }

  /** The process is gone (or broke the protocol): whatever this child was doing fails with `error`. */
  lost(error: Error): void {
    this.dispatcher.abortAll(error.message);
    this.cell?.fail(error);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  bindContext(source: ContextSource): Promise<ContextMetadata> {
    return this.enqueue(async () => {
      if (this.closed) throw new ReplClosedError('bindContext');
      // A child's context comes from a Python value (text or files, bounded by the bridge frame), never
      // a lazy folder plan; its frames go to the worker in one op, as base64 in the frame's JSON.
      if (source.kind === 'plan') throw new ContextBindError('a nested child run binds text or files, not a folder plan', 'BindError', 0);
      const chunks: Buffer[] = [];
      const streamed = await streamContext(source, { write: async (chunk) => void chunks.push(Buffer.from(chunk)) }, this.host.contextLimitBytes);
      const done = await this.host.op({ child: this.child, op: 'bind', frames: Buffer.concat(chunks).toString('base64') }, () => undefined);
      if (done.op !== 'bind') throw new ContextBindError(`the REPL answered a bind with ${done.op}`, 'BindError', streamed.byteLength);
      if ('failed' in done) throw new ContextBindError(`binding context failed in Python: ${done.failed.message}`, done.failed.errorType, streamed.byteLength);
      if (done.summary.aborted) throw new ContextBindError('the bind was aborted', 'Aborted', streamed.byteLength);
      return buildMetadata(streamed, done.summary);
    });
  }

  execute(code: string, options: ExecuteOptions = {}): Promise<CellResult> {
    return this.enqueue(async () => {
      if (this.closed) throw new ReplClosedError('execute');
      this.untouched = false;
      const softMs = options.timeoutMs ?? this.host.defaultTimeoutMs;
      const cell = new CellTracker(++this.nextId, this.host.captureMaxChars, softMs);
      this.cell = cell;
      const stopTimers = cell.arm({
        softMs,
        hardMs: softMs + this.host.hardTimeoutGraceMs,
        signal: options.signal,
        interrupt: () => this.sendInterrupt(options.signal?.aborted ? 'the cell was stopped' : `the cell ran past its ${softMs} ms time limit and was interrupted`),
        hardTimeout: () => {
          const why: LostReason = { reason: 'hard-timeout', detail: `a child run's cell ran past the hard timeout (${softMs} ms + grace) and did not stop; the REPL process it shared with its parent was killed` };
          this.dispatcher.abortAll('the cell ignored its interrupt and was killed at the hard timeout');
          this.host.kill(why);
          cell.lose(why);
        },
      });
      const output = (stream: 'stdout' | 'stderr', text: string): void => this.passOutput(cell, stream, text);
      this.host.op({ child: this.child, op: 'exec', code }, output).then(
        (done) => (done.op === 'exec' ? cell.finish(done.result) : cell.fail(new ContextBindError(`the REPL answered a cell with ${done.op}`, 'ReplError', 0))),
        (error: unknown) => cell.fail(error instanceof Error ? error : new Error(String(error))),
      );
      try {
        return await cell.done;
      } finally {
        stopTimers();
        this.cell = undefined;
      }
    });
  }

  protected sendInterrupt(why: string): void {
    this.host.interrupt();
    this.dispatcher.abortAll(why);
  }

  /** Ends the child: its namespace is emptied in the worker (after any cell still running). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.enqueue(async () => {
      try {
        await this.host.op({ child: this.child, op: 'close' }, () => undefined);
      } catch {
        // The parent's call has ended (the worker then drops the child itself) or the process is gone.
      } finally {
        this.host.released(this);
      }
    });
  }
}
