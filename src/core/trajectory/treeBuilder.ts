// Builds the run tree one event at a time. The webview applies every live event, so apply() touches
// only the event's node and its ancestors (bounded by the nesting depth), and returns the ids of the
// nodes it changed so the view can re-render just those.
import { readProtections } from '../repl/sandboxReport';
import type { EventOf, EventRecord, RecordedEvent, RunEvent } from './events';
import type { CellNode, ProviderBatchNode, RunNode, SubCallNode, TurnNode } from './treeTypes';
import {
  addToTotals, cellNodeId, emptyNodeTotals, newRunNode, runNodeId, subCallNodeId, totalsAsDelta, turnNodeId, usageDelta,
} from './treeNodes';
import type { TotalsDelta, TreeNode } from './treeNodes';
import { formatCount } from '../../shared/text/format';

type RunStarted = EventOf<'run.started'>;
/** run.started as an importer can know it: other formats do not record config, protections or context. */
export type ImportedRunStarted = Omit<RunStarted, 'config' | 'protections' | 'context'> &
  Partial<Pick<RunStarted, 'config' | 'protections' | 'context'>>;
/** Anything the builder accepts: every EventRecord, and imported run starts. */
export type BuildableRecord = (RecordedEvent<Exclude<RunEvent, { type: 'run.started' }>> | ImportedRunStarted) & { seq: number; ts: number };

export interface ApplyResult {
  /** Ids of the nodes whose content or totals changed, innermost first. */
  changed: string[];
  problem?: { kind: 'orphan-event' | 'unknown-event'; message: string };
}

interface Entry {
  item: TreeNode;
  parent?: string;
  startedAt: number;
  finished: () => boolean;
}

export class TreeBuilder {
  readonly roots: RunNode[] = [];
  private readonly nodes = new Map<string, Entry>();
  /** child run id -> parent call node id, from child.started seen before the child's run.started. */
  private readonly pendingChildren = new Map<string, string>();

  /** The first top-level run. */
  get tree(): RunNode | undefined {
    return this.roots[0];
  }

  getNode(id: string): TreeNode | undefined {
    return this.nodes.get(id)?.item;
  }

  /** A deep copy that later events do not change. */
  snapshot(): RunNode | undefined {
    return this.roots[0] === undefined ? undefined : structuredClone(this.roots[0]);
  }

  /** Marks runs that never finished; a reader calls this at the end of a file. Returns their run ids. */
  markIncomplete(): string[] {
    const runIds: string[] = [];
    for (const entry of this.nodes.values()) {
      if (entry.item.kind === 'run' && entry.item.node.status === 'running') {
        entry.item.node.status = 'incomplete';
        runIds.push(entry.item.node.runId);
      }
    }
    return runIds;
  }

