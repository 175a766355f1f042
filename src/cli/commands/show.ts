// `rlm show <file>`: a summary of a recorded run (ours or the Python reference's), in flat memory
// whatever the file's size.
import { statusWord } from '../../shared/text/statusWords';
import { describeProviderBatch } from '../../shared/text/providerBatchText';
import { totalsCostText } from '../../shared/text/costText';
import { NotATrajectoryError, TrajectoryReadError } from '../../core/trajectory/trajectoryScanner';
import { summarizeTrajectory } from '../../core/trajectory/trajectorySummary';
import type { ConversationRunSummary, TrajectorySummary } from '../../core/trajectory/trajectorySummary';
import { describeSession } from '../../core/trajectory/conversationText';
import { LAYER_TITLES, protectionsSummary, readProtections } from '../../core/repl/sandboxReport';
import { formatCost, formatCount, formatDuration, formatTokenCount, formatTokenPair } from '../../shared/text/format';
import { describeInputFormat } from '../../core/context/inputFormatText';
import type { ContextMetadata } from '../../core/context/contextTypes';
import { parseArgs } from 'node:util';
import { UsageError, usageErrorFrom } from '../support/modelArgs';
import type { CommandIo } from './commandIo';
import { inertOutput } from '../support/inertOutput';
import { inertJson } from '../../shared/text/untrustedText';

const SHOW_USAGE = 'usage: rlm show <file.rlm.jsonl | rlm-log.jsonl> [--json] [--problems N]';

/** Problems listed by default; --problems changes it. */
const DEFAULT_PROBLEMS_SHOWN = 10;

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: { problems: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorFrom(error);
  }
}

