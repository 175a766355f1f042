// A REPL session: one sandboxed child process at a time, replaced when it hangs past the hard timeout,
// crashes or runs out of memory, with `context` rebound each time. Operations run one after another.
// A session serves one run (or one conversation of follow-ups) and is then closed: nothing is reset
// for another run (docs/security.md, layer 4). Its sandbox is probed at every start, and a start whose
// layer 1 or layer 2 did not hold fails with SandboxError instead of running anything.
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import { BridgeDispatcher } from './bridgeDispatcher';
import { BIND_BASE_MS, ChildRequests } from './childRequests';
import { DEFAULT_CONTEXT_LIMIT_BYTES, sameContextSource } from './contextEncoding';
import { ContextTooLargeError } from '../context/contextErrors';
import { CellTracker } from './cellTracker';
import { CellSession } from './cellSession';
import { TaskQueue } from './taskQueue';
import { ReplChild } from './replChild';
import { InvalidContextError, ReplClosedError, ReplCrashedError, ReplHungError, ReplStartError, SandboxError } from './replErrors';
import type { SandboxViolationError } from './replErrors';
import { defaultLaunchInputs, isFlagRejection, isOsIsolationRejection, planLaunch } from './replLaunch';
import { SNAPSHOT_FD } from './replProtocol';
import type { BridgeTransportKind, ChildToHost, WeakenedLayers } from './replProtocol';
import { sharedCanary } from './sandboxCanary';
import type { SandboxCanary } from './sandboxCanary';
import { blockingFailures, emptyProtections, protectionsFrom } from './sandboxProtections';
import { sandboxStrength, WeakSandboxError } from './sandboxStrength';
import type { BridgeHandler, CellResult, ExecuteOptions, ReplCall, ReplSession, ReplStartupInfo, SandboxProtections } from './replTypes';
import { NestedChildren } from './nestedChildren';
import type { NestingParent } from './nestedChildren';
import { distStamp, SnapshotCache } from './snapshotCache';
import { LazyContextHost } from './lazyContextHost';

export interface ReplSessionOptions {
  /** Answers llm_query / rlm_query calls made from Python. */
  bridge: BridgeHandler;
  /** Folder holding replProcess.js, replWorker.js and pyodide/. Default: the folder of the running bundle. */
  distDir?: string;
  /** Where Pyodide memory snapshots are cached; without it every start is a cold load. */
  snapshotCacheDir?: string;
  captureMaxChars?: number;
  /** `_out` limits, per cell and in all; tests make them small. */
  outCellMaxChars?: number;
  outTotalMaxChars?: number;
  contextLimitBytes?: number;
  /** Memory cap of the REPL process's Python heap, in MB (--repl-memory-mb, rlm.replMemoryMb); default 2048. */
  memoryCapMb?: number;
  /** Soft timeout when execute() is given none. */
  defaultTimeoutMs?: number;
  /** Hard timeout = soft + this grace. */
  hardTimeoutGraceMs?: number;
  startTimeoutMs?: number;
  /** Binding gets this long plus a little per MB (default BIND_BASE_MS); a REPL that misses it is replaced. */
  bindTimeoutMs?: number;
  /** The Node binary for the child; default process.execPath. */
  execPath?: string;
  /** 'pipe' (default) when the platform allows it; 'relay' forces the fallback path (tests, diagnosis). */
  bridgeTransport?: BridgeTransportKind;
  /** ripgrep for search() over a lazy folder (VS Code's own, or `rg` on PATH); absent: a streamed scan. */
  ripgrepPath?: string;
  /** Where layer 3's probe reaches for the host; default: the process-wide canary. */
  canary?: SandboxCanary;
  /** false skips the OS layer (diagnosis only; the protections then say it is off). */
  osIsolation?: boolean;
  /**
   * The user accepted a sandbox with fewer than two independent layers for host files or the network
   * (VS Code's rlm.sandbox.allowWeaker for this folder, the CLI's --allow-weaker-sandbox). Without it
   * such a start fails with WeakSandboxError, and a layer that cannot start is never silently dropped.
   */
  allowWeakerSandbox?: boolean;
  /**
   * Only for the tests that prove one layer holds while another is bypassed. A session started with a
   * weakened layer reports it off, and is allowed to run only because the caller asked for exactly that.
   */
  weakenForTest?: WeakenedLayers;
  log?: (message: string) => void;
  /** Abandons a start still under way (the pool shutting down): the process is killed, start() rejects. */
  startSignal?: AbortSignal;
}

type LostReason = NonNullable<CellResult['restarted']>;