  apply(record: EventRecord | BuildableRecord): ApplyResult {
    const r = record as BuildableRecord;
    switch (r.type) {
      case 'run.started':
        return this.startRun(r);
      case 'turn.started': {
        const run = this.run(r.runId);
        if (!run) return this.orphan(r);
        const id = this.ensureTurn(r.runId, r.turn, r.ts);
        return { changed: this.touch(id, r.ts) };
      }
      case 'model.delta': {
        const turn = this.turn(r.runId, r.turn);
        if (!turn) return this.orphan(r);
        if (turn.usage === undefined) turn.modelText = (turn.modelText ?? '') + r.text;
        return { changed: [turnNodeId(r.runId, r.turn)] };
      }
      case 'model.output': {
        if (!this.run(r.runId)) return this.orphan(r);
        const id = this.ensureTurn(r.runId, r.turn, r.ts);
        const turn = this.turn(r.runId, r.turn)!;
        turn.modelText = r.text;
        turn.usage = r.usage;
        turn.latencyMs = r.latencyMs;
        turn.requestBytes = r.requestBytes;
        if (r.forcedFinal !== undefined) turn.forcedFinal = r.forcedFinal;
        if (r.replayed) turn.replayed = true;
        return { changed: this.add(id, usageDelta(r.usage), r.ts) };
      }
      case 'protocol.notice': {
        if (!this.run(r.runId)) return this.orphan(r);
        const id = this.ensureTurn(r.runId, r.turn, r.ts);
        this.turn(r.runId, r.turn)!.notices.push({ kind: r.kind, message: r.message });
        return { changed: this.touch(id, r.ts) };
      }
      case 'cell.started': {
        if (!this.run(r.runId)) return this.orphan(r);
        const turnId = this.ensureTurn(r.runId, r.turn, r.ts);
        const user = r.author === 'user';
        const cell: CellNode = { cellId: r.cellId, turn: r.turn, code: r.code, ...(user && { author: 'user' as const }), startedAt: r.ts, subCalls: [], totals: emptyNodeTotals() };
        const turn = this.turn(r.runId, r.turn)!;
        // A user's turn holds only the user's cells; a root turn that gets one is never relabelled.
        if (user && turn.cells.length === 0 && turn.modelText === undefined) turn.author = 'user';
        turn.cells.push(cell);
        const id = cellNodeId(r.runId, r.cellId);
        this.nodes.set(id, { item: { kind: 'cell', node: cell, runId: r.runId }, parent: turnId, startedAt: r.ts, finished: () => cell.finishedAt !== undefined });
        return { changed: this.touch(id, r.ts) };
      }
      case 'cell.output': {
        const cell = this.cell(r.runId, r.cellId);
        if (!cell) return this.orphan(r);
        if (cell.finishedAt === undefined) cell[r.stream] = (cell[r.stream] ?? '') + r.text;
        return { changed: [cellNodeId(r.runId, r.cellId)] };
      }
      case 'cell.finished':
        return this.finishCell(r);
      case 'subcall.started':
        return this.startSubCall(r);
      case 'subcall.finished': {
        const id = subCallNodeId(r.runId, r.callId);
        const call = this.call(r.runId, r.callId);
        if (!call) return this.orphan(r);
        if (r.response !== undefined) call.response = r.response;
        if (r.error !== undefined) call.error = r.error;
        call.usage = r.usage;
        call.latencyMs = r.latencyMs;
        if (r.fallback !== undefined) call.fallback = r.fallback;
        if (r.cached || r.usage.fromCache) call.cached = true;
        if (r.replayed) call.replayed = true;
        // A call cancelled (by Stop, or a batch item the provider cancelled) did not fail: it is not counted as an error.
        const failed = r.error !== undefined && r.error.kind !== 'cancelled' && r.error.kind !== 'batch_canceled';
        const changed = this.add(id, { ...usageDelta(r.usage), errors: failed ? 1 : 0 }, r.ts);
        call.finishedAt = r.ts;
        return { changed };
      }
      case 'child.started': {
        const callId = subCallNodeId(r.runId, r.callId);
        if (!this.nodes.has(callId)) return this.orphan(r);
        const child = this.run(r.childRunId);
        if (child) return { changed: this.linkChild(callId, child, r.ts) };
        this.pendingChildren.set(r.childRunId, callId);
        return { changed: [] };
      }
      case 'child.finished': {
        const child = this.run(r.childRunId);
        if (!child) return this.orphan(r);
        if (child.status === 'running' || child.status === 'incomplete') {
          child.status = r.status;
          if (r.answer !== undefined) child.answer = r.answer;
        }
        return { changed: this.touch(subCallNodeId(r.runId, r.callId), r.ts) };
      }
      case 'limit.warning':
        return this.onRun(r, (run) => run.limitWarnings.push({ limit: r.limit, value: r.value, max: r.max }));
      case 'fallback':
        return this.onRun(r, (run) => run.fallbacks.push({ kind: r.kind, detail: r.detail }));
      case 'batch.estimated': {
        // The cell shows it where the batch was made; the run keeps a line for the exports.
        const cell = this.cell(r.runId, r.cellId);
        const estimate = { batchId: r.batchId, prompts: r.prompts, chars: r.chars, estimatedCostUsd: r.estimatedCostUsd, ...(r.refused ? { refused: r.refused } : {}), ...(r.batchPrice ? { batchPrice: r.batchPrice } : {}) };
        const result = this.onRun(r, (run) => run.fallbacks.push({ kind: 'batch-estimated', detail: describeBatchEstimate(r) }));
        if (!cell) return result;
        (cell.batchEstimates ??= []).push(estimate);
        return { changed: this.touch(cellNodeId(r.runId, r.cellId), r.ts) };
      }
      case 'batch.submitted': {
        const cell = this.cell(r.runId, r.cellId);
        if (!cell) return this.orphan(r);
        const { batchId, provider, endpoint, model, providerBatchId, items } = r;
        (cell.providerBatches ??= []).push({
          batchId,
          provider,
          endpoint,
          model,
          providerBatchId,
          items,
          ...(r.resumed ? { resumed: true as const } : {}),
          status: 'submitted',
          counts: { total: items.length, succeeded: 0, errored: 0, expired: 0, canceled: 0, processing: items.length },
          submittedAt: r.ts,
          elapsedMs: 0,
          updatedAt: r.ts,
          ended: false,
        });
        return { changed: this.touch(cellNodeId(r.runId, r.cellId), r.ts) };
      }
      case 'batch.progress':
      case 'batch.ended': {
        const found = this.providerBatch(r.runId, r.batchId);
        if (!found) return this.orphan(r);
        const { cell, batch } = found;
        batch.status = r.status;
        batch.counts = { ...r.counts };
        batch.elapsedMs = r.elapsedMs;
        batch.updatedAt = r.ts;
        if (r.type === 'batch.ended') {
          batch.ended = true;
          if (r.cancelled) batch.cancelled = true;
          if (r.failure !== undefined) batch.failure = r.failure;
        }
        return { changed: this.touch(cellNodeId(r.runId, cell.cellId), r.ts) };
      }
      case 'answer':
        return this.onRun(r, (run) => {
          // Files from before the RLM contract v1 recorded a printout as the answer ('partial').
          if (r.via === 'partial') run.partial = r.text;
          else run.answer = r.text;
          run.forced = r.forced;
        });
      case 'replay.diverged':
        return this.onRun(r, (run) => {
          const where = r.cellId ? `turn ${r.turn}, cell ${r.cellId}` : `before turn ${r.turn}`;
          run.divergences = [...(run.divergences ?? []), { turn: r.turn, kind: r.kind, detail: r.detail, continued: r.continued }];
          run.fallbacks.push({ kind: 'replay-diverged', detail: `${where}: ${r.detail}${r.continued ? ' (continued: --allow-divergence)' : ''}` });
        });
      case 'coverage':
        return this.onRun(r, (run) => {
          run.coverage = r.coverage;
        });
      case 'references':
        return this.onRun(r, (run) => {
          run.references = r.references;
          run.unresolvedReferences = r.unresolved;
        });
      case 'run.finished': {
        const run = this.run(r.runId);
        if (!run) return this.orphan(r);
        run.status = r.status;
        run.forced = r.forced;
        if (r.answer !== undefined && run.partial !== r.answer) run.answer = r.answer;
        if (r.partial !== undefined) run.partial = r.partial;
        if (r.error !== undefined) run.error = r.error;
        const changed = this.add(runNodeId(r.runId), { errors: r.error ? 1 : 0 }, r.ts);
        run.finishedAt = r.ts;
        return { changed };
      }
      default: {
        const type = (r as { type?: unknown }).type;
        return { changed: [], problem: { kind: 'unknown-event', message: `unknown event type ${JSON.stringify(type)}` } };
      }
    }
  }

