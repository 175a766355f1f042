// Every message the host accepts from the REPL process, declared once with the types and sizes of its
// fields: a message that does not match exactly is a ChannelViolation. The REPL process is hostile
// (docs/security.md): these checks, not the process's good behaviour, decide what reaches the session.
import type { BridgeRequestFrame, ChildToHost } from './replProtocol';
import type { ReplCall } from './replTypes';
import { ChannelViolation, excerpt } from './frameCodec';
import { arr, bool, int, json, literal, matching, num, obj, oneOf, str, variants } from './schemaCheck';
import type { Check } from './schemaCheck';

/** Largest JSON frame on the channel: a cell result (FINAL values have no smaller bound) or `ready`. */
export const MAX_CHANNEL_FRAME_BYTES = 256 * 1024 * 1024;
/** Largest memory snapshot the host takes (about 31 MB for Pyodide 314), sent once, before `ready`. */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/**
 * Largest bridge frame: a batch of prompts, or an rlm_query context (a slice of a large input): well
 * above any real call, but a REPL that announces more is stopped before the host buffers it.
 */
export const MAX_BRIDGE_FRAME_BYTES = 1024 * 1024 * 1024;

const ID = int(0, Number.MAX_SAFE_INTEGER);
const COUNT = int(0, Number.MAX_SAFE_INTEGER);
/** Names, keys, versions, probe names, error types. */
const SHORT = str(4096);
/** Messages, tracebacks, answers: bounded by the frame. */
const TEXT = str(MAX_CHANNEL_FRAME_BYTES);
const MANY = 10_000_000;

const PROBE = obj({ name: SHORT, held: bool, detail: TEXT });
const PROBES = arr(PROBE, 1000);

const READY_INFO = obj(
  {
    loadMode: literal('snapshot', 'cold', 'cold-snapshot-failed'),
    loadMs: num,
    pyodideVersion: SHORT,
    snapshotKey: SHORT,
    bridgeTransport: literal('pipe', 'relay'),
    pythonProbes: PROBES,
    runtimeProbes: PROBES,
    networkProbes: PROBES,
    processProbes: PROBES,
    notes: arr(TEXT, 1000),
  },
  { snapshotError: TEXT, permissionProbes: PROBES },
);

const CELL_ERROR = obj({ type: SHORT, message: TEXT, traceback: TEXT });

/** A cell's result: stdout and stderr are bounded by the capture limit the host gave the process. */
function cellResult(captureMaxChars: number): Check {
  const captured = str(captureMaxChars);
  return obj(
    { stdout: captured, stderr: captured, stdoutChars: COUNT, stderrChars: COUNT, newVariables: arr(SHORT, MANY), outIndex: int(-1, Number.MAX_SAFE_INTEGER), interrupted: bool },
    {
      stdoutCutAt: COUNT,
      stderrCutAt: COUNT,
      outKept: obj({ chars: COUNT, ranges: arr(arr(COUNT, 2), MANY) }),
      answerDraft: TEXT,
      error: oneOf(CELL_ERROR, literal(null)),
      final: oneOf(obj({ value: TEXT, via: literal('FINAL', 'FINAL_VAR', 'answer') }), literal(null)),
      timersCleared: COUNT,
    },
  );
}

/** An aborted bind says only that; a lazy one says so beside its (empty) counts. */
const BOUND_SUMMARY = oneOf(obj({ aborted: literal(true) }), obj({ chars: arr(COUNT, MANY), invalidUtf8Replacements: arr(COUNT, MANY) }, { lazy: bool }));

const PATHS = arr(TEXT, MANY);
const PROMPTS = arr(TEXT, MANY);

