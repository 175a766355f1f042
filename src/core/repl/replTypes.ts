// The REPL session as the loop sees it. The implementation (a forked, hardened child process with a
// Pyodide worker thread) lives beside this file; the loop depends only on these types.
import type { ContextMetadata, ContextSource } from '../context/contextTypes';

/** Which sandbox protections are in force for a session; shown in the UI, the CLI and the trajectory. */
export interface SandboxProtections {
  separateProcess: boolean;
  emptyEnvironment: boolean;
  codeGenerationFromStringsDisallowed: boolean;
  /** Node's permission model (fs and child-process access limited to the Pyodide files). */
  permissionModel: boolean;
  jsGlobalsRestricted: boolean;
  pyodideJsUnregistered: boolean;
  networkApisRemoved: boolean;
  /** Human-readable notes on anything that could not be enabled, and why. */
  notes: string[];
}

/** A synchronous call from Python out to the host, answered by the loop. */
export type BridgeCall =
  | { kind: 'llm_query'; prompts: string[]; model?: string; batched: boolean }
  | { kind: 'rlm_query'; prompts: string[]; contexts: Array<unknown | null>; batched: boolean };

/** One string per prompt, in input order. A failed item is a string starting with "[ERROR] ". */
export type BridgeResult = string[];

export interface BridgeHandler {
  (call: BridgeCall, signal: AbortSignal): Promise<BridgeResult>;
}

export interface CellError {
  /** Python exception type, e.g. "NameError", or "Interrupted" / "Timeout". */
  type: string;
  message: string;
  /** Traceback trimmed to the cell's own frames. */
  traceback: string;
}

export interface FinalAnswer {
  value: string;
  via: 'FINAL' | 'FINAL_VAR' | 'answer';
}

export interface CellResult {
  /** Captured output, at most the capture limit. */
  stdout: string;
  stderr: string;
  /** True lengths in characters, including what was not kept. */
  stdoutChars: number;
  stderrChars: number;
  error?: CellError;
  /** Names bound by this cell that were not bound before. */
  newVariables: string[];
  durationMs: number;
  /** Set when the cell ended the run through FINAL, FINAL_VAR or answer["ready"]. */
  final?: FinalAnswer;
  /** Index n such that `_out[n]` holds this cell's full captured output in Python. */
  outIndex: number;
  /** The soft timeout interrupted the cell (state kept). */
  timedOut?: boolean;
  /** interrupt() or the AbortSignal stopped the cell (state kept). */
  interrupted?: boolean;
  /**
   * The REPL process was killed and replaced (hard timeout, crash, out of memory):
   * `context` was rebound but every variable was lost. The next observation must say so.
   */
  restarted?: { reason: 'hard-timeout' | 'crash' | 'out-of-memory'; detail: string };
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Soft timeout: interrupt the cell and keep state. Hard timeout is soft + 5 s. */
  timeoutMs?: number;
}

export interface ReplOutputEvent {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** How the current REPL process was started (added by the REPL engine; optional for other implementations). */
export interface ReplStartupInfo {
  /** 'cold-snapshot-failed': a cached memory snapshot was offered but could not be used. */
  loadMode: 'snapshot' | 'cold' | 'cold-snapshot-failed';
  /** Pyodide load inside the worker. */
  loadMs: number;
  /** Fork to first cell ready, as the host measured it. */
  startMs: number;
  pyodideVersion: string;
  snapshotError?: string;
  /** `pipe`: sub-calls go straight between the worker and the host; `relay`: the slower fallback through the REPL process. */
  bridgeTransport: 'pipe' | 'relay';
  /** How many times the process was replaced (hard timeout, crash, out of memory). */
  restarts: number;
  /** OS process id of the current REPL process: tells a reused warm process from a new one. */
  pid?: number;
}

export interface ReplSession {
  readonly protections: SandboxProtections;
  readonly startup?: ReplStartupInfo;
  bindContext(source: ContextSource): Promise<ContextMetadata>;
  execute(code: string, options?: ExecuteOptions): Promise<CellResult>;
  /** Stops the running cell, including one blocked in a bridge call, whose host work is aborted. */
  interrupt(): void;
  /** Streamed output as the cell prints it. Returns an unsubscribe function. */
  onOutput(listener: (event: ReplOutputEvent) => void): () => void;
  /**
   * Makes the session clean for another run without restarting the process: drops every variable the
   * cells defined, clears `_out` and resets `answer`, but keeps `context` bound, so binding the same
   * context next is free. Binding a different context also starts from a clean namespace. Pools call
   * this before handing a warm session to a new run; a session without it is never shared across runs.
   */
  resetNamespace?(): Promise<void>;
  close(): Promise<void>;
}