  /** The provider batch `batchId` of run `runId`, and its cell (the newest cell holding it). */
  private providerBatch(runId: string, batchId: string): { cell: CellNode; batch: ProviderBatchNode } | undefined {
    const run = this.run(runId);
    for (const turn of [...(run?.turns ?? [])].reverse()) {
      for (const cell of [...turn.cells].reverse()) {
        const batch = cell.providerBatches?.find((b) => b.batchId === batchId);
        if (batch) return { cell, batch };
      }
    }
    return undefined;
  }

  private startRun(r: Extract<BuildableRecord, { type: 'run.started' }>): ApplyResult {
    const id = runNodeId(r.runId);
    if (this.nodes.has(id)) return { changed: [], problem: { kind: 'orphan-event', message: `run ${r.runId} started twice` } };
    const run: RunNode = {
      ...newRunNode(r.runId, r.depth, r.question, r.ts),
      ...(r.parentRunId !== undefined && { parentRunId: r.parentRunId }),
      ...(r.parentCellId !== undefined && { parentCellId: r.parentCellId }),
      ...(r.parentCallId !== undefined && { parentCallId: r.parentCallId }),
      ...(r.context !== undefined && { context: r.context }),
      ...(r.target !== undefined && { target: r.target }),
      ...(r.config !== undefined && { config: r.config }),
      // Records of earlier versions hold flat booleans; every reader sees the layered shape.
      ...(r.protections !== undefined && { protections: readProtections(r.protections) }),
      ...(r.priorTurns !== undefined && { priorTurns: r.priorTurns }),
      ...(r.session !== undefined && { session: r.session }),
      ...(r.continuedFrom !== undefined && { continuedFrom: r.continuedFrom }),
    };
    this.nodes.set(id, { item: { kind: 'run', node: run }, startedAt: r.ts, finished: () => run.finishedAt !== undefined });
    if (r.parentRunId === undefined) {
      this.roots.push(run);
      return { changed: [id] };
    }
    const callId = r.parentCallId !== undefined ? subCallNodeId(r.parentRunId, r.parentCallId) : this.pendingChildren.get(r.runId);
    if (callId === undefined || !this.nodes.has(callId)) {
      if (callId !== undefined) this.pendingChildren.set(r.runId, callId);
      return { changed: [id], problem: { kind: 'orphan-event', message: `child run ${r.runId} has no known parent sub-call` } };
    }
    return { changed: this.linkChild(callId, run, r.ts) };
  }

