// Exports a run as a readable Markdown report: question, answer, a totals table, then every turn
// with the root's reasoning, its code, clipped output and sub-calls. Child runs are nested inline.
import type { CellNode, NodeTotals, RunNode, SubCallNode } from './treeTypes';
import { formatCost, formatDuration, formatTokenPair } from '../../shared/format';
import { clipMiddle, fenceFor, reasoningText } from './exportText';

export interface MarkdownExportOptions {
  /** Characters of each output kept (head and tail). Default 2000. */
  outputMaxChars?: number;
  /** Characters of each sub-call prompt and response kept. Default 500. */
  subCallMaxChars?: number;
}

export function toMarkdown(run: RunNode, options: MarkdownExportOptions = {}): string {
  const opts = { outputMaxChars: options.outputMaxChars ?? 2000, subCallMaxChars: options.subCallMaxChars ?? 500 };
  const out: string[] = [];
  out.push(`# RLM run report`, '', `**Question:** ${run.question || '_(not recorded)_'}`, '');
  out.push(`**Status:** ${run.status}${run.forced ? ' (forced answer)' : ''}`, '');
  out.push('## Answer', '', run.answer !== undefined ? run.answer : '_No answer was given._', '');
  if (run.error) out.push(`**Error (${run.error.kind}):** ${run.error.message}`, '');
  out.push('## Totals', '', ...totalsTable(run), '');
  if (run.limitWarnings.length || run.fallbacks.length) {
    out.push('## Limits and fallbacks', '');
    for (const w of run.limitWarnings) out.push(`- limit ${w.limit}: ${w.value} of ${w.max}`);
    for (const f of run.fallbacks) out.push(`- fallback ${f.kind}: ${f.detail}`);
    out.push('');
  }
  appendTurns(out, run, 2, opts);
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function totalsTable(run: RunNode): string[] {
  const t = run.totals;
  const cells = run.turns.reduce((n, turn) => n + turn.cells.length, 0);
  return [
    '| Measure | Value |',
    '| --- | --- |',
    `| Turns | ${run.turns.length} |`,
    `| Cells | ${cells} |`,
    `| Sub-calls | ${t.subCalls} |`,
    `| Input tokens | ${t.inputTokens.toLocaleString('en-US')} |`,
    `| Output tokens | ${t.outputTokens.toLocaleString('en-US')} |`,
    `| Cost | ${formatCost(t.costUsd, t.costUnknown)} |`,
    `| Errors | ${t.errors} |`,
    `| Wall time | ${formatDuration(t.wallTimeMs)} |`,
  ];
}

type Opts = Required<MarkdownExportOptions>;

function appendTurns(out: string[], run: RunNode, level: number, opts: Opts): void {
  const h = '#'.repeat(Math.min(level, 6));
  for (const turn of run.turns) {
    out.push(`${h} Turn ${turn.turn}`, '');
    const reasoning = reasoningText(turn);
    if (reasoning) out.push(quote(reasoning), '');
    for (const n of turn.notices) out.push(`> **${n.kind}:** ${n.message.replace(/\n/g, ' ')}`, '');
    for (const cell of turn.cells) appendCell(out, run, cell, level + 1, opts);
    out.push(`_${totalsText(turn.totals)}_`, '');
  }
}

function appendCell(out: string[], run: RunNode, cell: CellNode, level: number, opts: Opts): void {
  out.push(block(cell.code, 'python'), '');
  const output = [cell.stdout ?? '', cell.stderr ?? ''].filter(Boolean).join('\n');
  if (output) out.push('Output:', '', block(clipMiddle(output, opts.outputMaxChars), 'text'), '');
  if (cell.error) out.push(`**${cell.error.type}:** ${cell.error.message}`, '');
  if (cell.timedOut) out.push('_The cell timed out._', '');
  if (cell.restarted) out.push(`_The REPL restarted (${cell.restarted.reason}): ${cell.restarted.detail}_`, '');
  if (cell.subCalls.length) {
    out.push(`Sub-calls (${cell.subCalls.length}):`, '');
    for (const call of cell.subCalls) appendSubCall(out, run, call, level, opts);
    out.push('');
  }
}

function appendSubCall(out: string[], run: RunNode, call: SubCallNode, level: number, opts: Opts): void {
  const head = `- \`${call.kind}\` ${call.model.model} · ${totalsText(call.totals)}`;
  out.push(head);
  out.push(`  - prompt: ${inline(call.prompt, opts.subCallMaxChars)}`);
  if (call.response !== undefined) out.push(`  - response: ${inline(call.response, opts.subCallMaxChars)}`);
  if (call.error) out.push(`  - error (${call.error.kind}): ${inline(call.error.message, opts.subCallMaxChars)}`);
  if (call.child) {
    out.push('', `${'#'.repeat(Math.min(level + 1, 6))} Child run ${call.child.runId} (depth ${call.child.depth}, ${call.child.status})`, '');
    appendTurns(out, call.child, level + 2, opts);
    out.push(`Child answer: ${call.child.answer !== undefined ? inline(call.child.answer, opts.subCallMaxChars) : '_none_'}`, '');
  }
}

function totalsText(t: NodeTotals): string {
  return `${formatTokenPair(t.inputTokens, t.outputTokens)} tokens, ${formatCost(t.costUsd, t.costUnknown)}, ${formatDuration(t.wallTimeMs)}`;
}

function block(text: string, lang: string): string {
  const fence = fenceFor(text);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function quote(text: string): string {
  return text.split('\n').map((line) => `> ${line}`).join('\n');
}

/** One line as a code span (so model text cannot inject Markdown), newlines flattened, clipped. */
function inline(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '_(empty)_';
  const clipped = flat.length > max ? flat.slice(0, max) : flat;
  let longest = 0;
  for (const match of clipped.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const tick = '`'.repeat(longest + 1);
  const more = flat.length > max ? ` … (${flat.length - max} more characters)` : '';
  return `${tick} ${clipped} ${tick}${more}`;
}
