// The typed messages between the three parties of a REPL session: the host (extension or CLI), the
// forked child process, and the Pyodide worker thread inside it. Every message is declared once here and
// imported by all three, so a renamed field is a compile error rather than a silent hang.
import type { ReplCall, CellResult, ReplStartupInfo, SandboxProbe } from './replTypes';

/** How `context` is laid out in the transferred UTF-8 buffer. */
/** What Python reports after decoding `context`: per entry, length in characters and replacements made. */
export interface BoundSummary {
  chars: number[];
  invalidUtf8Replacements: number[];
  /** The host aborted the bind (it could not deliver what it announced); nothing is bound. */
  aborted?: boolean;
}

export type LoadMode = ReplStartupInfo['loadMode'];

/** Facts the REPL side knows about its own start-up, and what its sandbox probes found. */
export interface ReadyInfo {
  loadMode: LoadMode;
  loadMs: number;
  pyodideVersion: string;
  /** The SnapshotCache key this build's snapshots use. */
  snapshotKey: string;
  snapshotError?: string;
  /** How bridge calls travel: straight between worker and host on the bridge pipe, or relayed. */
  bridgeTransport: BridgeTransportKind;
  /** Layer 1, tried from Python after the cut (isolation.py). */
  pythonProbes: SandboxProbe[];
  /** Layer 2, tried from JS in the worker after the lockdown (runtimeProbe.ts). */
  runtimeProbes: SandboxProbe[];
  /** Layer 3, tried by the REPL process's main thread before the worker starts (networkProbe.ts). */
  networkProbes: SandboxProbe[];
  /** Layer 4: what the process itself holds (its environment). */
  processProbes: SandboxProbe[];
  /** Node's permission model, tried in the worker before layer 2 seals the file system (permissionProbe.ts). */
  permissionProbes?: SandboxProbe[];
  /** Anything that could not be applied, in words. */
  notes: string[];
}

/** Where the host listens for the layer-3 probe: a connection that arrives means the network was reachable. */
export interface CanaryTargets {
  /** Written by a probe that got through, so the host can tell whose probe it was. */
  token?: string;
  tcpPort?: number;
  /** A Unix socket in the host's temporary directory (hidden by the mount namespace where possible). */
  unixPath?: string;
}

/**
 * Only for tests that prove one layer holds with another bypassed: never set by the product, and a
 * session started with it reports the weakened layer as off.
 */
export interface WeakenedLayers {
  /** Leave Python a route to JS: `import js` sees the worker's real globals, nothing is cut. */
  python?: boolean;
  /** Skip the JS lockdown in the worker (module guards, stack-trace freeze, global removal). */
  runtime?: boolean;
  /** Keep Python's GIL between cells, so JS armed by a cell can call Python then (pythonGate.ts). */
  betweenCells?: boolean;
  /** Start without Node's permission model, as under an Electron that ignores it (host side only). */
  permission?: boolean;
}

/**
 * `pipe`: the worker writes calls to the bridge pipe (fd 4) and blocks reading the reply, with no hop
 * through the child's main thread or the channel (~60 µs per round trip against ~230 µs relayed). `relay`:
 * the fallback where the pipe cannot be read synchronously; calls go worker -> child -> channel and back.
 */
export type BridgeTransportKind = ReplStartupInfo['bridgeTransport'];

/** The child's fd that carries `context` bytes (host -> child). */
export const CONTEXT_PIPE_FD = 3;
/** The child's fd that carries bridge frames, both ways, between the worker and the host. */
export const BRIDGE_PIPE_FD = 4;
/** The child's fd of the control channel (both ways): length-prefixed JSON frames, not Node's IPC (replChannel.ts). */
export const CHANNEL_FD = 5;
/** The child's fd of the memory snapshot file, opened by the host. */
export const SNAPSHOT_FD = 6;

/**
 * Worker -> host on the bridge pipe. `hello` is the start-up probe that the host echoes.
 * `afterOutputs` counts the `output` messages the worker posted before the call: they travel the
 * slower channel, and the host holds the call until it has them, so printed text comes first.
 */
export type BridgeRequestFrame = { callId: number; afterOutputs: number; call: ReplCall } | { callId: 0; hello: true } | NestedReportFrame;
/** Host -> worker on the bridge pipe: a reply, the echo of `hello`, word that an interrupt cancelled the call, or a nested op. */
export type BridgeReplyFrame = BridgeReply | { callId: number; cancelled: true } | { callId: 0; hello: true } | NestedOpFrame;

/**
 * A child run nested in its parent's interpreter (issue 33): while the worker is blocked on the parent's
 * rlm_query call `callId`, the host sends it ops on child instance `child` (bind its context frames,
 * base64; run a cell; close it), one at a time, each answered by a `nestedDone` frame.
 */
export type NestedOp = { child: number; op: 'bind'; frames: string } | { child: number; op: 'exec'; code: string } | { child: number; op: 'close' };
type NestedOpFrame = { callId: number; nested: NestedOp };
/** What one nested op came to. */
export type NestedDone =
  | { child: number; op: 'bind'; summary: BoundSummary }
  | { child: number; op: 'bind'; failed: { errorType: string; message: string } }
  | { child: number; op: 'exec'; result: WorkerCellResult }
  | { child: number; op: 'close' };