  private startSubCall(r: Extract<BuildableRecord, { type: 'subcall.started' }>): ApplyResult {
    const cell = this.cell(r.runId, r.cellId);
    if (!cell) return this.orphan(r);
    const call: SubCallNode = {
      callId: r.callId,
      kind: r.kind,
      ...(r.batchId !== undefined && { batchId: r.batchId }),
      ...(r.batchIndex !== undefined && { batchIndex: r.batchIndex }),
      ...(r.batchSize !== undefined && { batchSize: r.batchSize }),
      depth: r.depth,
      model: r.model,
      prompt: r.prompt,
      ...(r.slice && validSlice(r.slice, r.prompt.length) && { slice: { start: r.slice.start, end: r.slice.end } }),
      ...(r.author === 'user' && { author: 'user' as const }),
      startedAt: r.ts,
      totals: emptyNodeTotals(),
    };
    cell.subCalls.push(call);
    const id = subCallNodeId(r.runId, r.callId);
    this.nodes.set(id, { item: { kind: 'subcall', node: call, runId: r.runId }, parent: cellNodeId(r.runId, r.cellId), startedAt: r.ts, finished: () => call.finishedAt !== undefined });
    return { changed: this.add(id, { subCalls: 1 }, r.ts) };
  }

  private finishCell(r: Extract<BuildableRecord, { type: 'cell.finished' }>): ApplyResult {
    const cell = this.cell(r.runId, r.cellId);
    if (!cell) return this.orphan(r);
    cell.stdout = r.stdout;
    cell.stderr = r.stderr;
    cell.stdoutChars = r.stdoutChars;
    cell.stderrChars = r.stderrChars;
    if (r.stdoutCutAt !== undefined) cell.stdoutCutAt = r.stdoutCutAt;
    if (r.stderrCutAt !== undefined) cell.stderrCutAt = r.stderrCutAt;
    if (r.error !== undefined) cell.error = r.error;
    cell.newVariables = r.newVariables;
    cell.durationMs = r.durationMs;
    cell.outIndex = r.outIndex;
    if (r.final !== undefined) cell.final = r.final;
    if (r.timedOut !== undefined) cell.timedOut = r.timedOut;
    if (r.interrupted !== undefined) cell.interrupted = r.interrupted;
    if (r.restarted !== undefined) cell.restarted = r.restarted;
    const changed = this.add(cellNodeId(r.runId, r.cellId), { errors: r.error ? 1 : 0 }, r.ts);
    cell.finishedAt = r.ts;
    return { changed };
  }

