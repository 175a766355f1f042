// Exports a run as a Jupyter notebook (nbformat 4.5) that VS Code's notebook editor opens without a
// kernel: a markdown cell per turn with the root's reasoning, a code cell per executed cell with its
// recorded output, and sub-calls and costs in each cell's metadata. Child runs stay in metadata.
//
// The code is the model's, steered by untrusted input, and it ran in RLM's sandbox. So the notebook is
// faithful but not runnable on the host by one click: it names no kernel (Run All first asks which
// one), and its first cell says where the code came from. Markdown cells carry escaped text
// (untrustedText.ts), and outputs show control characters visibly. It is written cell by cell, so a
// long run never becomes one JSON string in memory.
import { statusWord } from '../../shared/text/statusWords';
import type { NodeTotals } from '../../shared/nodeTotals';
import type { CellNode, RunNode, SubCallNode, TurnNode } from './treeTypes';
import { totalsCostText } from '../../shared/text/costText';
import { formatDuration, formatTokenPair, plural } from '../../shared/text/format';
import { runIsNoCharge } from '../models/pricing';
import { completedTurns } from './turnCount';
import { referenceListLines } from './exportReferences';
import { describeInputFormat } from '../context/inputFormatText';
import { markdownText, visibleControls } from '../../shared/text/untrustedText';
import { markOmission, reasoningText } from './exportText';
import { describeSession } from './conversationText';
import { conversationTotals } from './treeNodes';

interface NotebookOutput {
  output_type: 'stream' | 'error';
  name?: 'stdout' | 'stderr';
  text?: string[];
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

interface NotebookCell {
  id: string;
  cell_type: 'markdown' | 'code';
  metadata: Record<string, unknown>;
  source: string[];
  outputs?: NotebookOutput[];
  execution_count?: number | null;
}

interface Notebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: Record<string, unknown>;
  cells: NotebookCell[];
}

/** Sub-call prompts and responses are kept in metadata up to this many characters each. */
const METADATA_TEXT_MAX = 20_000;

/** Why the notebook cannot be run as it is; its first cell. */
const PROVENANCE_NOTE = [
  '> **Recorded by RLM. Do not run these cells on your machine.**',
  '>',
  '> The code below was written by a language model while it read your input, and input can steer a model.',
  '> It ran in RLM\'s sandbox: a Python REPL with no network and no access to your files, where `context`',
  '> held the input and `llm_query`, `rlm_query`, `FINAL` and the other helpers called the models.',
  '> None of them exist outside it. This notebook names no kernel on purpose; the outputs shown are the',
  '> ones recorded in the sandbox.',
].join('\n');

/** One run, or the runs of a conversation (a question and its follow-ups) in order. */
type Runs = RunNode | RunNode[];

function asList(runs: Runs): RunNode[] {
  return Array.isArray(runs) ? runs : [runs];
}

export function toNotebook(run: Runs, options: { toolVersion?: string } = {}): Notebook {
  const cells: NotebookCell[] = [];
  const notebook = writeNotebookParts(run, options, (cell) => cells.push(cell));
  return { ...notebook, cells };
}

/** The notebook as JSON text, written in pieces to `write`: the head, then one cell at a time. */
export function writeNotebook(run: Runs, write: (text: string) => void, options: { toolVersion?: string } = {}): void {
  let first = true;
  const cellsJson: string[] = [];
  const flush = (): void => {
    if (cellsJson.length) write(cellsJson.splice(0).join(''));
  };
  let bytes = 0;
  const head = notebookHead(run, options);
  const headJson = JSON.stringify({ ...head, cells: [] }, null, 1);
  write(`${headJson.slice(0, headJson.lastIndexOf('[') + 1)}\n`);
  writeNotebookParts(run, options, (cell) => {
    const text = `${first ? '' : ',\n'}${indent(JSON.stringify(cell, null, 1))}`;
    first = false;
    cellsJson.push(text);
    bytes += text.length;
    if (bytes > 256 * 1024) {
      flush();
      bytes = 0;
    }
  });
  flush();
  write('\n ]\n}\n');
}

function indent(json: string): string {
  return json.replace(/^/gm, '  ');
}

function notebookHead(runs: Runs, options: { toolVersion?: string }): Omit<Notebook, 'cells'> {
  const list = asList(runs);
  const run = list[0]!;
  const conversation = list.length > 1;
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      // No kernelspec: running the model's code on the host takes a deliberate choice of kernel.
      language_info: { name: 'python' },
      rlm: {
        ...(options.toolVersion !== undefined && { toolVersion: options.toolVersion }),
        runId: run.runId,
        question: run.question,
        status: run.status,
        answer: run.answer ?? null,
        ...(run.partial !== undefined && { partial: run.partial }),
        totals: conversation ? conversationTotals(list) : run.totals,
        ...(conversation && { conversation: list.map(runMetadata) }),
        sandbox: 'the code cells ran in the RLM sandbox; see the first cell',
      },
    },
  };
}

function runMetadata(run: RunNode): Record<string, unknown> {
  return {
    runId: run.runId,
    question: run.question,
    status: run.status,
    answer: run.answer ?? null,
    turns: run.turns.length,
    totals: run.totals,
    ...(run.session !== undefined && { session: run.session }),
  };
}

