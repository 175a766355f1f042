// Exports a run as a readable Markdown report: question, answer, a totals table, then every turn
// with the root's reasoning, its code, clipped output and sub-calls. Child runs are nested inline.
// Every piece of model or file text goes through untrustedText.ts: the report renders as written,
// with no HTML, no links to other schemes, no images and no fence that breaks out. It is written in
// pieces to a sink, so a long run never becomes one string in memory.
import { statusWord } from '../../shared/text/statusWords';
import type { NodeTotals } from '../../shared/nodeTotals';
import type { CellNode, RunNode, SubCallNode } from './treeTypes';
import { totalsCostText } from '../../shared/text/costText';
import { formatCount, formatDuration, formatTokenPair, plural } from '../../shared/text/format';
import { isNoChargeEndpoint, runIsNoCharge } from '../models/pricing';
import { completedTurns } from './turnCount';
import { fencedBlock, markdownText, visibleControls } from '../../shared/text/untrustedText';
import { clipMiddle, reasoningText } from './exportText';
import { describeSession } from './conversationText';
import { conversationTotals } from './treeNodes';
import { referenceListLines } from './exportReferences';
import { describeInputFormat } from '../context/inputFormatText';

interface MarkdownExportOptions {
  /** Characters of each output kept (head and tail). Default 2000. */
  outputMaxChars?: number;
  /** Characters of each sub-call prompt and response kept. Default 500. */
  subCallMaxChars?: number;
}

export function toMarkdown(runs: RunNode | RunNode[], options: MarkdownExportOptions = {}): string {
  const parts: string[] = [];
  writeMarkdown(runs, (text) => parts.push(text), options);
  return parts.join('');
}

/**
 * Writes the report in pieces to `write`, each ending in a newline. Several runs are a conversation
 * (a question and its follow-ups): every question and answer comes first, then each run in full.
 */
export function writeMarkdown(runs: RunNode | RunNode[], write: (text: string) => void, options: MarkdownExportOptions = {}): void {
  const opts = { outputMaxChars: options.outputMaxChars ?? 2000, subCallMaxChars: options.subCallMaxChars ?? 500 };
  const list = Array.isArray(runs) ? runs : [runs];
  const out = new LineSink(write);
  if (list.length === 1) {
    out.push(`# RLM run report`, '');
    appendRun(out, list[0]!, 2, opts);
  } else {
    out.push(`# RLM conversation report`, '', `${list.length} questions in one conversation; each after the first is a follow-up.`, '');
    out.push('## Questions and answers', '');
    list.forEach((run, i) => {
      out.push(`${i + 1}. **Question:** ${inline(run.question, 300)}`);
      out.push(`   - **Answer:** ${run.answer !== undefined ? inline(run.answer, 300) : '_none_'}`);
      out.push(`   - ${markdownText(statusWord(run.status))} · ${plural(completedTurns(run), 'turn')} · ${run.totals.subCalls} sub-calls · ${totalsText(run.totals, runIsNoCharge(run.config))}`);
    });
    out.push('', '## Totals of the conversation', '', ...totalsTable(list, conversationTotals(list)), '');
    list.forEach((run, i) => {
      out.push(`## Question ${i + 1} of ${list.length}`, '');
      const session = describeSession(run.session, i);
      if (session) out.push(`**Session:** ${markdownText(session)}`, '');
      appendRun(out, run, 3, opts);
    });
  }
  out.end();
}

/** References listed in a report, at most. */

function appendRun(out: LineSink, run: RunNode, level: number, opts: Opts): void {
  const h = '#'.repeat(Math.min(level, 6));
  out.push(`**Question:** ${run.question ? markdownText(run.question) : '_(not recorded)_'}`, '');
  out.push(`**Status:** ${statusWord(run.status)}${run.forced && run.status !== 'forced' ? ' (forced answer)' : ''}`, '');
  // The input's original format (a .gz, a rotated set, a PDF), as `rlm show` says it.
  const input = describeInputFormat(run.context?.format);
  if (input) out.push(`**Input:** ${markdownText(input)}`, '');
  out.push(`${h} Answer`, '', run.answer !== undefined ? markdownText(run.answer) : '_No answer was given._', '');
  const refs = referenceListLines(run);
  if (refs.length) out.push(`${h} References`, '', ...refs, '');
  if (run.answer === undefined && run.partial !== undefined) out.push('Partial findings (the run\'s last output, not an answer):', '', fencedBlock(run.partial, 'text'), '');
  if (run.error) out.push(`**Error (${markdownText(run.error.kind)}):** ${markdownText(run.error.message)}`, '');
  out.push(`${h} Totals`, '', ...totalsTable([run], run.totals), '');
  if (run.limitWarnings.length || run.fallbacks.length) {
    out.push(`${h} Limits and fallbacks`, '');
    for (const w of run.limitWarnings) out.push(`- limit ${markdownText(w.limit)}: ${w.value} of ${w.max}`);
    for (const f of run.fallbacks) out.push(`- fallback ${markdownText(f.kind)}: ${markdownText(f.detail)}`);
    out.push('');
  }
  appendTurns(out, run, level, opts);
}

/** Lines out in pieces; blank separator lines never repeat (blank lines inside a block are kept). */
class LineSink {
  private lastBlank = true;
  private buffered: string[] = [];
  private size = 0;

  constructor(private readonly write: (text: string) => void) {}

  push(...units: string[]): void {
    for (const unit of units) {
      if (unit === '') {
        if (this.lastBlank) continue;
        this.lastBlank = true;
      } else {
        this.lastBlank = false;
      }
      this.buffered.push(unit);
      this.size += unit.length + 1;
    }
    if (this.size > 64 * 1024) this.flush();
  }

