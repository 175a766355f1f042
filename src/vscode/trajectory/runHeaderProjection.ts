// The run header as the view shows it: question, answer, status, models, totals, limits, fallbacks
// and sandbox protections. No `vscode` import: unit-tested.
import { describeInputFormat } from '../../core/context/inputFormatText';
import type { InputFormat } from '../../core/context/contextTypes';
import type { SandboxProtections } from '../../core/repl/replTypes';
import { LAYER_TITLES } from '../../core/repl/sandboxReport';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { shownTurns } from '../../core/trajectory/turnCount';
import type { ContinuedFrom } from '../../core/trajectory/events';
import type { ContinuedFromView, ProtectionView, RunHeaderView } from '../../shared/trajectoryProtocol';
import { isNoChargeEndpoint } from '../../core/models/pricing';
import { formatBytes, plural } from '../../shared/text/format';
import { describeOutcome } from '../errors/outcomeWording';
import { runModelsAndDepth } from '../../core/trajectory/runModels';
import { modelLabel, preview, totalsView, type RunSourceInfo } from './runProjection';

/** Files named in the coverage strip's tooltips; the record lists up to 500. */
const COVERAGE_FILES_SHOWN = 200;

/** One row per sandbox layer, with what was probed at start (docs/security.md). */
export function protectionsView(p: SandboxProtections | undefined): ProtectionView[] {
  if (!p) return [];
  return p.layers.map((layer) => ({
    label: LAYER_TITLES[layer.id],
    on: layer.on,
    probes: layer.probes.map((probe) => ({ name: probe.name, held: probe.held, detail: probe.detail })),
    notes: layer.notes,
  }));
}

/** The input's original format (a .gz, a rotated set), after the summary. */
function formatNote(format: InputFormat | undefined): string {
  const text = describeInputFormat(format);
  return text ? ` (${text})` : '';
}

/** The format in words for the header's target line, when the input was more than plain text. */
function inputFormatField(run: RunNode): { inputFormat?: string } {
  const text = describeInputFormat(run.context?.format);
  return text ? { inputFormat: text } : {};
}

/** What the entries of `context` are: a PDF asked about alone is bound as its pages, one entry each. */
function entryWord(format: InputFormat | undefined): string {
  return format?.pdf && typeof format.pdf === 'object' ? 'page' : 'file';
}

function describeTarget(run: RunNode): string | undefined {
  return run.target ? targetText(run.target) : undefined;
}

/** "file src/app.ts (1 file, 12 KB)": a target as the header names it (also before its run records it). */
export function targetText(t: NonNullable<RunNode['target']>): string {
  const first = t.paths[0] ?? '';
  const more = t.paths.length > 1 ? ` and ${t.paths.length - 1} more` : '';
  return `${t.kind} ${first}${more} (${plural(t.fileCount, 'file')}, ${formatBytes(t.totalBytes)})`;
}

export function headerView(run: RunNode, info: RunSourceInfo, modelsAndDepth = runModelsAndDepth(run)): RunHeaderView {
  // One figure for the headline and the TURNS stat (src/core/trajectory/turnCount.ts).
  const turns = shownTurns(run);
  return {
    runId: run.runId,
    depth: run.depth,
    parentCallId: run.parentCallId,
    question: preview(run.question),
    answer: run.answer !== undefined ? preview(run.answer, 20_000) : undefined,
    partial: run.answer === undefined && run.partial !== undefined ? preview(run.partial, 4_000) : undefined,
    status: run.status,
    outcome: describeOutcome({ status: run.status, ...(run.error ? { error: run.error } : {}), turns }),
    forced: run.forced,
    error: run.error ? { ...run.error } : undefined,
    pricing: {
      rootLocal: isNoChargeEndpoint(run.config?.root.baseUrl),
      subLocal: isNoChargeEndpoint(run.config?.sub.baseUrl),
      unpriced: modelsAndDepth.unpriced,
    },
    rootModel: modelLabel(run.config?.root) ?? (run.depth === 0 ? info.rootModel : undefined),
    subModel: modelLabel(run.config?.sub) ?? (run.depth === 0 ? info.subModel : undefined),
    models: modelsAndDepth.models,
    maxDepth: modelsAndDepth.maxDepth,
    iterations: turns,
    totals: totalsView(run.totals),
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    limitWarnings: run.limitWarnings.map((w) => ({ ...w })),
    // A batch's cost estimate is not a fallback: its cell shows it, where the batch was made.
    fallbacks: run.fallbacks.filter((f) => f.kind !== 'batch-estimated').map((f) => ({ ...f })),
    protections: protectionsView(run.protections),
    protectionNotes: run.protections?.notes ?? [],
    observationMaxChars: run.config?.observationMaxChars,
    target: describeTarget(run) ?? (run.depth === 0 ? info.target : undefined),
    ...inputFormatField(run),
    contextSummary: run.context ? `${run.context.type}, ${plural(run.context.totalChars, 'character')}, ${plural(run.context.fileCount, entryWord(run.context.format))}${formatNote(run.context.format)}` : undefined,
    source: info.source,
    format: info.format,
    problems: info.problems,
    ...(info.loading ? { loading: true } : {}),
    ...(run.references ? { references: run.references.map((r) => ({ ...r })) } : {}),
    ...(run.unresolvedReferences?.length ? { unresolvedReferences: run.unresolvedReferences.map((u) => ({ citation: u.citation, reason: u.reason, detail: u.detail })) } : {}),
    ...(run.coverage ? { coverage: { totalLines: run.coverage.totalLines, seenLines: run.coverage.seenLines, citedLines: run.coverage.citedLines, buckets: run.coverage.buckets.map((b) => ({ ...b })), files: run.coverage.files.slice(0, COVERAGE_FILES_SHOWN).map((f) => ({ ...f })) } } : {}),
    ...(run.continuedFrom ? { continuedFrom: continuedFromView(run.continuedFrom) } : {}),
  };
}


/**
 * The parent named by its question, never by its file's path (deep in extension storage, and
 * meaningless to a person): "Forked at turn 3 from", "How many errors…?". `openable`: the host knows
 * the parent's file, so the view offers the question as a link that opens it.
 */
function continuedFromView(from: ContinuedFrom): ContinuedFromView {
  const relation = from.mode === 'fork' ? `Forked at turn ${from.fromTurn ?? '?'} from` : from.mode === 'session' ? 'Replayed, for your own cells, from' : 'Continued from';
  const question = from.question.replace(/\s+/g, ' ').trim();
  return { relation, question: question || `run ${from.runId}`, openable: Boolean(from.trajectory) };
}
