// What a root run records beside its answer, once it has one: the answer's `path:line` citations
// resolved against the bound `context` (references, and what could not be resolved), and the coverage
// strip (which parts of the input the run saw). Both read the input again, streamed; neither can fail
// the run: a failure is recorded as a fallback with the reason.
import { lookupForSource, resolveCitations } from '../citations/citationResolve';
import type { CitationLookup, ResolvedCitations } from '../citations/citationResolve';
import type { CoverageTracker } from '../citations/coverage';
import type { ContextSource } from '../context/contextTypes';
import type { Reference, UnresolvedCitation } from '../trajectory/events';
import type { EventStamp } from './runTree';

export type Cited = { references: Reference[]; unresolvedReferences: UnresolvedCitation[] } | Record<string, never>;

export async function recordAnswerEvidence(events: EventStamp, runId: string, answer: string, context: ContextSource, coverage: CoverageTracker | undefined): Promise<Cited> {
  const lookup = lookupForSource(context);
  const resolved = await resolveReferences(events, runId, answer, lookup);
  if (resolved) events.emit({ type: 'references', runId, references: resolved.references, unresolved: resolved.unresolved });
  if (coverage) await emitCoverage(events, runId, context, coverage, lookup, resolved?.references ?? []);
  return resolved ? { references: resolved.references, unresolvedReferences: resolved.unresolved } : {};
}

async function resolveReferences(events: EventStamp, runId: string, answer: string, lookup: CitationLookup): Promise<ResolvedCitations | undefined> {
  try {
    return await resolveCitations(answer, lookup);
  } catch (error) {
    events.emit({ type: 'fallback', runId, kind: 'references-unresolved', detail: `the answer's citations could not be checked: ${messageOf(error)}` });
    return undefined;
  }
}

async function emitCoverage(events: EventStamp, runId: string, context: ContextSource, coverage: CoverageTracker, lookup: CitationLookup, references: Reference[]): Promise<void> {
  const plan = context.kind === 'plan' ? context.plan : undefined;
  if (plan?.lazy) {
    // Scanning a folder over the eager limit would read gigabytes after the answer was found, and
    // hold up the answer that long; each cell.finished record's contextReads says which files were read.
    events.emit({ type: 'fallback', runId, kind: 'coverage-unavailable', detail: `the input is bound lazily (${plan.files.length} files, ${plan.totalBytes} bytes): coverage is computed only for inputs bound whole` });
    return;
  }
  try {
    const record = await coverage.compute(lookup.paths.map((path) => ({ path, scan: (onChunk) => lookup.scan(path, onChunk) })), references);
    events.emit({ type: 'coverage', runId, coverage: record });
  } catch (error) {
    events.emit({ type: 'fallback', runId, kind: 'coverage-unavailable', detail: `the input could not be scanned for coverage: ${messageOf(error)}` });
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
