// Node ids and totals arithmetic shared by the tree builder and its consumers. Ids are stable strings
// the webview can key its DOM on; they are unique across a whole stream, child runs included.
import type { TokenUsage } from '../models/modelTypes';
import type { NodeTotals } from '../../shared/nodeTotals';
import type { CellNode, RunNode, SubCallNode, TurnNode } from './treeTypes';

export type TreeNode =
  | { kind: 'run'; node: RunNode }
  | { kind: 'turn'; node: TurnNode; runId: string }
  | { kind: 'cell'; node: CellNode; runId: string }
  | { kind: 'subcall'; node: SubCallNode; runId: string };

export function runNodeId(runId: string): string {
  return `run:${runId}`;
}
export function turnNodeId(runId: string, turn: number): string {
  return `turn:${runId}:${turn}`;
}
export function cellNodeId(runId: string, cellId: string): string {
  return `cell:${runId}:${cellId}`;
}
export function subCallNodeId(runId: string, callId: string): string {
  return `call:${runId}:${callId}`;
}

export function emptyNodeTotals(): NodeTotals {
  return { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0, errors: 0, wallTimeMs: 0 };
}

/** A run that has started and holds nothing yet: turns, warnings and totals empty. */
export function newRunNode(runId: string, depth: number, question: string, startedAt: number): RunNode {
  return { runId, depth, question, startedAt, status: 'running', forced: false, turns: [], limitWarnings: [], fallbacks: [], totals: emptyNodeTotals() };
}

/** A change to add to a node and all its ancestors. */
export interface TotalsDelta {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  costUnknown?: boolean;
  includedInPlan?: boolean;
  subCalls?: number;
  errors?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  savedUsd?: number;
  cachedSubCalls?: number;
}

export function usageDelta(usage: TokenUsage): TotalsDelta {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.costUsd === null ? { costUnknown: true } : { costUsd: usage.costUsd }),
    ...(usage.includedInPlan ? { includedInPlan: true } : {}),
    ...(usage.cacheReadTokens ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    ...(usage.savedUsd ? { savedUsd: usage.savedUsd } : {}),
    ...(usage.fromCache ? { cachedSubCalls: 1 } : {}),
  };
}

/** The whole of a subtree's totals as a delta, for attaching a child run that already has content. */
export function totalsAsDelta(t: NodeTotals): TotalsDelta {
  const { inputTokens, outputTokens, costUsd, costUnknown, subCalls, errors, cacheReadTokens, cacheWriteTokens, savedUsd, cachedSubCalls } = t;
  return { inputTokens, outputTokens, costUsd, costUnknown, ...(t.includedInPlan ? { includedInPlan: true } : {}), subCalls, errors, cacheReadTokens, cacheWriteTokens, savedUsd, cachedSubCalls };
}

/** Adds the optional cache figures of `d` to `t`; they stay absent on a node where nothing was cached. */
export function addCacheFigures(t: Pick<NodeTotals, 'cacheReadTokens' | 'cacheWriteTokens' | 'savedUsd' | 'cachedSubCalls'>, d: TotalsDelta): void {
  if (d.cacheReadTokens) t.cacheReadTokens = (t.cacheReadTokens ?? 0) + d.cacheReadTokens;
  if (d.cacheWriteTokens) t.cacheWriteTokens = (t.cacheWriteTokens ?? 0) + d.cacheWriteTokens;
  if (d.savedUsd) t.savedUsd = (t.savedUsd ?? 0) + d.savedUsd;
  if (d.cachedSubCalls) t.cachedSubCalls = (t.cachedSubCalls ?? 0) + d.cachedSubCalls;
}

export function addToTotals(t: NodeTotals, d: TotalsDelta): void {
  if (d.inputTokens) t.inputTokens += d.inputTokens;
  if (d.outputTokens) t.outputTokens += d.outputTokens;
  if (d.costUsd) t.costUsd += d.costUsd;
  if (d.costUnknown) t.costUnknown = true;
  if (d.includedInPlan) t.includedInPlan = true;
  if (d.subCalls) t.subCalls += d.subCalls;
  if (d.errors) t.errors += d.errors;
  addCacheFigures(t, d);
}

/** The totals of a conversation's runs together; its wall time runs from the first start to the last end. */
export function conversationTotals(runs: RunNode[]): NodeTotals {
  const total = emptyNodeTotals();
  for (const run of runs) {
    addToTotals(total, totalsAsDelta(run.totals));
  }
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (first && last) total.wallTimeMs = Math.max(0, (last.finishedAt ?? last.startedAt + last.totals.wallTimeMs) - first.startedAt);
  return total;
}
