// Projects the run tree (treeTypes.ts) into the light protocol views the webview renders: previews
// instead of full texts, batches grouped, child runs referenced by id. No `vscode` import: unit-tested.
import type { CellNode, ProviderBatchNode, RunNode, SubCallNode, TurnNode } from '../../core/trajectory/treeTypes';
import type { NodeTotals } from '../../shared/nodeTotals';
import type { ModelRef } from '../../core/trajectory/events';
import { markOmission, reasoningText } from '../../core/trajectory/exportText';
import { addCacheFigures } from '../../core/trajectory/treeNodes';
import { turnLabel } from './turnLabel';
import {
  PAGE,
  type CellView,
  type ProviderBatchView,
  type RunHeaderView,
  type SubCallEntry,
  type SubCallView,
  type TextPreview,
  type TurnSummary,
  type TurnView,
} from '../../shared/trajectoryProtocol';
import { formatCount } from '../../shared/text/format';

export interface RunSourceInfo {
  source: string;
  /**
   * The root model named by the file's header, for runs whose config was not recorded (reference
   * format), or the configured one for a run still starting (nothing recorded yet).
   */
  rootModel?: string;
  /** The configured sub model, for a run still starting. */
  subModel?: string;
  /** What the question is about, in words, for a run still starting (its record names it later). */
  target?: string;
  format: RunHeaderView['format'];
  problems: RunHeaderView['problems'];
  /** The file is still being read. */
  loading?: boolean;
}

export function preview(text: string, max: number = PAGE.previewChars): TextPreview {
  return { text: text.length > max ? text.slice(0, max) : text, totalChars: text.length };
}

/** A copy: the live tree keeps adding to its totals, and a view sent earlier must not change with them. */
export function totalsView(t: NodeTotals): NodeTotals {
  return { ...t };
}

export function modelLabel(ref: ModelRef | undefined): string | undefined {
  return ref ? ref.model : undefined;
}