  private linkChild(callId: string, child: RunNode, ts: number): string[] {
    const entry = this.nodes.get(callId);
    const runEntry = this.nodes.get(runNodeId(child.runId));
    if (!entry || entry.item.kind !== 'subcall' || !runEntry || runEntry.parent !== undefined) return [];
    entry.item.node.child = child;
    runEntry.parent = callId;
    this.pendingChildren.delete(child.runId);
    return [runNodeId(child.runId), ...this.add(callId, totalsAsDelta(child.totals), ts)];
  }

  /** Adds a delta to a node and every ancestor, and stretches their wall time to `ts`. */
  private add(id: string, delta: TotalsDelta, ts: number): string[] {
    const changed: string[] = [];
    let current: string | undefined = id;
    for (let hops = 0; current !== undefined && hops < 256; hops++) {
      const entry = this.nodes.get(current);
      if (!entry) break;
      const totals = entry.item.node.totals;
      addToTotals(totals, delta);
      if (!entry.finished()) totals.wallTimeMs = Math.max(totals.wallTimeMs, ts - entry.startedAt);
      changed.push(current);
      current = entry.parent;
    }
    return changed;
  }

  /** For events that only record something on their run. */
  private onRun(r: { type: string; runId: string; ts: number }, update: (run: RunNode) => void): ApplyResult {
    const run = this.run(r.runId);
    if (!run) return this.orphan(r);
    update(run);
    return { changed: this.touch(runNodeId(r.runId), r.ts) };
  }

  private touch(id: string, ts: number): string[] {
    return this.add(id, {}, ts);
  }

  private ensureTurn(runId: string, turn: number, ts: number): string {
    const id = turnNodeId(runId, turn);
    if (!this.nodes.has(id)) {
      const node: TurnNode = { turn, startedAt: ts, notices: [], cells: [], totals: emptyNodeTotals() };
      this.run(runId)!.turns.push(node);
      this.nodes.set(id, { item: { kind: 'turn', node, runId }, parent: runNodeId(runId), startedAt: ts, finished: () => false });
    }
    return id;
  }

  private run(runId: string): RunNode | undefined {
    const item = this.nodes.get(runNodeId(runId))?.item;
    return item?.kind === 'run' ? item.node : undefined;
  }
  private turn(runId: string, turn: number): TurnNode | undefined {
    const item = this.nodes.get(turnNodeId(runId, turn))?.item;
    return item?.kind === 'turn' ? item.node : undefined;
  }
  private cell(runId: string, cellId: string): CellNode | undefined {
    const item = this.nodes.get(cellNodeId(runId, cellId))?.item;
    return item?.kind === 'cell' ? item.node : undefined;
  }
  private call(runId: string, callId: string): SubCallNode | undefined {
    const item = this.nodes.get(subCallNodeId(runId, callId))?.item;
    return item?.kind === 'subcall' ? item.node : undefined;
  }

  private orphan(r: { type: string; runId: string }): ApplyResult {
    return { changed: [], problem: { kind: 'orphan-event', message: `${r.type} refers to a run, turn, cell or sub-call that was never started (run ${r.runId})` } };
  }
}

/** "llm_query_batched of 120 prompts (3.1M characters): about $0.42" (and whether it was refused). */
export function describeBatchEstimate(r: { prompts: number; chars: number; estimatedCostUsd: number | null; refused?: true; batchPrice?: true }): string {
  const cost = r.estimatedCostUsd === null ? 'cost unknown (no price for the model)' : `about $${r.estimatedCostUsd.toFixed(4)}${r.batchPrice ? ' at the provider batch price' : ''}`;
  const size = r.chars >= 1_000_000 ? `${(r.chars / 1_000_000).toFixed(1)}M` : formatCount(r.chars);
  return `llm_query_batched of ${r.prompts} prompts (${size} characters): ${cost}${r.refused ? '; refused, over the cost limit, nothing sent' : ''}`;
}

/** A recorded slice is shown apart only when it lies within its prompt (a record is untrusted input). */
function validSlice(slice: { start: number; end: number }, length: number): boolean {
  return Number.isInteger(slice.start) && Number.isInteger(slice.end) && slice.start >= 0 && slice.start <= slice.end && slice.end <= length;
}
