// One forked REPL process as the host sees it: start it and wait for `ready`, send typed messages,
// stream `context` bytes down its pipe, answer bridge calls (from the bridge pipe, or relayed over the
// channel), and kill it. It knows nothing of cells or timeouts. Every byte stream from the process is
// read as hostile (docs/security.md, "The channel"): the channel and the bridge pipe through checked
// frames, stdout and stderr as bounded text for the log, and the context pipe, which carries nothing
// the other way, not at all. The first protocol break kills the process and is reported once.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Duplex, Writable } from 'node:stream';
import { BridgePipe } from './bridgePipe';
import type { NestedOpHandlers } from './bridgePipe';
import { ChannelViolation } from './frameCodec';
import { ReplChannel } from './replChannel';
import { ReplStartError, SandboxViolationError } from './replErrors';
import type { LaunchPlan } from './replLaunch';
import { BRIDGE_PIPE_FD, CHANNEL_FD, CONTEXT_PIPE_FD } from './replProtocol';
import type { BridgeReply, ChildToHost, HostToChild, NestedOp, ReadyInfo, StartConfig } from './replProtocol';
import type { ReplCall } from './replTypes';

const STDERR_TAIL_CHARS = 4000;
/** What the host logs of the process's stdout and stderr, each: a flood ends in one line saying so. */
const STDIO_LOG_BYTES = 64 * 1024;

export interface ChildListeners {
  message(message: ChildToHost): void;
  /**
   * A sub-call from Python; `reply` sends the answer back the way the call came. Returns why the call
   * is refused as a protocol break (one made when no cell runs), or undefined when it is taken.
   */
  /** `depth`: 0 from the run's own cell, 1 from a child run's cell nested in it (bridge pipe only). */
  bridgeCall(callId: number, call: ReplCall, reply: (reply: BridgeReply) => void, depth: number): string | undefined;
  exit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): void;
  /** The process broke the protocol after `ready` and was killed; `exit` follows. */
  violation(error: SandboxViolationError): void;
}

export interface ChildStartOptions {
  plan: LaunchPlan;
  /** An open file descriptor of the snapshot, handed to the child as SNAPSHOT_FD. */
  snapshotFd?: number;
  config: StartConfig;
  startTimeoutMs: number;
  /** Abandons the start: the process is killed at once (a command that ends before its REPL is needed). */
  signal?: AbortSignal;
  listeners: ChildListeners;
  log?: (message: string) => void;
}

export class ReplChild {
  private exited = false;
  private stderrTail = '';
  private bridge: BridgePipe | undefined;
  /** The lowest depth an interrupt not yet applied asked to cancel calls from. */
  private interruptDepth: number | undefined;
  private channel: ReplChannel | undefined;
  /** The first protocol break, kept so a start still waiting rejects with it. */
  private violated: SandboxViolationError | undefined;
  /** Where a protocol break goes: the start while it runs, the listeners after. */
  private onViolation: (error: SandboxViolationError) => void = () => undefined;

  private constructor(
    private readonly proc: ChildProcess,
    private readonly pipe: Writable,
  ) {}