  private flush(): void {
    if (this.buffered.length) this.write(`${this.buffered.join('\n')}\n`);
    this.buffered = [];
    this.size = 0;
  }

  end(): void {
    while (this.buffered.length && this.buffered[this.buffered.length - 1] === '') this.buffered.pop();
    this.flush();
  }
}

function totalsTable(runs: RunNode[], t: NodeTotals): string[] {
  const turns = runs.reduce((n, run) => n + completedTurns(run), 0);
  const local = runs.every((run) => runIsNoCharge(run.config));
  const cells = runs.reduce((n, run) => n + run.turns.reduce((m, turn) => m + turn.cells.length, 0), 0);
  return [
    '| Measure | Value |',
    '| --- | --- |',
    `| Turns | ${turns} |`,
    `| Cells | ${cells} |`,
    `| Sub-calls | ${t.subCalls} |`,
    `| Input tokens | ${formatCount(t.inputTokens)} |`,
    `| Output tokens | ${formatCount(t.outputTokens)} |`,
    `| Cost | ${totalsCostText(t, local)} |`,
    `| Errors | ${t.errors} |`,
    `| Wall time | ${formatDuration(t.wallTimeMs)} |`,
  ];
}

type Opts = Required<MarkdownExportOptions>;

function appendTurns(out: LineSink, run: RunNode, level: number, opts: Opts): void {
  const h = '#'.repeat(Math.min(level, 6));
  for (const turn of run.turns) {
    out.push(turn.author === 'user' ? `${h} You (your own cell, turn ${turn.turn})` : `${h} Turn ${turn.turn}`, '');
    const reasoning = reasoningText(turn);
    if (reasoning) out.push(quote(markdownText(reasoning)), '');
    for (const n of turn.notices) out.push(`> **${markdownText(n.kind)}:** ${markdownText(n.message.replace(/\n/g, ' '))}`, '');
    for (const cell of turn.cells) appendCell(out, run, cell, level + 1, opts);
    out.push(`_${totalsText(turn.totals, runIsNoCharge(run.config))}_`, '');
  }
}

function appendCell(out: LineSink, run: RunNode, cell: CellNode, level: number, opts: Opts): void {
  out.push(fencedBlock(cell.code, 'python'), '');
  const output = [cell.stdout ?? '', cell.stderr ?? ''].filter(Boolean).join('\n');
  if (output) out.push('Output:', '', fencedBlock(clipMiddle(output, opts.outputMaxChars), 'text'), '');
  if (cell.error) out.push(`**${markdownText(cell.error.type)}:** ${markdownText(cell.error.message)}`, '');
  if (cell.timedOut) out.push('_The cell timed out._', '');
  if (cell.restarted) out.push(`_The REPL restarted (${markdownText(cell.restarted.reason)}): ${markdownText(cell.restarted.detail)}_`, '');
  if (cell.subCalls.length) {
    out.push(`Sub-calls (${cell.subCalls.length}):`, '');
    for (const call of cell.subCalls) appendSubCall(out, run, call, level, opts);
    out.push('');
  }
}

function appendSubCall(out: LineSink, run: RunNode, call: SubCallNode, level: number, opts: Opts): void {
  const head = `- ${inline(call.kind, 40)} ${inline(call.model.model, 80)} · ${totalsText(call.totals, isNoChargeEndpoint(call.model.baseUrl ?? run.config?.sub.baseUrl))}`;
  out.push(head);
  if (call.slice) {
    // sub_query(prompt, slice): the question and the slice apart, as the record keeps them.
    // The prelude's separator line before the slice (docs/rlm-contract.md, section 7) is not the question.
    const question = call.prompt.slice(0, call.slice.start).replace(/\n\n--- slice \(\d+ characters\) ---\n$/, '');
    out.push(`  - question: ${inline(question, opts.subCallMaxChars)}`);
    out.push(`  - slice (${call.slice.end - call.slice.start} chars): ${inline(call.prompt.slice(call.slice.start, call.slice.end), opts.subCallMaxChars)}`);
  } else {
    out.push(`  - prompt: ${inline(call.prompt, opts.subCallMaxChars)}`);
  }
  if (call.response !== undefined) out.push(`  - response: ${inline(call.response, opts.subCallMaxChars)}`);
  if (call.error) out.push(`  - error (${markdownText(call.error.kind)}): ${inline(call.error.message, opts.subCallMaxChars)}`);
  if (call.child) {
    out.push('', `${'#'.repeat(Math.min(level + 1, 6))} Child run ${markdownText(call.child.runId)} (depth ${call.child.depth}, ${markdownText(statusWord(call.child.status))})`, '');
    appendTurns(out, call.child, level + 2, opts);
    out.push(`Child answer: ${call.child.answer !== undefined ? inline(call.child.answer, opts.subCallMaxChars) : '_none_'}`, '');
  }
}

function totalsText(t: NodeTotals, local: boolean): string {
  return `${formatTokenPair(t.inputTokens, t.outputTokens)} tokens, ${totalsCostText(t, local)}, ${formatDuration(t.wallTimeMs)}`;
}

function quote(text: string): string {
  return text.split('\n').map((line) => `> ${line}`).join('\n');
}

/** One line as a code span (so model text cannot inject Markdown), newlines flattened, clipped. */
function inline(text: string, max: number): string {
  const flat = visibleControls(text).replace(/\s+/g, ' ').trim();
  if (flat === '') return '_(empty)_';
  const clipped = flat.length > max ? flat.slice(0, max) : flat;
  let longest = 0;
  for (const match of clipped.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const tick = '`'.repeat(longest + 1);
  const more = flat.length > max ? ` … (${flat.length - max} more characters)` : '';
  return `${tick} ${clipped} ${tick}${more}`;
}