/** What a REPL start needs in distDir (the package must ship each; a test checks the VSIX list). */
export const REPL_FILES = ['replProcess.js', 'replWorker.js', 'esmGuardHooks.mjs', 'pyodide/pyodide.asm.wasm', 'pyodide/pyodide.asm.mjs', 'pyodide/python_stdlib.zip', 'pyodide/pyodide-lock.json'];

export async function createReplSession(options: ReplSessionOptions): Promise<ReplSession> {
  const session = new PyodideReplSession(options);
  await session.start();
  return session;
}

class PyodideReplSession extends CellSession implements ReplSession, NestingParent {
  private readonly distDir: string;
  private readonly cache?: SnapshotCache;
  /** This REPL build's name in the snapshot cache's index (distStamp). */
  private readonly build?: string;
  private readonly dispatcher: BridgeDispatcher;
  private readonly requests = new ChildRequests();
  private child?: ReplChild;
  private generation = 0;
  private nextId = 0;
  private readonly queue = new TaskQueue();
  private closed = false;
  private usePermissionModel = true;
  private useOsIsolation: boolean;
  private bridgeTransport: BridgeTransportKind;
  /** The snapshot key the last child reported: the cache entry to offer next time. */
  private knownKey?: string;
  private lost?: LostReason;
  private fatal?: { reason: 'crash' | 'out-of-memory'; message: string };
  private bound?: { source: ContextSource; metadata: ContextMetadata };
  /** Serves the bound folder's files when it was bound lazily. */
  private lazy?: LazyContextHost;
  /** The run's sub-call the worker is blocked on now, if any (one at a time at depth 0). */
  private rootCall?: { callId: number; call: ReplCall };
  /** The child runs nested in this session's interpreter (one at a time). */
  private readonly nesting = new NestedChildren(this);
  /** The REPL process broke the protocol: the session refuses everything from then on. */
  private violation?: SandboxViolationError;
  /** No cell has run in this session yet. */
  private untouched = true;
  protections: SandboxProtections = emptyProtections();
  startup?: ReplStartupInfo;

  constructor(private readonly options: ReplSessionOptions) {
    super();
    this.distDir = options.distDir ?? (typeof __dirname === 'string' ? __dirname : process.cwd());
    this.cache = options.snapshotCacheDir ? new SnapshotCache(options.snapshotCacheDir) : undefined;
    this.build = this.cache ? distStamp(this.distDir) : undefined;
    this.dispatcher = new BridgeDispatcher(options.bridge, () => (this.lazy ? (call, signal) => this.lazy!.answer(call, signal) : undefined));
    this.bridgeTransport = options.bridgeTransport ?? 'pipe';
    this.useOsIsolation = options.osIsolation ?? true;
  }

  get unused(): boolean {
    return this.untouched;
  }

  get captureMaxChars(): number {
    return this.options.captureMaxChars ?? 200_000;
  }

  get contextLimitBytes(): number {
    return this.options.contextLimitBytes ?? DEFAULT_CONTEXT_LIMIT_BYTES;
  }

  get defaultTimeoutMs(): number {
    return this.options.defaultTimeoutMs ?? 60_000;
  }

  get hardTimeoutGraceMs(): number {
    return this.options.hardTimeoutGraceMs ?? 5_000;
  }

  currentChild(): ReplChild | undefined {
    return this.child;
  }

  lostReason(): LostReason['reason'] | undefined {
    return this.lost?.reason;
  }

