// The two steps of a turn that talk to the outside: the root model call and the REPL cell, each
// wrapped in its events (model.delta/model.output, cell.started/cell.finished).
import type { ChatMessage, Completion } from '../models/modelTypes';
import type { CellResult, ReplSession } from '../repl/replTypes';
import type { RunTree } from './runTree';
import type { UsageMeter } from './usageMeter';

interface RunRef {
  runId: string;
  signal: AbortSignal;
  meter: UsageMeter;
}

export async function callRootModel(tree: RunTree, run: RunRef, history: ChatMessage[], turn: number, forcedFinal: boolean): Promise<Completion> {
  // Recorded so the UI and the benchmarks can show that the root's window stays flat.
  const requestBytes = Buffer.byteLength(JSON.stringify(history));
  const completion = await tree.root.complete(history, {
    signal: run.signal,
    onDelta: (text) => tree.events.emit({ type: 'model.delta', runId: run.runId, turn, text }),
  });
  run.meter.addUsage(completion.usage);
  tree.events.emit({
    type: 'model.output',
    runId: run.runId,
    turn,
    text: completion.text,
    usage: completion.usage,
    latencyMs: completion.latencyMs,
    finishReason: completion.finishReason,
    requestBytes,
    ...(forcedFinal ? { forcedFinal } : {}),
  });
  return completion;
}

export async function runReplCell(tree: RunTree, run: RunRef, session: ReplSession, cellId: string, turn: number, code: string): Promise<CellResult> {
  tree.events.emit({ type: 'cell.started', runId: run.runId, turn, cellId, code });
  const cell = await session.execute(code, { signal: run.signal, timeoutMs: tree.limits.cellTimeoutMs });
  tree.events.emit({ type: 'cell.finished', runId: run.runId, cellId, ...withoutUndefined(cell) });
  if (cell.restarted) tree.events.emit({ type: 'fallback', runId: run.runId, kind: 'repl-restart', detail: `${cell.restarted.reason}: ${cell.restarted.detail}` });
  return cell;
}

/** The record keeps only the fields a cell has (optional ones are absent, not undefined). */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