export async function runShow(argv: string[], given: CommandIo): Promise<number> {
  // The question, answer and problems are the file's text: printed inert (see inertOutput).
  const io = { stdout: inertOutput(given.stdout), stderr: inertOutput(given.stderr) };
  let path: string;
  let json: boolean;
  let problemsShown: number;
  try {
    const args = parseCommandLine(argv);
    if (args.values.help) {
      io.stdout.write(`${SHOW_USAGE}\n`);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'give exactly one file' : 'missing <file>');
    path = args.positionals[0]!;
    json = args.values.json ?? false;
    const raw = args.values.problems;
    problemsShown = raw === undefined ? DEFAULT_PROBLEMS_SHOWN : Number(raw);
    if (!Number.isInteger(problemsShown) || problemsShown < 0) throw new UsageError(`--problems must be a whole number, got ${String(raw)}`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`rlm show: ${error.message}\n${SHOW_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  let summary: TrajectorySummary;
  try {
    summary = await summarizeTrajectory(path);
  } catch (error) {
    if (error instanceof NotATrajectoryError || error instanceof TrajectoryReadError) {
      io.stderr.write(`rlm show: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  io.stdout.write(json ? `${inertJson(summary, 2)}\n` : formatSummary(path, summary, problemsShown));
  return 0;
}

/** What the run read, with its original format (a .gz, a rotated set): from the header, when it has one. */
function inputLine(s: TrajectorySummary): string | undefined {
  const header = s.header;
  const context = header && 'context' in header ? (header.context as ContextMetadata | undefined) : undefined;
  if (!context || typeof context !== 'object' || typeof context.totalChars !== 'number') return undefined;
  const format = describeInputFormat(context.format);
  const parts = context.format && typeof context.format === 'object' && context.format.pdf ? 'pages' : 'files';
  return `${context.type === 'str' ? 'str' : 'dict'}, ${formatCount(context.totalChars)} characters${context.type === 'dict' ? ` in ${formatCount(context.fileCount)} ${parts}` : ''}${format ? `, ${format}` : ''}`;
}

export function formatSummary(path: string, s: TrajectorySummary, problemsShown: number): string {
  const lines: string[] = [];
  const source = s.format === 'rlm-python-jsonl' ? ' (imported from the Python rlm log format)' : '';
  lines.push(`Trajectory: ${path}${source}`);
  const conversation = s.runs.length > 1;
  if (!conversation && s.question) lines.push(`Question:   ${oneLine(s.question, 200)}`);
  const models = modelsOf(s);
  if (models) lines.push(`Models:     ${models}`);
  const input = inputLine(s);
  if (input) lines.push(`Input:      ${input}`);
  if (s.references?.count) lines.push(`References: ${s.references.shown.map((r) => oneLine(r, 200)).join(', ')}${s.references.count > s.references.shown.length ? `, … (${s.references.count} in all)` : ''}`);
  if (conversation) {
    lines.push(`Conversation: ${s.runs.length} questions, each after the first a follow-up`);
    s.runs.forEach((run, i) => lines.push(...conversationRun(run, i, s.runs.length)));
    lines.push('', `Total of the ${s.runs.length} questions:`);
  }
  lines.push(`Status:     ${statusWord(s.status)}${s.forced && s.status !== 'forced' ? ' (forced answer)' : ''}`);
  if (!conversation) lines.push(`Answer:     ${s.answer !== undefined ? oneLine(s.answer, 500) : '(none)'}`);
  const childCells = s.cells > s.rootCells ? ` (${s.cells} with child runs)` : '';
  lines.push(`Turns:      ${s.turns}    Cells: ${s.rootCells}${childCells}${s.cellErrors ? `, ${s.cellErrors} with errors` : ''}`);
  lines.push(`Sub-calls:  ${s.subCalls}${s.subCallErrors ? ` (${s.subCallErrors} failed)` : ''}${s.childRuns ? `, ${s.childRuns} child runs` : ''}`);
  lines.push(`Tokens:     ${formatTokenPair(s.inputTokens, s.outputTokens)}`);
  lines.push(`Cost:       ${totalsCostText({ ...s, includedInPlan: s.includedInPlan }, s.local)}`);
  const cached = cacheLine(s);
  if (cached) lines.push(`Cache:      ${cached}`);
  lines.push(`Time:       ${formatDuration(s.wallTimeMs)}`);
  if (s.providerBatches) {
    const { shown, count } = s.providerBatches;
    lines.push(`Batches:    ${shown.map((b) => oneLine(describeProviderBatch(b), 400)).join('\n            ')}${count > shown.length ? `\n            … and ${count - shown.length} more` : ''}`);
  }
  const sandbox = sandboxOf(s);
  if (sandbox) lines.push(`Sandbox:    ${sandbox[0]}`, ...sandbox.slice(1).map((l) => `          ${l}`));
  lines.push(`Problems:   ${s.problemCount === 0 ? 'none' : s.problemCount}${s.unknownEvents ? ` (${s.unknownEvents} unknown events kept)` : ''}`);
  for (const p of s.problems.slice(0, problemsShown)) lines.push(`  line ${p.line}: ${p.kind}: ${p.message}`);
  const hidden = s.problemCount - Math.min(problemsShown, s.problems.length);
  if (hidden > 0) lines.push(`  … and ${hidden} more (use --problems N or --json)`);
  return `${lines.join('\n')}\n`;
}

/** One question of a conversation: question, answer, how it ended, its own figures and its REPL. */
function conversationRun(run: ConversationRunSummary, index: number, count: number): string[] {
  const lines = ['', `Question ${index + 1} of ${count}: ${oneLine(run.question, 200) || '(not recorded)'}`];
  lines.push(`  Answer:   ${run.answer !== undefined ? oneLine(run.answer, 500) : '(none)'}`);
  const figures = [
    `${run.turns} turn${run.turns === 1 ? '' : 's'}`,
    `${run.cells} cell${run.cells === 1 ? '' : 's'}`,
    `${run.subCalls} sub-call${run.subCalls === 1 ? '' : 's'}`,
    `tokens ${formatTokenPair(run.inputTokens, run.outputTokens)}`,
    totalsCostText(run, run.local, true),
    formatDuration(run.wallTimeMs),
  ];
  lines.push(`  Status:   ${statusWord(run.status)}${run.forced && run.status !== 'forced' ? ' (forced answer)' : ''} · ${figures.join(' · ')}`);
  const session = describeSession(run.session, index);
  if (session) lines.push(`  Session:  ${session}`);
  return lines;
}

/** What caching did for this run, when it did anything. */
function cacheLine(s: TrajectorySummary): string | undefined {
  const parts: string[] = [];
  if (s.cacheReadTokens) parts.push(`${formatTokenCount(s.cacheReadTokens)} input tokens read from the provider's prompt cache`);
  if (s.cachedSubCalls) parts.push(`${s.cachedSubCalls} sub-call${s.cachedSubCalls === 1 ? '' : 's'} answered from the sub-call cache`);
  if (parts.length === 0) return undefined;
  const saved = s.savedUsd ? `; saved ${formatCost(s.savedUsd, false)}` : '';
  return `${parts.join(', ')}${saved}`;
}

function modelsOf(s: TrajectorySummary): string | undefined {
  const h = s.header;
  if (!h) return undefined;
  if (h.format === 'rlm-python-jsonl') return h.rootModel !== undefined ? `root ${h.rootModel}${h.backend ? ` (${h.backend})` : ''}` : undefined;
  if (!h.models) return undefined; // removed as malformed; the problem is listed
  return `root ${h.models.root.model} (${h.models.root.provider}), sub ${h.models.sub.model} (${h.models.sub.provider})`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The sandbox layers as probed when the run started, so a reader can tell how isolated the model's code was. */
function sandboxOf(s: TrajectorySummary): string[] | undefined {
  const h = s.header;
  if (!h || !('protections' in h)) return undefined;
  const p = readProtections(h.protections);
  if (!p) return undefined;
  const lines = [protectionsSummary(p)];
  for (const layer of p.layers) {
    lines.push(`  ${LAYER_TITLES[layer.id]}: ${layer.on ? 'on' : 'OFF'}${layer.probes.length ? ` (${layer.probes.filter((x) => x.held).length} of ${layer.probes.length} probes held)` : ''}`);
    for (const probe of layer.probes.filter((x) => !x.held)) lines.push(`    failed: ${probe.name}: ${probe.detail}`);
    for (const note of layer.notes) lines.push(`    ${note}`);
  }
  return lines;
}
