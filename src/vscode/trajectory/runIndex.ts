// Finds runs, cells and sub-calls of a run tree by id, so the host can answer the webview's paging
// requests without walking a 25,000-node tree each time. A live tree grows, so a miss re-indexes once.
import type { CellNode, RunNode, SubCallNode } from '../../core/trajectory/treeTypes';
import type { TextRef } from '../../shared/trajectoryProtocol';
import { reasoningText } from '../../core/trajectory/exportText';
import { markOmission } from '../../core/trajectory/exportText';

export interface IndexedRun {
  run: RunNode;
  /** Index of the root turn this run hangs under (0.. for the root run itself: undefined). */
  rootTurnIndex?: number;
}

export class RunIndex {
  private runs = new Map<string, IndexedRun>();
  private cells = new Map<string, CellNode>();
  private calls = new Map<string, SubCallNode>();
  private indexedAt = -1;

  constructor(
    private readonly getRoot: () => RunNode,
    /** Every top-level run when the file holds a conversation (the root among them). */
    private readonly getRuns?: () => RunNode[],
  ) {}

  run(runId: string): RunNode | undefined {
    // The root is asked for most and needs no index (building one walks the whole tree).
    const root = this.getRoot();
    if (root.runId === runId) return root;
    return this.lookup(() => this.runs.get(runId)?.run);
  }

  /** The root turn that a (possibly nested) run belongs to. */
  rootTurnOf(runId: string): number | undefined {
    return this.lookup(() => this.runs.get(runId))?.rootTurnIndex;
  }

  cell(runId: string, cellId: string): CellNode | undefined {
    return this.lookup(() => this.cells.get(key(runId, cellId)));
  }

  call(runId: string, callId: string): SubCallNode | undefined {
    return this.lookup(() => this.calls.get(key(runId, callId)));
  }

  /** The full text a ref points at, or undefined when it does not exist. */
  text(ref: TextRef): string | undefined {
    switch (ref.kind) {
      case 'question':
        return this.run(ref.runId)?.question;
      case 'answer':
        return this.run(ref.runId)?.answer;
      case 'reasoning': {
        const turn = this.run(ref.runId)?.turns[ref.turnIndex];
        return turn ? reasoningText(turn) : undefined;
      }
      case 'code':
        return this.cell(ref.runId, ref.cellId)?.code;
      // The same text the preview showed, gap mark included, so paging on from it lines up.
      case 'stdout': {
        const cell = this.cell(ref.runId, ref.cellId);
        return cell?.stdout !== undefined ? markOmission(cell.stdout, cell.stdoutChars, cell.stdoutCutAt) : undefined;
      }
      case 'stderr': {
        const cell = this.cell(ref.runId, ref.cellId);
        return cell?.stderr !== undefined ? markOmission(cell.stderr, cell.stderrChars, cell.stderrCutAt) : undefined;
      }
      case 'traceback':
        return this.cell(ref.runId, ref.cellId)?.error?.traceback;
      case 'prompt':
        return this.call(ref.runId, ref.callId)?.prompt;
      case 'response':
        return this.call(ref.runId, ref.callId)?.response;
    }
  }

  /** Forget the index (a live tree gained or replaced nodes); the next lookup rebuilds it. */
  invalidate(): void {
    this.indexedAt = -1;
  }

  private lookup<T>(find: () => T | undefined): T | undefined {
    if (this.indexedAt < 0) this.reindex();
    const found = find();
    if (found !== undefined) return found;
    this.reindex();
    return find();
  }

  private reindex(): void {
    this.runs.clear();
    this.cells.clear();
    this.calls.clear();
    const visit = (run: RunNode, rootTurnIndex: number | undefined): void => {
      this.runs.set(run.runId, { run, rootTurnIndex });
      run.turns.forEach((turn, index) => {
        const rootTurn = rootTurnIndex ?? index;
        for (const cell of turn.cells) {
          this.cells.set(key(run.runId, cell.cellId), cell);
          for (const call of cell.subCalls) {
            this.calls.set(key(run.runId, call.callId), call);
            if (call.child) visit(call.child, rootTurn);
          }
        }
      });
    };
    const runs = this.getRuns?.() ?? [];
    for (const run of runs.includes(this.getRoot()) ? runs : [this.getRoot(), ...runs]) visit(run, undefined);
    this.indexedAt = Date.now();
  }
}

function key(runId: string, id: string): string {
  return `${runId}\u0000${id}`;
}
