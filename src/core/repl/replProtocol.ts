// The typed messages between the three parties of a REPL session: the host (extension or CLI), the
// forked child process, and the Pyodide worker thread inside it. Every message is declared once here and
// imported by all three, so a renamed field is a compile error rather than a silent hang.
import type { BridgeCall, CellResult, ReplStartupInfo } from './replTypes';

/** How `context` is laid out in the transferred UTF-8 buffer. */
export type ContextLayout =
  | { kind: 'text' }
  /** Byte ranges of each file inside the buffer, in binding order. */
  | { kind: 'files'; files: Array<{ path: string; start: number; end: number }> };

/** What Python reports after decoding `context`: per entry, length in characters and replacements made. */
export interface BoundSummary {
  chars: number[];
  invalidUtf8Replacements: number[];
}

export type LoadMode = ReplStartupInfo['loadMode'];

/** Facts the REPL side knows about its own start-up and hardening. */
export interface ReadyInfo {
  loadMode: LoadMode;
  loadMs: number;
  pyodideVersion: string;
  /** The SnapshotCache key this build's snapshots use. */
  snapshotKey: string;
  snapshotError?: string;
  permissionModel: boolean;
  jsGlobalsRestricted: boolean;
  pyodideJsUnregistered: boolean;
  networkApisRemoved: boolean;
  codeGenerationFromStringsDisallowed: boolean;
  /** How bridge calls travel: straight between worker and host on the bridge pipe, or relayed. */
  bridgeTransport: BridgeTransportKind;
  notes: string[];
}

/**
 * `pipe`: the worker writes calls to the bridge pipe (fd 4) and blocks reading the reply, with no hop
 * through the child's main thread or IPC (~60 µs per round trip against ~230 µs relayed). `relay`:
 * the fallback where the pipe cannot be read synchronously; calls go worker -> child -> IPC and back.
 */
export type BridgeTransportKind = ReplStartupInfo['bridgeTransport'];

/** The child's fd that carries `context` bytes (host -> child). */
export const CONTEXT_PIPE_FD = 3;
/** The child's fd that carries bridge frames, both ways, between the worker and the host. */
export const BRIDGE_PIPE_FD = 4;

/**
 * Worker -> host on the bridge pipe. `hello` is the start-up probe that the host echoes.
 * `afterOutputs` counts the `output` messages the worker posted before the call: they travel the
 * slower relay, and the host holds the call until it has them, so printed text comes first.
 */
export type BridgeRequestFrame = { callId: number; afterOutputs: number; call: BridgeCall } | { callId: 0; hello: true };
/** Host -> worker on the bridge pipe: a reply, the echo of `hello`, or word that an interrupt cancelled the call. */
export type BridgeReplyFrame = BridgeReply | { callId: number; cancelled: true } | { callId: 0; hello: true };

/** The cell outcome as the worker reports it; the host adds timing, timeout and restart facts. */
export type WorkerCellResult = Omit<CellResult, 'durationMs' | 'timedOut' | 'interrupted' | 'restarted'> & { interrupted: boolean };

export interface StartConfig {
  indexURL: string;
  /** Absolute path of a memory snapshot to load; absent for a cold load. */
  snapshotPath?: string;
  /** Produce a snapshot after a cold load and send it to the host for caching. */
  makeSnapshot: boolean;
  captureMaxChars: number;
  /** Offer the worker the bridge pipe; false forces the relay. */
  bridgePipe: boolean;
}

/** Host -> child, over the IPC channel. The context bytes travel separately, on a raw pipe (fd 3). */
export type HostToChild =
  | { type: 'start'; config: StartConfig }
  | { type: 'bind'; id: number; layout: ContextLayout; byteLength: number }
  | { type: 'exec'; id: number; code: string }
  | { type: 'reset'; id: number }
  | { type: 'interrupt' }
  | { type: 'bridgeReply'; callId: number; result: string[] }
  | { type: 'bridgeFailed'; callId: number; message: string };

/** Child -> host. */
export type ChildToHost =
  | { type: 'ready'; info: ReadyInfo }
  /** A fresh memory snapshot for the host to cache under `key` (Pyodide version + prelude and stdlib key). */
  | { type: 'snapshot'; bytes: Uint8Array; key: string }
  | { type: 'bound'; id: number; summary: BoundSummary }
  | { type: 'bindFailed'; id: number; errorType: string; message: string }
  | { type: 'resetDone'; id: number }
  | { type: 'resetFailed'; id: number; message: string }
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'result'; id: number; result: WorkerCellResult }
  | { type: 'bridgeCall'; callId: number; call: BridgeCall }
  /** The interrupt buffer is set: a bridge call the host still holds can now be cancelled safely. */
  | { type: 'interruptApplied' }
  | { type: 'fatal'; reason: 'crash' | 'out-of-memory' | 'start-failed'; message: string };

/** Child main thread -> worker, over the worker's parentPort. */
export type ChildToWorker =
  | { type: 'bind'; id: number; layout: ContextLayout; buffer: ArrayBuffer }
  | { type: 'exec'; id: number; code: string }
  | { type: 'reset'; id: number }
  /** The memory snapshot file, read by the child's main thread while the worker starts; or why it could not be. */
  | { type: 'snapshotBytes'; buffer?: ArrayBuffer; error?: string };

/** Worker -> child main thread: the same messages as ChildToHost, since the child relays them verbatim. Bridge
 * calls go out here; their replies come back on the bridge port. */
export type WorkerToChild = ChildToHost;

/** The reply to a bridge call, posted on the dedicated bridge port. */
export type BridgeReply = { callId: number; ok: true; result: string[] } | { callId: number; ok: false; message: string };

/** Data handed to the worker thread at creation. */
export interface WorkerBootData {
  config: StartConfig;
  /** Int32Array[1]: Pyodide's interrupt buffer, written directly by the child's main thread. */
  interruptBuffer: SharedArrayBuffer;
  /** Int32Array[1]: bridge state word the worker parks on (see BRIDGE_*). */
  bridgeBuffer: SharedArrayBuffer;
  codeGenerationFromStringsDisallowed: boolean;
  permissionModel: boolean;
  /** The fd for direct bridge frames (BRIDGE_PIPE_FD); absent to use the relay. */
  bridgeFd?: number;
}

export const BRIDGE_IDLE = 0;
export const BRIDGE_REPLIED = 1;
export const BRIDGE_CANCELLED = 2;
export const SIGINT = 2;