/** What Python may ask of the host: the loop's sub-calls and a lazy context's reads and searches. */
export const REPL_CALL: Check = variants('kind', {
  llm_query: obj({ kind: literal('llm_query'), prompts: PROMPTS, batched: bool }, { model: oneOf(SHORT, literal(null)), slices: arr(oneOf(arr(COUNT, 2), literal(null)), MANY) }),
  rlm_query: obj({ kind: literal('rlm_query'), prompts: PROMPTS, contexts: arr(json(64), MANY), batched: bool }),
  context_read: obj({ kind: literal('context_read'), paths: PATHS }),
  context_search: obj({ kind: literal('context_search'), pattern: TEXT, flags: matching(/^[isxa]*$/, 8), maxHits: num, paths: oneOf(PATHS, literal(null)) }),
});

const checkCallShape: Check = (value) => {
  const problem = REPL_CALL(value);
  if (problem) return problem;
  const call = value as ReplCall;
  return call.kind === 'rlm_query' && call.contexts.length !== call.prompts.length ? '.contexts does not match .prompts' : undefined;
};

/** The messages on the channel as they travel: the snapshot's bytes follow its announcement as a raw frame. */
export type WireChildToHost = Exclude<ChildToHost, { type: 'snapshot' }> | { type: 'snapshot'; key: string; byteLength: number };

function childMessage(captureMaxChars: number): Check {
  return variants('type', {
    ready: obj({ type: literal('ready'), info: READY_INFO }),
    snapshot: obj({ type: literal('snapshot'), key: SHORT, byteLength: int(0, MAX_SNAPSHOT_BYTES) }),
    bound: obj({ type: literal('bound'), id: ID, summary: BOUND_SUMMARY }),
    bindFailed: obj({ type: literal('bindFailed'), id: ID, errorType: SHORT, message: TEXT }),
    output: obj({ type: literal('output'), stream: literal('stdout', 'stderr'), text: str(captureMaxChars) }),
    result: obj({ type: literal('result'), id: ID, result: cellResult(captureMaxChars) }),
    bridgeCall: obj({ type: literal('bridgeCall'), callId: int(1, Number.MAX_SAFE_INTEGER), call: checkCallShape }),
    interruptApplied: obj({ type: literal('interruptApplied') }),
    fatal: obj({ type: literal('fatal'), reason: literal('crash', 'out-of-memory', 'start-failed'), message: TEXT }),
  });
}

/** Checks one decoded channel message; anything but an exact match throws ChannelViolation. */
export class ChildMessageCheck {
  private readonly check: Check;
  constructor(captureMaxChars: number) {
    this.check = childMessage(captureMaxChars);
  }

  message(value: unknown): WireChildToHost {
    const problem = this.check(value);
    if (problem) throw new ChannelViolation('channel', describeProblem(`message${problem}`, value));
    return value as WireChildToHost;
  }
}

const HELLO_FRAME = obj({ callId: literal(0), hello: literal(true) });
const CALL_ID = int(1, Number.MAX_SAFE_INTEGER);
const CALL_FRAME = obj({ callId: CALL_ID, afterOutputs: COUNT, call: checkCallShape });
const CHILD = int(1, Number.MAX_SAFE_INTEGER);

/**
 * A child run nested in its parent's interpreter (issue 33): the live output of its cell, capped per
 * frame like the channel's, and the outcome of an op, shaped like the channel's bind and cell replies.
 * BridgePipe checks that a nested op the host sent is in flight for that call and child.
 */
function nestedFrames(captureMaxChars: number): { output: Check; done: Check } {
  return {
    output: obj({ callId: CALL_ID, nestedOutput: obj({ child: CHILD, stream: literal('stdout', 'stderr'), text: str(captureMaxChars) }) }),
    done: obj({
      callId: CALL_ID,
      nestedDone: variants('op', {
        bind: oneOf(obj({ child: CHILD, op: literal('bind'), summary: BOUND_SUMMARY }), obj({ child: CHILD, op: literal('bind'), failed: obj({ errorType: SHORT, message: TEXT }) })),
        exec: obj({ child: CHILD, op: literal('exec'), result: cellResult(captureMaxChars) }),
        close: obj({ child: CHILD, op: literal('close') }),
      }),
    }),
  };
}