function firstLine(code: string): string {
  const line = code.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function turnSummary(turn: TurnNode, index: number, runFinished: boolean): TurnSummary {
  const first = turn.cells[0];
  // A user's cell runs after the run has finished.
  const running = turn.author === 'user' ? turn.cells.some((c) => c.finishedAt === undefined) : !runFinished && (turn.cells.length === 0 ? turn.modelText === undefined : turn.cells.some((c) => c.finishedAt === undefined));
  const finishedAt = turn.cells.reduce<number | undefined>((max, c) => (c.finishedAt !== undefined && (max === undefined || c.finishedAt > max) ? c.finishedAt : max), undefined);
  return {
    index,
    turn: turn.turn,
    cells: turn.cells.length,
    subCalls: turn.totals.subCalls,
    errors: turn.totals.errors,
    final: turn.cells.some((c) => c.final !== undefined),
    running,
    startedAt: turn.startedAt,
    finishedAt: finishedAt ?? (turn.latencyMs !== undefined ? turn.startedAt + turn.latencyMs : undefined),
    costUsd: turn.totals.costUsd,
    ...(turn.totals.includedInPlan ? { includedInPlan: true } : {}),
    firstLine: first ? firstLine(first.code) : '',
    label: turnLabel(turn),
    ...(turn.author === 'user' ? { author: 'user' as const } : {}),
  };
}

/** Summaries of turns [from, from + count) (all by default). */
export function outlineOf(run: RunNode, from = 0, count = Infinity): TurnSummary[] {
  const finished = run.status !== 'running';
  const end = Math.min(run.turns.length, from + count);
  const out: TurnSummary[] = [];
  for (let i = from; i < end; i++) out.push(turnSummary(run.turns[i]!, i, finished));
  return out;
}

/** Says what the root model saw of a cell's output, when it did not see all of it. */
export function rootSawNote(cell: CellNode, observationMaxChars: number | undefined): string | undefined {
  const total = (cell.stdoutChars ?? cell.stdout?.length ?? 0) + (cell.stderrChars ?? cell.stderr?.length ?? 0);
  const captured = (cell.stdout?.length ?? 0) + (cell.stderr?.length ?? 0);
  const notes: string[] = [];
  if (observationMaxChars !== undefined && total > observationMaxChars) {
    notes.push(`The root model saw ${formatCount(observationMaxChars)} of ${formatCount(total)} characters (head and tail).`);
  }
  if (total > captured) {
    // Runs recorded since the cut kept head and tail say where they cut; older ones lost the end.
    const middle = cell.stdoutCutAt !== undefined || cell.stderrCutAt !== undefined;
    const lost = formatCount(total - captured);
    notes.push(middle ? `${lost} characters in the middle were beyond the capture limit and not recorded (the head and tail were).` : `${lost} characters were beyond the capture limit and not recorded.`);
  }
  if (notes.length && cell.outIndex !== undefined) notes.push(`The full output was in _out[${cell.outIndex}].`);
  return notes.length ? notes.join(' ') : undefined;
}

function callStatus(call: SubCallNode): SubCallView['status'] {
  if (call.error) return 'error';
  return call.finishedAt === undefined && call.response === undefined ? 'running' : 'ok';
}

export function subCallView(call: SubCallNode): SubCallView {
  return {
    callId: call.callId,
    kind: call.kind,
    batchIndex: call.batchIndex,
    depth: call.depth,
    model: call.model.model,
    status: callStatus(call),
    prompt: preview(call.prompt, PAGE.subCallPreviewChars),
    response: call.response !== undefined ? preview(call.response, PAGE.subCallPreviewChars) : undefined,
    error: call.error ? { ...call.error } : undefined,
    inputTokens: call.usage?.inputTokens,
    outputTokens: call.usage?.outputTokens,
    costUsd: call.usage?.costUsd,
    ...(call.usage?.includedInPlan ? { includedInPlan: true } : {}),
    latencyMs: call.latencyMs,
    fallback: call.fallback,
    ...(call.cached ? { cached: true } : {}),
    ...(call.replayed ? { replayed: true } : {}),
    ...(call.author === 'user' ? { author: 'user' as const } : {}),
    startedAt: call.startedAt,
    finishedAt: call.finishedAt,
    totals: totalsView(call.totals),
    child: call.child
      ? { runId: call.child.runId, status: call.child.status, turns: call.child.turns.length, totals: totalsView(call.child.totals) }
      : undefined,
  };
}

function addTotals(into: NodeTotals, t: NodeTotals): void {
  into.inputTokens += t.inputTokens;
  into.outputTokens += t.outputTokens;
  into.costUsd += t.costUsd;
  into.costUnknown ||= t.costUnknown;
  if (t.includedInPlan) into.includedInPlan = true;
  into.subCalls += t.subCalls;
  into.errors += t.errors;
  addCacheFigures(into, t);
}

/** Sub-calls in call order, the items of one batch grouped under one entry with rolled-up totals. */
export function groupSubCalls(calls: SubCallNode[]): SubCallEntry[] {
  const entries: SubCallEntry[] = [];
  const batches = new Map<string, Extract<SubCallEntry, { kind: 'batch' }>>();
  for (const call of calls) {
    const view = subCallView(call);
    if (call.batchId === undefined) {
      entries.push({ kind: 'call', call: view });
      continue;
    }
    let batch = batches.get(call.batchId);
    if (!batch) {
      batch = {
        kind: 'batch',
        batchId: call.batchId,
        size: call.batchSize ?? 0,
        errors: 0,
        cancelled: 0,
        totals: { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0, errors: 0, wallTimeMs: 0 },
        startedAt: call.startedAt,
        calls: [],
      };
      batches.set(call.batchId, batch);
      entries.push(batch);
    }
    batch.calls.push(view);
    // A cancelled item did not fail: after Stop a batch of 200 reads "200 cancelled", not "200 errors".
    if (view.status === 'error' && (view.error?.kind === 'cancelled' || view.error?.kind === 'batch_canceled')) batch.cancelled += 1;
    else if (view.status === 'error') batch.errors += 1;
    addTotals(batch.totals, view.totals);
    batch.startedAt = Math.min(batch.startedAt, call.startedAt);
    if (call.finishedAt !== undefined) batch.finishedAt = Math.max(batch.finishedAt ?? 0, call.finishedAt);
  }
  for (const batch of batches.values()) {
    batch.size = Math.max(batch.size, batch.calls.length);
    batch.calls.sort((a, b) => (a.batchIndex ?? 0) - (b.batchIndex ?? 0));
    if (batch.finishedAt !== undefined) batch.totals.wallTimeMs = batch.finishedAt - batch.startedAt;
    if (batch.calls.some((c) => c.status === 'running')) batch.finishedAt = undefined;
  }
  return entries;
}

/** `maxSubCalls` keeps a page of turns small when a cell made thousands of calls; the rest are counted. */
export function cellView(cell: CellNode, observationMaxChars: number | undefined, maxSubCalls: number = PAGE.maxSubCallsPerCell): CellView {
  const shown = cell.subCalls.length > maxSubCalls ? cell.subCalls.slice(0, maxSubCalls) : cell.subCalls;
  return {
    cellId: cell.cellId,
    ...(cell.author === 'user' ? { author: 'user' as const } : {}),
    code: preview(cell.code, 20_000),
    startedAt: cell.startedAt,
    finishedAt: cell.finishedAt,
    durationMs: cell.durationMs,
    running: cell.finishedAt === undefined,
    stdout: cell.stdout !== undefined && cell.stdout !== '' ? preview(markOmission(cell.stdout, cell.stdoutChars, cell.stdoutCutAt)) : undefined,
    stderr: cell.stderr !== undefined && cell.stderr !== '' ? preview(markOmission(cell.stderr, cell.stderrChars, cell.stderrCutAt)) : undefined,
    stdoutChars: cell.stdoutChars,
    stderrChars: cell.stderrChars,
    rootSawNote: rootSawNote(cell, observationMaxChars),
    error: cell.error ? { type: cell.error.type, message: cell.error.message, traceback: preview(cell.error.traceback) } : undefined,
    newVariables: cell.newVariables ?? [],
    final: cell.final ? { value: preview(cell.final.value), via: cell.final.via } : undefined,
    timedOut: Boolean(cell.timedOut),
    interrupted: Boolean(cell.interrupted),
    restarted: cell.restarted ? { ...cell.restarted } : undefined,
    outIndex: cell.outIndex,
    subCalls: groupSubCalls(shown),
    ...(shown.length < cell.subCalls.length ? { subCallsOmitted: cell.subCalls.length - shown.length } : {}),
    ...(cell.batchEstimates?.length ? { batchEstimates: cell.batchEstimates.map((e) => ({ ...e })) } : {}),
    ...(cell.providerBatches?.length ? { providerBatches: cell.providerBatches.map(providerBatchView) } : {}),
    totals: totalsView(cell.totals),
  };
}

/** Only what the cell shows: the items' hashes and the endpoint stay in the host. */
function providerBatchView(b: ProviderBatchNode): ProviderBatchView {
  return {
    provider: b.provider,
    providerBatchId: b.providerBatchId,
    status: b.status,
    counts: { ...b.counts },
    elapsedMs: b.elapsedMs,
    updatedAt: b.updatedAt,
    ended: b.ended,
    ...(b.cancelled ? { cancelled: true } : {}),
    ...(b.resumed ? { resumed: true } : {}),
    ...(b.failure !== undefined ? { failure: b.failure } : {}),
  };
}

/** While live, a turn whose model output has not completed holds only the streamed text so far. */
export function isStreaming(run: RunNode, turn: TurnNode): boolean {
  return run.status === 'running' && turn.usage === undefined && turn.modelText !== undefined;
}

export function turnView(run: RunNode, index: number): TurnView | undefined {
  const turn = run.turns[index];
  if (!turn) return undefined;
  const streaming = isStreaming(run, turn);
  const reasoning = streaming ? '' : reasoningText(turn);
  return {
    runId: run.runId,
    index,
    turn: turn.turn,
    startedAt: turn.startedAt,
    finishedAt: turnSummary(turn, index, run.status !== 'running').finishedAt,
    reasoning: reasoning ? preview(reasoning) : undefined,
    inputTokens: turn.usage?.inputTokens,
    outputTokens: turn.usage?.outputTokens,
    costUsd: turn.usage?.costUsd,
    ...(turn.usage?.includedInPlan ? { includedInPlan: true } : {}),
    ...(turn.usage?.cacheReadTokens ? { cacheReadTokens: turn.usage.cacheReadTokens } : {}),
    ...(turn.usage?.savedUsd ? { savedUsd: turn.usage.savedUsd } : {}),
    latencyMs: turn.latencyMs,
    ...(turn.replayed ? { replayed: true } : {}),
    forcedFinal: Boolean(turn.forcedFinal),
    notices: turn.notices.map((n) => ({ ...n })),
    cells: turn.cells.map((c) => cellView(c, run.config?.observationMaxChars)),
    totals: totalsView(turn.totals),
    streaming: streaming ? turn.modelText : undefined,
    ...(run.status === 'running' && turn.usage === undefined && turn.modelText === undefined ? { waiting: true } : {}),
    ...(turn.author === 'user' ? { author: 'user' as const } : {}),
  };
}
