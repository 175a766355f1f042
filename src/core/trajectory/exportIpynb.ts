// Exports a run as a Jupyter notebook (nbformat 4.5) that VS Code's notebook editor opens without a
// kernel: a markdown cell per turn with the root's reasoning, a code cell per executed cell with its
// recorded output, and sub-calls and costs in each cell's metadata. Child runs stay in metadata.
import type { CellNode, NodeTotals, RunNode, SubCallNode, TurnNode } from './treeTypes';
import { formatCost, formatDuration, formatTokenPair } from '../../shared/format';
import { reasoningText } from './exportText';

export interface NotebookOutput {
  output_type: 'stream' | 'error';
  name?: 'stdout' | 'stderr';
  text?: string[];
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

export interface NotebookCell {
  id: string;
  cell_type: 'markdown' | 'code';
  metadata: Record<string, unknown>;
  source: string[];
  outputs?: NotebookOutput[];
  execution_count?: number | null;
}

export interface Notebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: Record<string, unknown>;
  cells: NotebookCell[];
}

/** Sub-call prompts and responses are kept in metadata up to this many characters each. */
const METADATA_TEXT_MAX = 20_000;

export function toNotebook(run: RunNode, options: { toolVersion?: string } = {}): Notebook {
  const cells: NotebookCell[] = [markdownCell('rlm-summary', summaryMarkdown(run), { rlm: { runId: run.runId } })];
  for (const turn of run.turns) {
    cells.push(markdownCell(`turn-${turn.turn}`, turnMarkdown(turn), { rlm: turnMetadata(turn) }));
    for (const cell of turn.cells) cells.push(codeCell(cell));
  }
  // nbformat 4.5 wants ids unique in the notebook, 1-64 characters of [A-Za-z0-9_-].
  cells.forEach((cell, i) => (cell.id = `${cell.cell_type}-${i}`));
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      rlm: {
        ...(options.toolVersion !== undefined && { toolVersion: options.toolVersion }),
        runId: run.runId,
        question: run.question,
        status: run.status,
        answer: run.answer ?? null,
        totals: run.totals,
      },
    },
    cells,
  };
}

export function notebookJson(notebook: Notebook): string {
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

/** nbformat's multiline string: lines that keep their newline, the last one without. */
export function toLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  return parts.map((line, i) => (i < parts.length - 1 ? `${line}\n` : line)).filter((line) => line !== '');
}

function markdownCell(id: string, text: string, metadata: Record<string, unknown>): NotebookCell {
  return { id, cell_type: 'markdown', metadata, source: toLines(text) };
}

function codeCell(cell: CellNode): NotebookCell {
  const outputs: NotebookOutput[] = [];
  if (cell.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: toLines(withOmission(cell.stdout, cell.stdoutChars)) });
  if (cell.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: toLines(withOmission(cell.stderr, cell.stderrChars)) });
  if (cell.error) {
    outputs.push({ output_type: 'error', ename: cell.error.type, evalue: cell.error.message, traceback: cell.error.traceback ? cell.error.traceback.split('\n') : [] });
  }
  return {
    id: 'code',
    cell_type: 'code',
    metadata: {
      rlm: {
        cellId: cell.cellId,
        turn: cell.turn,
        ...(cell.durationMs !== undefined && { durationMs: cell.durationMs }),
        ...(cell.newVariables !== undefined && { newVariables: cell.newVariables }),
        ...(cell.final !== undefined && { final: cell.final }),
        ...(cell.timedOut && { timedOut: true }),
        ...(cell.interrupted && { interrupted: true }),
        ...(cell.restarted && { restarted: cell.restarted }),
        totals: cell.totals,
        subCalls: cell.subCalls.map(subCallMetadata),
      },
    },
    source: toLines(cell.code),
    outputs,
    execution_count: cell.outIndex !== undefined ? cell.outIndex + 1 : null,
  };
}

function subCallMetadata(call: SubCallNode): Record<string, unknown> {
  return {
    callId: call.callId,
    kind: call.kind,
    model: call.model.model,
    depth: call.depth,
    ...(call.batchId !== undefined && { batchId: call.batchId, batchIndex: call.batchIndex, batchSize: call.batchSize }),
    prompt: clip(call.prompt),
    ...(call.response !== undefined && { response: clip(call.response) }),
    ...(call.error !== undefined && { error: call.error }),
    ...(call.usage !== undefined && { usage: call.usage }),
    ...(call.latencyMs !== undefined && { latencyMs: call.latencyMs }),
    ...(call.fallback !== undefined && { fallback: call.fallback }),
    totals: call.totals,
    ...(call.child && {
      childRun: {
        runId: call.child.runId,
        status: call.child.status,
        answer: call.child.answer === undefined ? null : clip(call.child.answer),
        turns: call.child.turns.length,
        cells: call.child.turns.reduce((n, t) => n + t.cells.length, 0),
        totals: call.child.totals,
      },
    }),
  };
}

function turnMetadata(turn: TurnNode): Record<string, unknown> {
  return {
    turn: turn.turn,
    ...(turn.usage !== undefined && { usage: turn.usage }),
    ...(turn.latencyMs !== undefined && { latencyMs: turn.latencyMs }),
    ...(turn.requestBytes !== undefined && { requestBytes: turn.requestBytes }),
    ...(turn.notices.length > 0 && { notices: turn.notices }),
    totals: turn.totals,
  };
}

function summaryMarkdown(run: RunNode): string {
  return [
    `# RLM run: ${oneLine(run.question) || '(question not recorded)'}`,
    '',
    `**Status:** ${run.status}${run.forced ? ' (forced answer)' : ''}`,
    '',
    run.answer !== undefined ? `**Answer:**\n\n${run.answer}` : '**Answer:** none',
    '',
    totalsLine(run.totals),
  ].join('\n');
}

function turnMarkdown(turn: TurnNode): string {
  const reasoning = reasoningText(turn);
  const notices = turn.notices.map((n) => `> **${n.kind}:** ${oneLine(n.message)}`);
  return [`## Turn ${turn.turn}`, '', reasoning || '_(no reasoning outside the code)_', ...(notices.length ? ['', ...notices] : []), '', totalsLine(turn.totals)].join('\n');
}

function totalsLine(t: NodeTotals): string {
  return `_Tokens ${formatTokenPair(t.inputTokens, t.outputTokens)} · cost ${formatCost(t.costUsd, t.costUnknown)} · ${t.subCalls} sub-calls · ${formatDuration(t.wallTimeMs)}_`;
}

function withOmission(text: string, totalChars: number | undefined): string {
  return totalChars !== undefined && totalChars > text.length ? `${text}\n[… ${totalChars - text.length} more characters were not captured]` : text;
}

function clip(text: string): string {
  return text.length > METADATA_TEXT_MAX ? `${text.slice(0, METADATA_TEXT_MAX)}… [${text.length - METADATA_TEXT_MAX} characters omitted]` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

