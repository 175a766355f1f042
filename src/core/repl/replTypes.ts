// The REPL session as the loop sees it. The implementation (a forked, hardened child process with a
// Pyodide worker thread) lives beside this file; the loop depends only on these types.
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import type { CellResult } from './cellResultSchema';

// A cell's result is declared once, as a schema (the trajectory checks recorded cells against it).
export type { CellError, CellResult, ContextReads } from './cellResultSchema';

/** One check made when the REPL started: an attack tried for real, and whether the layer held. */
export interface SandboxProbe {
  name: string;
  held: boolean;
  /** What happened, e.g. "ModuleDeniedError: ..." or "ENETUNREACH". */
  detail: string;
}

/**
 * The four layers of docs/security.md, each on only when every one of its probes held:
 * - python: Python reaches no JavaScript object (layer 1);
 * - runtime: the REPL process can load no network or process module, reach no stack-trace API, no
 *   host file and no code from strings, whatever JS runs in it (layer 2);
 * - os: the operating system gives the process no network (layer 3; Linux namespaces, macOS sandbox);
 * - process: a separate process with an empty environment that no other run has used (layer 4).
 */
export type SandboxLayerId = 'python' | 'runtime' | 'os' | 'process';

export interface SandboxLayer {
  id: SandboxLayerId;
  on: boolean;
  probes: SandboxProbe[];
  /** What is missing or was chosen, in words (e.g. why the OS layer is off on this platform). */
  notes: string[];
}

/** The sandbox as probed at the start of the REPL a run used; recorded in every trajectory. */
export interface SandboxProtections {
  /** 2: layers probed at start. Trajectories written before hold version 1's flat booleans (see legacyProtections). */
  version: 2;
  layers: SandboxLayer[];
  notes: string[];
  /** Which independent layers held for host files and for the network (sandboxStrength.ts). */
  strength?: SandboxStrength;
}

/** What held, per kind of access; absent in records written before it was counted. */
export interface SandboxStrength {
  /** The independent layers that keep host files from the REPL's JavaScript. */
  file: string[];
  network: string[];
  /** One phrase per kind of access with fewer than two; empty when the sandbox is complete. */
  missing: string[];
  /** The user accepted a weaker sandbox (setting or flag), and this run used one. */
  acceptedWeaker?: boolean;
}

/** A synchronous call from Python out to the host, answered by the loop. */
export type BridgeCall =
  | {
      kind: 'llm_query';
      prompts: string[];
      model?: string;
      batched: boolean;
      /** sub_query(prompt, slice): where each prompt's slice lies in it, [start, end) in UTF-16 units (checked on the host). */
      slices?: Array<[number, number] | null>;
    }
  | { kind: 'rlm_query'; prompts: string[]; contexts: Array<unknown | null>; batched: boolean };

/**
 * A request about a lazy `context` (a folder over the eager limit), answered by the REPL session
 * itself (lazyContextHost.ts), never by the loop: read some files, or search them on the host.
 */
export type ContextCall =
  | { kind: 'context_read'; paths: string[] }
  | { kind: 'context_search'; pattern: string; flags: string; maxHits: number; paths: string[] | null };

/** Any call Python makes over the bridge. */
export type ReplCall = BridgeCall | ContextCall;

/** One string per prompt, in input order. A failed item is a string starting with "[ERROR] ". */
export type BridgeResult = string[];

export interface BridgeHandler {
  (call: BridgeCall, signal: AbortSignal): Promise<BridgeResult>;
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
  /** True until the first cell runs: the pool hands a run only sessions that no code has touched. */
  readonly unused?: boolean;
  /**
   * A session for a child run started by this session's running cell (rlm_query), run in this
   * session's interpreter in a namespace of its own; undefined when that cannot be now (the child
   * then takes a session of its own). Close it before the rlm_query is answered.
   */
  openNested?(bridge: BridgeHandler): ReplSession | undefined;
  close(): Promise<void>;
}