  /** Kills the process for a protocol break on `stream`, and reports it once. */
  private violation(error: ChannelViolation): void {
    if (this.violated) return;
    this.violated = new SandboxViolationError(error.stream, error.detail);
    this.channel?.close();
    this.kill();
    this.onViolation(this.violated);
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Starts the child (through the plan's OS wrapper) and resolves once Pyodide is loaded and locked down. */
  static start(options: ChildStartOptions): Promise<{ child: ReplChild; ready: ReadyInfo }> {
    const proc = spawn(options.plan.command, options.plan.args, {
      env: options.plan.env,
      // fd 3: context bytes; fd 4: bridge frames (BRIDGE_PIPE_FD); 5: the control channel (CHANNEL_FD),
      // our own frames rather than Node's IPC; 6: the snapshot.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', options.snapshotFd ?? 'ignore'],
    });
    const pipe = proc.stdio[CONTEXT_PIPE_FD] as Duplex | null;
    const bridgeSocket = proc.stdio[BRIDGE_PIPE_FD] as Duplex | null;
    const channelSocket = (proc.stdio as unknown as Array<Duplex | null | undefined>)[CHANNEL_FD] ?? null;
    if (!pipe || !bridgeSocket || !channelSocket) {
      proc.kill('SIGKILL');
      return Promise.reject(new ReplStartError('the REPL process has no context pipe, bridge pipe or channel', '', null));
    }
    const child = new ReplChild(proc, pipe);
    pipe.on('error', () => undefined); // surfaces as the child's exit
    // The context pipe is a socket pair: the process could write into it, and nothing it writes there is legitimate.
    pipe.on('data', () => child.violation(new ChannelViolation('context pipe', 'bytes written back on the context pipe')));
    child.bridge = new BridgePipe(bridgeSocket, {
      call: (callId, call, reply, depth) => {
        const refused = options.listeners.bridgeCall(callId, call, reply, depth);
        if (refused) child.violation(new ChannelViolation('bridge pipe', refused));
      },
      malformed: (error) => {
        // Only a broken or subverted REPL writes this; the host keeps the power to end it.
        options.log?.(`${error.message}; stopping the REPL process`);
        child.violation(error);
      },
    }, options.config.captureMaxChars);
    child.channel = new ReplChannel(channelSocket, options.config.captureMaxChars, {
      message: (message) => onMessage(message),
      violation: (error) => {
        options.log?.(`${error.message}; stopping the REPL process`);
        child.violation(error);
      },
    });
    const logStream = (label: string): ((d: Buffer) => void) => {
      let logged = 0;
      return (d) => {
        if (logged >= STDIO_LOG_BYTES) return;
        logged += d.length;
        options.log?.(`[repl ${label}] ${d.toString('utf8', 0, Math.min(d.length, STDIO_LOG_BYTES)).trimEnd()}`);
        if (logged >= STDIO_LOG_BYTES) options.log?.(`[repl ${label}] more than ${STDIO_LOG_BYTES} bytes; the rest is not logged`);
      };
    };
    proc.stdout?.on('data', logStream('stdout'));
    const logStderr = logStream('stderr');
    proc.stderr?.on('data', (d: Buffer) => {
      child.stderrTail = (child.stderrTail + d.toString('utf8', Math.max(0, d.length - STDERR_TAIL_CHARS * 4))).slice(-STDERR_TAIL_CHARS);
      logStderr(d);
    });
    let onMessage: (message: ChildToHost) => void = () => undefined;
    /** How the process said its sub-calls travel (in `ready`); none are taken before it. */
    let transport: ReadyInfo['bridgeTransport'] | undefined;
    return new Promise((resolve, reject) => {
      let settled = false;
      let ready = false;
      // The start signal usually outlives the start (a pool's, for every process it starts), so
      // its listener goes once the start is settled; left there, each start kept its process object.
      const settle = (): void => {
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        if (settled) return;
        settle();
        child.kill();
        reject(new ReplStartError(`the REPL did not become ready within ${options.startTimeoutMs} ms`, child.stderrTail, null, true));
      }, options.startTimeoutMs);
      const onAbort = (): void => {
        if (settled) return;
        settle();
        child.kill();
        reject(new ReplStartError('the REPL start was abandoned', child.stderrTail, null));
      };
      if (options.signal?.aborted) queueMicrotask(onAbort);
      else options.signal?.addEventListener('abort', onAbort, { once: true });
      child.onViolation = (error) => {
        if (settled) {
          options.listeners.violation(error);
          return;
        }
        // A process that breaks the protocol while starting is not retried: it is not a flaky start.
        settle();
        reject(error);
      };
      onMessage = (message: ChildToHost) => {
        // Start-up messages count only before `ready` (ReplChannel refuses later ones outright).
        if ((message.type === 'ready' || message.type === 'snapshot') && ready) return;
        if (!settled && message.type === 'ready') {
          settle();
          ready = true;
          transport = message.info.bridgeTransport;
          resolve({ child, ready: message.info });
          return;
        }
        if (!settled && message.type === 'fatal') {
          settle();
          child.kill();
          reject(new ReplStartError(`the REPL failed to start: ${message.message}`, child.stderrTail, null));
          return;
        }
        if (message.type === 'interruptApplied') {
          const depth = child.interruptDepth;
          child.interruptDepth = undefined;
          child.bridge?.cancelPending(depth ?? 0);
          return;
        }
        if (message.type === 'bridgeCall') {
          // The relay transport: the worker could not use the bridge pipe, so the call came over the channel.
          // A process that said it uses the pipe never relays: a call here was written by something else.
          if (transport !== 'relay') return child.violation(new ChannelViolation('channel', 'a relayed sub-call from a process that uses the bridge pipe'));
          if (!child.bridge?.takeRelayed(message.callId)) return;
          const refused = options.listeners.bridgeCall(message.callId, message.call, (reply) => {
            if (!child.bridge?.settleRelayed(reply.callId)) return;
            child.send(reply.ok ? { type: 'bridgeReply', callId: reply.callId, result: reply.result } : { type: 'bridgeFailed', callId: reply.callId, message: reply.message });
          }, 0);
          if (refused) child.violation(new ChannelViolation('channel', refused));
          return;
        }
        options.listeners.message(message);
        if (message.type === 'output') child.bridge?.outputArrived();
      };
      proc.on('error', (err) => {
        if (settled) return;
        settle();
        reject(new ReplStartError(`could not fork the REPL process: ${err.message}`, child.stderrTail, null));
      });
      proc.on('exit', (code, signal) => {
        child.exited = true;
        if (!settled) {
          settle();
          reject(new ReplStartError(`the REPL process exited during start-up (code ${code}, signal ${signal})`, child.stderrTail, code));
          return;
        }
        options.listeners.exit(code, signal, child.stderrTail);
      });
      child.send({ type: 'start', config: options.config });
    });
  }

  /**
   * Interrupts the Python running now; once the process has applied it, the bridge calls in flight from
   * `depth` up are cancelled (0: the run's cell and all; 1: only those of a child run nested in it).
   */
  interrupt(depth = 0): void {
    this.interruptDepth = Math.min(this.interruptDepth ?? depth, depth);
    this.send({ type: 'interrupt' });
  }

  /** Sends an op for a child run nested in call `callId` (BridgePipe.nestedOp); false when it cannot go now. */
  nestedOp(callId: number, op: NestedOp, handlers: NestedOpHandlers): boolean {
    return !this.exited && !this.violated && !!this.bridge?.nestedOp(callId, op, handlers);
  }

  send(message: HostToChild): void {
    if (this.exited || this.violated) return;
    this.channel?.send(message);
  }

  /** Writes one piece of the context frame stream; resolves once the pipe has taken it. */
  writeContext(chunk: Uint8Array): Promise<void> {
    if (chunk.byteLength === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pipe.write(chunk, (err) => (err ? reject(err) : resolve()));
    });
  }

  kill(): void {
    if (this.exited) return;
    this.proc.kill('SIGKILL');
  }

  /** Kills the child and resolves once it has exited. */
  async killAndWait(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.kill('SIGKILL');
    await done;
  }
}