const bridgeFrameChecks = new Map<number, Check>();
/** The check for frames on the bridge pipe of a process with this capture limit (made once per limit). */
function bridgeFrame(captureMaxChars: number): Check {
  let check = bridgeFrameChecks.get(captureMaxChars);
  if (!check) {
    const nested = nestedFrames(captureMaxChars);
    check = (value) => {
      const frame = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      if (frame.hello !== undefined) return HELLO_FRAME(value);
      if (frame.nestedOutput !== undefined) return nested.output(value);
      if (frame.nestedDone !== undefined) return nested.done(value);
      return CALL_FRAME(value);
    };
    bridgeFrameChecks.set(captureMaxChars, check);
  }
  return check;
}

/** Checks one frame the worker wrote on the bridge pipe. */
export function checkBridgeFrame(value: unknown, captureMaxChars = MAX_CHANNEL_FRAME_BYTES): BridgeRequestFrame {
  const problem = bridgeFrame(captureMaxChars)(value);
  if (problem) throw new ChannelViolation('bridge pipe', describeProblem(`frame${problem}`, value));
  return value as BridgeRequestFrame;
}

/** The problem, and which message type it was in when that is a short string. */
function describeProblem(problem: string, value: unknown): string {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? `${problem} (in a ${excerpt(type)} message)` : problem;
}

// Host -> REPL. The context stream (contextFrames.ts) ends, before its 'E' frame, with one 'M' frame:
// what the input is, as JSON, which Python adds to `context_meta()` (binding.py). It is the root's
// `format` metadata (contextSchemas.ts) in Python's key style, constant size like it, and checked
// here before it is sent: the REPL trusts what the host sends, so the host holds itself to this shape.

/** The input's kind in one word: `text` for plain text (a file, a selection, a folder of text files). */
export type ReplFormatName = 'text' | 'gzip' | 'bzip2' | 'xz' | 'zstd' | 'notebook' | 'pdf' | 'mixed';

/** The 'M' frame's data: the keys `context_meta()` gains. */
export interface ReplFormatMeta {
  format: ReplFormatName;
  /** The format in words, as `rlm show` says it ("read decompressed from gzip"); absent for plain text. */
  format_summary?: string;
  compression?: 'gzip' | 'bzip2' | 'xz' | 'zstd';
  compressed_files?: number;
  log_sets?: Array<{ log: string; parts: number }>;
  log_sets_omitted?: number;
  notebook?: { cells: number; code: number; markdown: number; raw: number; language?: string; binary_outputs: number; truncated_outputs: number };
  notebooks?: number;
  pdf?: { pages: number; textless_pages?: string; textless_count?: number };
  pdfs?: { files: number; read: number; pages: number; textless_pages: number };
}

/** Largest 'M' frame: 20 log sets with paths of a few KB each, and the words. */
export const MAX_FORMAT_FRAME_BYTES = 256 * 1024;
const LOG_SETS_MAX = 20;

export const REPL_FORMAT_META: Check = obj(
  { format: literal('text', 'gzip', 'bzip2', 'xz', 'zstd', 'notebook', 'pdf', 'mixed') },
  {
    format_summary: str(8192),
    compression: literal('gzip', 'bzip2', 'xz', 'zstd'),
    compressed_files: COUNT,
    log_sets: arr(obj({ log: SHORT, parts: COUNT }), LOG_SETS_MAX),
    log_sets_omitted: COUNT,
    notebook: obj({ cells: COUNT, code: COUNT, markdown: COUNT, raw: COUNT, binary_outputs: COUNT, truncated_outputs: COUNT }, { language: SHORT }),
    notebooks: COUNT,
    pdf: obj({ pages: COUNT }, { textless_pages: str(4096), textless_count: COUNT }),
    pdfs: obj({ files: COUNT, read: COUNT, pages: COUNT, textless_pages: COUNT }),
  },
);