function writeNotebookParts(runs: Runs, options: { toolVersion?: string }, add: (cell: NotebookCell) => void): Omit<Notebook, 'cells'> {
  const list = asList(runs);
  let index = 0;
  // nbformat 4.5 wants ids unique in the notebook, 1-64 characters of [A-Za-z0-9_-].
  const push = (cell: NotebookCell): void => add({ ...cell, id: `${cell.cell_type}-${index++}` });
  push(markdownCell('rlm-provenance', PROVENANCE_NOTE, { rlm: { provenance: true } }));
  if (list.length > 1) push(markdownCell('rlm-conversation', conversationMarkdown(list), { rlm: { conversation: list.map((r) => r.runId) } }));
  list.forEach((run, i) => {
    const label = list.length > 1 ? { index: i, count: list.length } : undefined;
    push(markdownCell('rlm-summary', summaryMarkdown(run, label), { rlm: { runId: run.runId } }));
    for (const turn of run.turns) {
      push(markdownCell(`turn-${turn.turn}`, turnMarkdown(turn, label ? 3 : 2, runIsNoCharge(run.config)), { rlm: { ...(label && { runId: run.runId }), ...turnMetadata(turn) } }));
      for (const cell of turn.cells) push(codeCell(cell));
    }
  });
  return notebookHead(runs, options);
}

/** Every question and answer of a conversation, with each one's figures and the total. */
function conversationMarkdown(runs: RunNode[]): string {
  const lines = [`# RLM conversation: ${runs.length} questions`, '', 'Each question after the first is a follow-up.', ''];
  runs.forEach((run, i) => {
    lines.push(`${i + 1}. **${markdownText(oneLine(run.question)) || '(question not recorded)'}**`);
    lines.push(`   - Answer: ${run.answer !== undefined ? markdownText(oneLine(run.answer)) : 'none'}`);
    lines.push(`   - ${markdownText(statusWord(run.status))} · ${plural(completedTurns(run), 'turn')} · ${totalsLine(run.totals, runIsNoCharge(run.config))}`);
  });
  lines.push('', `**Total:** ${totalsLine(conversationTotals(runs), runs.every((r) => runIsNoCharge(r.config)))}`);
  return lines.join('\n');
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
  // Notebook front ends interpret terminal escapes in outputs (colours, hyperlinks): shown as text here.
  if (cell.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: toLines(visibleControls(markOmission(cell.stdout, cell.stdoutChars, cell.stdoutCutAt))) });
  if (cell.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: toLines(visibleControls(markOmission(cell.stderr, cell.stderrChars, cell.stderrCutAt))) });
  if (cell.error) {
    outputs.push({ output_type: 'error', ename: visibleControls(cell.error.type), evalue: visibleControls(cell.error.message), traceback: cell.error.traceback ? visibleControls(cell.error.traceback).split('\n') : [] });
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

function summaryMarkdown(run: RunNode, label?: { index: number; count: number }): string {
  const title = markdownText(oneLine(run.question)) || '(question not recorded)';
  const session = label ? describeSession(run.session, label.index) : undefined;
  const input = describeInputFormat(run.context?.format);
  return [
    label ? `## Question ${label.index + 1} of ${label.count}: ${title}` : `# RLM run: ${title}`,
    '',
    ...(session ? [`**Session:** ${markdownText(session)}`, ''] : []),
    `**Status:** ${markdownText(statusWord(run.status))}${run.forced && run.status !== 'forced' ? ' (forced answer)' : ''}`,
    '',
    // The input's original format (a .gz, a rotated set, a notebook, a PDF), as `rlm show` and the Markdown export say it.
    ...(input ? [`**Input:** ${markdownText(input)}`, ''] : []),
    run.answer !== undefined ? `**Answer:**\n\n${markdownText(run.answer)}` : run.partial !== undefined ? `**Answer:** none. Partial findings (the last output, not an answer):\n\n${markdownText(run.partial)}` : '**Answer:** none',
    '',
    ...(run.references?.length ? ['**References:**', '', ...referenceListLines(run), ''] : []),
    totalsLine(run.totals, runIsNoCharge(run.config)),
  ].join('\n');
}

function turnMarkdown(turn: TurnNode, level: number, local: boolean): string {
  const reasoning = reasoningText(turn);
  const notices = turn.notices.map((n) => `> **${markdownText(n.kind)}:** ${markdownText(oneLine(n.message))}`);
  if (turn.author === 'user') return [`${'#'.repeat(level)} You (your own cell, turn ${turn.turn})`, '', totalsLine(turn.totals, local)].join('\n');
  return [`${'#'.repeat(level)} Turn ${turn.turn}`, '', reasoning ? markdownText(reasoning) : '_(no reasoning outside the code)_', ...(notices.length ? ['', ...notices] : []), '', totalsLine(turn.totals, local)].join('\n');
}

function totalsLine(t: NodeTotals, local: boolean): string {
  return `_Tokens ${formatTokenPair(t.inputTokens, t.outputTokens)} · cost ${totalsCostText(t, local)} · ${t.subCalls} sub-calls · ${formatDuration(t.wallTimeMs)}_`;
}


function clip(text: string): string {
  return text.length > METADATA_TEXT_MAX ? `${text.slice(0, METADATA_TEXT_MAX)}… [${text.length - METADATA_TEXT_MAX} characters omitted]` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

