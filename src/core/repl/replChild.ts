// One forked REPL process as the host sees it: start it and wait for `ready`, send typed messages,
// stream `context` bytes down its pipe, answer bridge calls (from the bridge pipe, or relayed over IPC),
// and kill it. It knows nothing of cells or timeouts.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Duplex, Writable } from 'node:stream';
import { BridgePipe } from './bridgePipe';
import { ReplStartError } from './replErrors';
import type { LaunchPlan } from './replLaunch';
import { BRIDGE_PIPE_FD, CONTEXT_PIPE_FD } from './replProtocol';
import type { BridgeReply, ChildToHost, HostToChild, ReadyInfo, StartConfig } from './replProtocol';
import type { ReplCall } from './replTypes';

const STDERR_TAIL_CHARS = 4000;

export interface ChildListeners {
  message(message: ChildToHost): void;
  /** A sub-call from Python; `reply` sends the answer back the way the call came. */
  bridgeCall(callId: number, call: ReplCall, reply: (reply: BridgeReply) => void): void;
  exit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): void;
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

  private constructor(
    private readonly proc: ChildProcess,
    private readonly pipe: Writable,
  ) {}

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Starts the child (through the plan's OS wrapper) and resolves once Pyodide is loaded and locked down. */
  static start(options: ChildStartOptions): Promise<{ child: ReplChild; ready: ReadyInfo }> {
    const proc = spawn(options.plan.command, options.plan.args, {
      env: options.plan.env,
      serialization: 'advanced',
      // fd 3: context bytes; fd 4: bridge frames (BRIDGE_PIPE_FD); 5: the IPC channel; 6: the snapshot.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'ipc', options.snapshotFd ?? 'ignore'],
    });
    const pipe = proc.stdio[CONTEXT_PIPE_FD] as Writable | null;
    const bridgeSocket = proc.stdio[BRIDGE_PIPE_FD] as Duplex | null;
    if (!pipe || !bridgeSocket) {
      proc.kill('SIGKILL');
      return Promise.reject(new ReplStartError('the REPL process has no context or bridge pipe', '', null));
    }
    const child = new ReplChild(proc, pipe);
    pipe.on('error', () => undefined); // surfaces as the child's exit
    child.bridge = new BridgePipe(bridgeSocket, {
      call: (callId, call, reply) => options.listeners.bridgeCall(callId, call, reply),
      malformed: (error) => {
        // Only a broken or subverted REPL writes this; the host keeps the power to end it.
        options.log?.(`${error.message}; stopping the REPL process`);
        child.kill();
      },
    });
    proc.stdout?.on('data', (d: Buffer) => options.log?.(`[repl stdout] ${d.toString().trimEnd()}`));
    proc.stderr?.on('data', (d: Buffer) => {
      child.stderrTail = (child.stderrTail + d.toString()).slice(-STDERR_TAIL_CHARS);
      options.log?.(`[repl stderr] ${d.toString().trimEnd()}`);
    });
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
      proc.on('message', (message: ChildToHost) => {
        // Start-up messages count only before `ready`: later ones would come from code a cell steered.
        if ((message.type === 'ready' || message.type === 'snapshot') && ready) return;
        if (!settled && message.type === 'ready') {
          settle();
          ready = true;
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
          child.bridge?.cancelPending();
          return;
        }
        if (message.type === 'bridgeCall') {
          // The relay transport: the worker could not use the bridge pipe, so the call came over IPC.
          options.listeners.bridgeCall(message.callId, message.call, (reply) =>
            child.send(reply.ok ? { type: 'bridgeReply', callId: reply.callId, result: reply.result } : { type: 'bridgeFailed', callId: reply.callId, message: reply.message }),
          );
          return;
        }
        options.listeners.message(message);
        if (message.type === 'output') child.bridge?.outputArrived();
      });
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

  send(message: HostToChild): void {
    if (this.exited || !this.proc.connected) return;
    this.proc.send(message);
  }

  /** Writes the context bytes to the child's pipe; resolves when they are handed to the OS. */
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
