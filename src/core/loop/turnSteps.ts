// The two steps of a turn that talk to the outside: the root model call and the REPL cell, each
// wrapped in its events (model.delta/model.output, cell.started/cell.finished).
import type { ChatMessage, Completion } from '../models/modelTypes';
import type { CellResult, ReplSession } from '../repl/replTypes';
import { linkSignals } from './boundedMap';
import { historyBytes } from './requestBytes';
import type { RunTree } from './runTree';
import type { UsageMeter } from './usageMeter';

interface RunRef {
  runId: string;
  signal: AbortSignal;
  meter: UsageMeter;
}

/**
 * A root request under way whose events are not emitted yet: the first request goes out before the run
 * has started (its REPL and `context` are still being prepared), and its streamed text waits here
 * until the turn it belongs to has begun.
 */
export interface PendingRootCall {
  completion: Promise<Completion>;
  requestBytes: number;
  /** Aborts this request alone (the run's signal aborts it too). */
  abort(): void;
  /** True once the request has settled, either way. */
  readonly settled: boolean;
}

interface RootCallState extends PendingRootCall {
  deltas: string[];
  live?: (text: string) => void;
  settled: boolean;
}

/** Sends a root request now; its deltas are held until finishRootCall() emits them in their turn. */
export function startRootCall(tree: RunTree, run: RunRef, history: ChatMessage[]): PendingRootCall {
  // Recorded so the UI and the benchmarks can show that the root's window stays flat.
  const requestBytes = historyBytes(history);
  // This request's own signal, following the run's only while the request is under way: the run's
  // signal lives as long as the run, and must not gather a listener or a link per turn.
  const own = new AbortController();
  const link = linkSignals([run.signal, own.signal]);
  const state: RootCallState = { completion: Promise.resolve() as unknown as Promise<Completion>, requestBytes, abort: () => own.abort(run.signal.reason), deltas: [], settled: false };
  state.completion = tree.root.complete([...history], {
    signal: link.signal,
    // The conversation only grows: each turn can read the last one's prefix from the provider's cache.
    cache: { conversation: true, key: run.runId },
    onDelta: (text) => (state.live ? state.live(text) : state.deltas.push(text)),
  });
  const settle = (): void => {
    state.settled = true;
    link.dispose();
  };
  state.completion.then(settle, settle);
  return state;
}

/** Emits a started request's events in `turn` (held deltas first), and its output once it is complete. */
export async function finishRootCall(tree: RunTree, run: RunRef, call: PendingRootCall, turn: number, forcedFinal: boolean): Promise<Completion> {
  const state = call as RootCallState;
  const emitDelta = (text: string): void => tree.events.emit({ type: 'model.delta', runId: run.runId, turn, text });
  for (const text of state.deltas.splice(0)) emitDelta(text);
  state.live = emitDelta;
  const completion = await state.completion;
  run.meter.addUsage(completion.usage);
  tree.events.emit({
    type: 'model.output',
    runId: run.runId,
    turn,
    text: completion.text,
    usage: completion.usage,
    latencyMs: completion.latencyMs,
    finishReason: completion.finishReason,
    requestBytes: state.requestBytes,
    ...(forcedFinal ? { forcedFinal } : {}),
  });
  return completion;
}

export async function callRootModel(tree: RunTree, run: RunRef, history: ChatMessage[], turn: number, forcedFinal: boolean): Promise<Completion> {
  return finishRootCall(tree, run, startRootCall(tree, run, history), turn, forcedFinal);
}

export async function runReplCell(tree: RunTree, run: RunRef, session: ReplSession, cellId: string, turn: number, code: string, author?: 'user'): Promise<CellResult> {
  tree.events.emit({ type: 'cell.started', runId: run.runId, turn, cellId, code, ...(author ? { author } : {}) });
  const cell = await session.execute(code, { signal: run.signal, timeoutMs: tree.limits.cellTimeoutMs });
  tree.events.emit({ type: 'cell.finished', runId: run.runId, cellId, ...withoutUndefined(cell) });
  if (cell.restarted) tree.events.emit({ type: 'fallback', runId: run.runId, kind: 'repl-restart', detail: `${cell.restarted.reason}: ${cell.restarted.detail}` });
  return cell;
}

/** The record keeps only the fields a cell has (optional ones are absent, not undefined). */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