  async start(): Promise<void> {
    const began = performance.now();
    for (const file of REPL_FILES) {
      if (!existsSync(join(this.distDir, file))) {
        throw new ReplStartError(`the REPL files are missing: ${join(this.distDir, file)} does not exist (build with \`npm run build\` or pass distDir)`, '', null);
      }
    }
    let snapshotPath = this.cache ? await this.cache.find(this.knownKey, this.build) : undefined;
    let snapshotFailure: string | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.launch(snapshotPath, began);
        if (snapshotFailure && this.startup) this.startup = { ...this.startup, loadMode: 'cold-snapshot-failed', snapshotError: snapshotFailure };
        return;
      } catch (err) {
        if (!(err instanceof ReplStartError) || attempt >= 3 || this.options.startSignal?.aborted) throw err;
        // A layer that cannot start is dropped only when the user accepted a weaker sandbox; otherwise the
        // start fails closed, naming the layer (the probes of the retried start then say what held).
        const weakerLayer = this.useOsIsolation && isOsIsolationRejection(err.stderr) ? 'os' : this.usePermissionModel && isFlagRejection(err.stderr) ? 'permission' : undefined;
        if (weakerLayer && !this.options.allowWeakerSandbox) {
          const what = weakerLayer === 'os' ? 'layer 3 (the operating-system sandbox) failed to start' : "Node's permission model failed to start";
          throw new WeakSandboxError([`because ${what} (${err.stderr.trim().split('\n').pop()?.slice(0, 160) ?? err.message})`]);
        }
        if (weakerLayer === 'os') {
          this.log(`REPL start failed inside the OS sandbox; retrying without it, as the weaker sandbox was accepted: ${err.message}`);
          this.useOsIsolation = false;
        } else if (weakerLayer === 'permission') {
          this.log(`REPL start failed under the permission model; retrying without it, as the weaker sandbox was accepted: ${err.message}`);
          this.usePermissionModel = false;
        } else if (err.timedOut && this.bridgeTransport === 'pipe') {
          // The worker's probe of the bridge pipe blocks if a platform's pipe never delivers the echo;
          // the relay needs nothing from the pipe. Tried before blaming (and deleting) the snapshot.
          this.log(`REPL start timed out; retrying with sub-calls relayed instead of the bridge pipe: ${err.message}`);
          this.bridgeTransport = 'relay';
        } else if (snapshotPath && this.cache) {
          this.log(`REPL start from the snapshot ${snapshotPath} failed; removing it and loading cold: ${err.message}`);
          await this.cache.remove(snapshotPath);
          snapshotFailure = err.message;
          snapshotPath = undefined;
        } else {
          throw err;
        }
      }
    }
  }

  private async launch(snapshotPath: string | undefined, began: number): Promise<void> {
    const plan = planLaunch({
      ...defaultLaunchInputs(this.distDir, this.options.execPath),
      usePermissionModel: this.usePermissionModel && !this.options.weakenForTest?.permission,
      useOsIsolation: this.useOsIsolation,
    });
    const generation = ++this.generation;
    this.fatal = undefined;
    const canary = this.options.canary ?? sharedCanary();
    const targets = await canary.forStart();
    // The host opens the snapshot and hands the child the descriptor: the child may read no cache folder.
    let snapshotFd: number | undefined;
    try {
      snapshotFd = snapshotPath ? openSync(snapshotPath, 'r') : undefined;
    } catch {
      snapshotPath = undefined;
    }
    let started: Awaited<ReturnType<typeof ReplChild.start>>;
    try {
      started = await ReplChild.start({
        plan,
        snapshotFd,
        config: {
          indexURL: join(this.distDir, 'pyodide') + '/',
          snapshotPath,
          ...(snapshotFd !== undefined ? { snapshotFd: SNAPSHOT_FD } : {}),
          makeSnapshot: !!this.cache && !snapshotPath,
          captureMaxChars: this.captureMaxChars,
          ...(this.options.outCellMaxChars ? { outCellMaxChars: this.options.outCellMaxChars } : {}),
          ...(this.options.outTotalMaxChars ? { outTotalMaxChars: this.options.outTotalMaxChars } : {}),
          bridgePipe: this.bridgeTransport === 'pipe',
          canary: targets,
          ...(this.options.memoryCapMb !== undefined ? { memoryCapMb: this.options.memoryCapMb } : {}),
          ...(this.options.weakenForTest ? { weaken: this.options.weakenForTest } : {}),
        },
        startTimeoutMs: this.options.startTimeoutMs ?? 60_000,
        ...(this.options.startSignal ? { signal: this.options.startSignal } : {}),
        log: this.options.log,
        listeners: {
          message: (m) => generation === this.generation && this.onMessage(m),
          bridgeCall: (callId, call, reply, depth) => {
            if (generation !== this.generation) return undefined;
            // Python calls out only while a cell runs; a call at any other time was not made by a cell.
            if (!this.cell) return 'a sub-call made while no cell was running';
            // One level deeper: a call from the cell of a child run nested in this run's rlm_query.
            if (depth > 0) return this.nesting.dispatchCall(callId, call, reply);
            this.rootCall = { callId, call };
            this.dispatcher.dispatch(callId, call, (answer) => {
              if (this.rootCall?.callId === callId) this.rootCall = undefined;
              reply(answer);
            });
            return undefined;
          },
          violation: (error) => generation === this.generation && this.onViolation(error),
          exit: (code, signal, stderr) => generation === this.generation && this.onExit(`exit code ${code}, signal ${signal}${stderr ? `: ${stderr.slice(-500)}` : ''}`),
        },
      });
    } finally {
      if (snapshotFd !== undefined) closeSync(snapshotFd);
    }
    const { child, ready } = started;
    this.knownKey = ready.snapshotKey;
    if (ready.loadMode === 'cold-snapshot-failed') this.log(`Pyodide snapshot unusable, loaded cold instead: ${ready.snapshotError ?? 'unknown reason'}`);
    const protections = protectionsFrom(ready, { plan, canaryReached: canary.wasReached(targets.token), fresh: true });
    const failures = blockingFailures(protections);
    const weakened = this.options.weakenForTest;
    if (failures.length && !(weakened?.python || weakened?.runtime)) {
      this.generation++;
      await child.killAndWait();
      throw new SandboxError(failures);
    }
    const strength = sandboxStrength(protections, plan.os.kind);
    if (strength.missing.length) {
      if (!this.options.allowWeakerSandbox) {
        this.generation++;
        await child.killAndWait();
        throw new WeakSandboxError(strength.missing);
      }
      strength.acceptedWeaker = true;
    }
    protections.strength = strength;
    this.child = child;
    this.protections = protections;
    this.startup = {
      loadMode: ready.loadMode,
      loadMs: ready.loadMs,
      startMs: performance.now() - began,
      pyodideVersion: ready.pyodideVersion,
      snapshotError: ready.snapshotError,
      bridgeTransport: ready.bridgeTransport,
      restarts: (this.startup?.restarts ?? -1) + 1,
      ...(child.pid !== undefined ? { pid: child.pid } : {}),
    };
  }

  private onMessage(message: ChildToHost): void {
    if (this.requests.handle(message)) return;
    switch (message.type) {
      case 'output':
        // Outside a cell nothing is passed on.
        this.passOutput(this.cell, message.stream, message.text);
        break;
      case 'result':
        if (this.cell?.id === message.id) this.cell.finish(message.result);
        break;
      case 'snapshot':
        // Only a process that has run no cell may seed the cache (ReplChild drops later ones too).
        if (!this.untouched) break;
        this.cache
          ?.store(message.key, message.bytes, this.build)
          .then((path) => this.log(`stored Pyodide snapshot ${path}`))
          .catch((err: unknown) => this.log(`could not store the Pyodide snapshot: ${String(err)}`));
        break;
      case 'fatal':
        if (message.reason !== 'start-failed') this.fatal = { reason: message.reason, message: message.message };
        break;
      case 'ready':
        break;
    }
  }

  /**
   * The process broke the protocol and ReplChild killed it. Nothing more runs in this session: the
   * cell, bind or sub-calls under way fail with the violation, and so does every later call, so the run
   * ends with `sandbox_violation` instead of carrying on in a new process.
   */
  private onViolation(error: SandboxViolationError): void {
    this.log(error.message);
    this.nesting.lost(error);
    this.violation = error;
    this.generation++; // the killed child's exit is this, not a crash
    this.child = undefined;
    this.bound = undefined;
    this.dispatcher.abortAll('the REPL process broke the protocol and was stopped');
    this.requests.failAll(error);
    this.cell?.fail(error);
  }

  private onExit(detail: string): void {
    if (!this.child) return; // died during start-up: start() reports that itself
    this.child = undefined;
    const reason: LostReason = this.nesting.takeKillReason() ?? { reason: this.fatal?.reason ?? 'crash', detail: this.fatal?.message ?? `the REPL process died (${detail})` };
    const lostError = new ReplCrashedError(reason.reason, reason.detail);
    this.nesting.lost(lostError);
    this.dispatcher.abortAll('the REPL process exited');
    this.requests.failAll(lostError);
    if (this.cell) this.cell.lose(reason);
    else this.lost = reason;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  bindContext(source: ContextSource): Promise<ContextMetadata> {
    return this.enqueue(async () => {
      if (this.closed) throw new ReplClosedError('bindContext');
      if (this.violation) throw this.violation;
      if (this.bound && sameContextSource(this.bound.source, source) && this.child) return this.bound.metadata;
      if (!this.child) await this.restart();
      const metadata = await this.bindNow(source);
      this.bound = { source, metadata };
      return metadata;
    });
  }

  private async bindNow(source: ContextSource): Promise<ContextMetadata> {
    const child = this.child;
    if (!child) throw new ReplCrashedError(this.lost?.reason ?? 'crash', 'no REPL process to bind context in');
    this.lazy = undefined;
    try {
      const metadata = await this.requests.bind(child, source, this.contextLimitBytes, this.options.bindTimeoutMs ?? BIND_BASE_MS);
      if (metadata.mode === 'lazy' && source.kind === 'plan') this.lazy = new LazyContextHost(source.plan, this.options.ripgrepPath ? { ripgrepPath: this.options.ripgrepPath } : {});
      return metadata;
    } catch (error) {
      if (!(error instanceof ContextTooLargeError || error instanceof InvalidContextError)) {
        // A bind that did not finish may have left the REPL mid-stream, or killed by the time limit:
        // forget this process now, so the next call starts a new one instead of racing the old one.
        // Nothing is bound until a bind succeeds. (Refusals above are made before anything is sent.)
        this.generation++;
        this.child = undefined;
        this.bound = undefined;
        if (!(error instanceof ReplHungError)) await child.killAndWait().catch(() => undefined);
      }
      throw error;
    }
  }

  /** Replaces the REPL process and rebinds `context`; variables are gone. */
  private async restart(): Promise<void> {
    this.generation++;
    await this.child?.killAndWait();
    this.child = undefined;
    await this.start();
    if (this.bound) this.bound.metadata = await this.bindNow(this.bound.source);
  }

  execute(code: string, options: ExecuteOptions = {}): Promise<CellResult> {
    return this.enqueue(async () => {
      if (this.closed) throw new ReplClosedError('execute');
      if (this.violation) throw this.violation;
      this.untouched = false;
      const lostBefore = this.lost;
      if (!this.child) await this.restart();
      this.lost = undefined;
      const child = this.child;
      if (!child) throw new ReplCrashedError('crash', 'the REPL process could not be restarted');
      const softMs = options.timeoutMs ?? this.defaultTimeoutMs;
      const cell = new CellTracker(++this.nextId, this.captureMaxChars, softMs);
      this.cell = cell;
      const stopTimers = cell.arm({
        softMs,
        hardMs: softMs + this.hardTimeoutGraceMs,
        signal: options.signal,
        interrupt: () => this.sendInterrupt(options.signal?.aborted ? 'the cell was stopped' : `the cell ran past its ${softMs} ms time limit and was interrupted`),
        hardTimeout: () => {
          this.generation++; // the killed child's exit is ours, not a crash
          child.kill();
          this.dispatcher.abortAll('the cell ignored its interrupt and was killed at the hard timeout');
          this.child = undefined;
          cell.lose({ reason: 'hard-timeout', detail: `the cell ran past the hard timeout (${softMs} ms + grace) and did not stop` });
        },
      });
      child.send({ type: 'exec', id: cell.id, code });
      let result: CellResult;
      try {
        result = await cell.done;
      } finally {
        stopTimers();
        if (this.violation) this.cell = undefined;
      }
      const reads = this.lazy?.takeReads();
      if (reads) result = { ...result, contextReads: reads };
      this.cell = undefined;
      this.rootCall = undefined;
      if (result.restarted && !this.closed) {
        this.log(`REPL restarting after ${result.restarted.reason}: ${result.restarted.detail}`);
        try {
          await this.restart();
        } catch (err) {
          // Leave the session without a process; the next call tries again and reports it.
          this.child = undefined;
          this.lost = result.restarted;
          const why = err instanceof Error ? err.message : String(err);
          result = { ...result, error: { type: 'Restarted', message: `${result.error?.message ?? ''} Restarting the REPL failed: ${why}`, traceback: '' } };
        }
      } else if (lostBefore) {
        result = { ...result, restarted: lostBefore };
      }
      return result;
    });
  }

  /** `why` reaches sub-calls and child runs in flight: they say they were stopped by it, not by the user. */
  protected sendInterrupt(why: string): void {
    this.child?.interrupt(0);
    this.dispatcher.abortAll(why);
  }

  /**
   * A session for a child run nested in this one's interpreter (issue 33), when the run's cell is
   * blocked in an rlm_query over the bridge pipe and no other child is nested in it; otherwise
   * undefined (the child then takes a REPL process of its own, as before). `bridge` answers the
   * child's own sub-calls. The caller closes it before answering the rlm_query.
   */
  openNested(bridge: BridgeHandler): ReplSession | undefined {
    const child = this.child;
    const call = this.rootCall;
    if (this.closed || this.violation || !child || !this.cell || call?.call.kind !== 'rlm_query' || this.startup?.bridgeTransport !== 'pipe') return undefined;
    return this.nesting.open(child, call.callId, bridge);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.generation++;
    this.dispatcher.abortAll('the REPL session was closed');
    // The child's exit is ignored from here (generation), so what waits on it is ended now: a bind
    // left pending would hold its 30 s timer, and with it the process (`rlm ask` exited 30 s late
    // when a limit ended the run during a bind).
    this.requests.failAll(new ReplClosedError('bindContext'));
    this.cell?.lose({ reason: 'crash', detail: 'the session was closed' });
    await this.child?.killAndWait();
    this.child = undefined;
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}
