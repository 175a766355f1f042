// Collects which turns a stream of TreeBuilder updates touched, per run, so a view gets one update per
// flush instead of one per event. Shared by live runs and by files read progressively. No `vscode`.
import type { EventRecord } from '../../core/trajectory/events';
import type { ApplyResult, TreeBuilder } from '../../core/trajectory/treeBuilder';
import { runNodeId } from '../../core/trajectory/treeNodes';
import type { RunNode, SubCallNode, TurnNode } from '../../core/trajectory/treeTypes';
import type { RunChange } from './trajectorySession';

export interface StreamPush {
  runId: string;
  turnIndex: number;
  text: string;
}

export class ChangeCollector {
  private readonly dirty = new Map<string, Set<number>>();
  private readonly streams = new Map<string, { runId: string; turn: TurnNode }>();

  constructor(private readonly builder: TreeBuilder) {}

  get pending(): boolean {
    return this.dirty.size > 0 || this.streams.size > 0;
  }

  /** Notes what `result` (of applying `record`) changed. */
  note(record: Pick<EventRecord, 'type'>, result: ApplyResult): void {
    for (const id of result.changed) {
      const node = this.builder.getNode(id);
      if (!node) continue;
      if (node.kind === 'run') {
        if (!this.dirty.has(node.node.runId)) this.dirty.set(node.node.runId, new Set());
        continue;
      }
      if (node.kind === 'turn' && record.type === 'model.delta') {
        this.streams.set(id, { runId: node.runId, turn: node.node });
        continue;
      }
      // Some events report only their own node (a cell's streamed output, a call): find its turn.
      const run = this.findRun(node.runId);
      if (!run) continue;
      const index =
        node.kind === 'turn' ? indexOfTurn(run, node.node) : node.kind === 'cell' ? indexOfTurnNumber(run, node.node.turn) : indexOfTurnWithCall(run, node.node);
      if (index < 0) continue;
      const set = this.dirty.get(node.runId) ?? new Set<number>();
      set.add(index);
      this.dirty.set(node.runId, set);
    }
  }

  /** Marks a run changed as a whole (e.g. it was marked incomplete at the end of a file). */
  noteRun(runId: string): void {
    if (!this.dirty.has(runId)) this.dirty.set(runId, new Set());
  }

  /** What changed since the last take, and the streamed text of turns still being written. */
  take(): { changes: RunChange[]; streams: StreamPush[] } {
    const changes: RunChange[] = [...this.dirty].map(([runId, turns]) => ({ runId, changedTurns: [...turns] }));
    const streams: StreamPush[] = [];
    for (const { runId, turn } of this.streams.values()) {
      const run = this.findRun(runId);
      const turnIndex = run ? indexOfTurn(run, turn) : -1;
      if (turnIndex >= 0 && turn.usage === undefined) streams.push({ runId, turnIndex, text: turn.modelText ?? '' });
    }
    this.dirty.clear();
    this.streams.clear();
    return { changes, streams };
  }

  private findRun(runId: string): RunNode | undefined {
    const node = this.builder.getNode(runNodeId(runId));
    return node?.kind === 'run' ? node.node : undefined;
  }
}

/** Turns are appended, so the one asked for is nearly always the last. */
function indexOfTurn(run: RunNode, turn: TurnNode): number {
  for (let i = run.turns.length - 1; i >= 0; i--) if (run.turns[i] === turn) return i;
  return -1;
}

function indexOfTurnNumber(run: RunNode, turn: number): number {
  for (let i = run.turns.length - 1; i >= 0; i--) if (run.turns[i]!.turn === turn) return i;
  return -1;
}

function indexOfTurnWithCall(run: RunNode, call: SubCallNode): number {
  for (let i = run.turns.length - 1; i >= 0; i--) {
    if (run.turns[i]!.cells.some((cell) => cell.subCalls.includes(call))) return i;
  }
  return -1;
}