/** Worker -> host while a nested op runs: its live output (capped per stream and cell), then its outcome. */
export type NestedReportFrame = { callId: number; nestedOutput: { child: number; stream: 'stdout' | 'stderr'; text: string } } | { callId: number; nestedDone: NestedDone };

/** The cell outcome as the worker reports it; the host adds timing, timeout and restart facts. */
export type WorkerCellResult = Omit<CellResult, 'durationMs' | 'timedOut' | 'interrupted' | 'restarted'> & {
  interrupted: boolean;
  /** Timers the cell left armed, cleared by the worker when it ended (nothing of a cell runs after it). */
  timersCleared?: number;
};

export interface StartConfig {
  indexURL: string;
  /** Names the memory snapshot to load (its key is in the name); absent for a cold load. */
  snapshotPath?: string;
  /** The child's fd holding that snapshot, opened by the host: the child needs no read access to the cache. */
  snapshotFd?: number;
  /** Produce a snapshot after a cold load and send it to the host for caching. */
  makeSnapshot: boolean;
  captureMaxChars: number;
  /** What `_out` keeps per cell and in all (the prelude's defaults: 16M and 64M characters). */
  outCellMaxChars?: number;
  outTotalMaxChars?: number;
  /** Offer the worker the bridge pipe; false forces the relay. */
  bridgePipe: boolean;
  canary: CanaryTargets;
  /** The REPL's memory cap (memoryCap.ts, rssWatch.ts); absent: DEFAULT_REPL_MEMORY_MB (memoryCap.ts). */
  memoryCapMb?: number;
  /** Test-only; see WeakenedLayers. */
  weaken?: WeakenedLayers;
}

/** Host -> child, over the control channel (fd 5). The context travels separately, as frames on a raw pipe (fd 3; contextFrames.ts). */
export type HostToChild =
  | { type: 'start'; config: StartConfig }
  /** Frames for this bind follow on the context pipe, up to its end (or abort) frame. */
  | { type: 'bind'; id: number }
  | { type: 'exec'; id: number; code: string }
  | { type: 'interrupt' }
  | { type: 'bridgeReply'; callId: number; result: string[] }
  | { type: 'bridgeFailed'; callId: number; message: string };

/** Child -> host, over the control channel; the host checks each one (childMessages.ts) before reading it. */
export type ChildToHost =
  | { type: 'ready'; info: ReadyInfo }
  /** A fresh memory snapshot for the host to cache under `key` (Pyodide version + prelude and stdlib key). */
  | { type: 'snapshot'; bytes: Uint8Array; key: string }
  | { type: 'bound'; id: number; summary: BoundSummary }
  | { type: 'bindFailed'; id: number; errorType: string; message: string }
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'result'; id: number; result: WorkerCellResult }
  | { type: 'bridgeCall'; callId: number; call: ReplCall }
  /** The interrupt buffer is set: a bridge call the host still holds can now be cancelled safely. */
  | { type: 'interruptApplied' }
  | { type: 'fatal'; reason: 'crash' | 'out-of-memory' | 'start-failed'; message: string };

/** Child main thread -> worker, over the worker's parentPort. */
export type ChildToWorker =
  | { type: 'bindBegin'; id: number }
  /** The next piece of the frame stream: the first `length` bytes of `buffer`; the worker hands it back with bindAck. */
  | { type: 'bindData'; buffer: ArrayBuffer; length: number }
  | { type: 'exec'; id: number; code: string }
  /** The memory snapshot file, read by the child's main thread while the worker starts; or why it could not be. */
  | { type: 'snapshotBytes'; buffer?: ArrayBuffer; error?: string };

/** Worker -> child main thread: the messages of ChildToHost, which the child relays verbatim, and the
 * acknowledgement of context bytes taken (the child's flow control). Bridge calls go out here; their
 * replies come back on the bridge port. */
export type WorkerToChild = ChildToHost | { type: 'bindAck'; /** The piece, handed back for reuse. */ buffer?: ArrayBuffer };

/** The reply to a bridge call, posted on the dedicated bridge port. */
export type BridgeReply = { callId: number; ok: true; result: string[] } | { callId: number; ok: false; message: string };

/** Data handed to the worker thread at creation. */
export interface WorkerBootData {
  config: StartConfig;
  /** Int32Array[1]: Pyodide's interrupt buffer, written directly by the child's main thread. */
  interruptBuffer: SharedArrayBuffer;
  /** Int32Array[1]: bridge state word the worker parks on (see BRIDGE_*). */
  bridgeBuffer: SharedArrayBuffer;
  /** The fd for direct bridge frames (BRIDGE_PIPE_FD); absent to use the relay. */
  bridgeFd?: number;
}

export const BRIDGE_IDLE = 0;
export const BRIDGE_REPLIED = 1;
export const BRIDGE_CANCELLED = 2;
export const SIGINT = 2;
