// Search across a run's reasoning, code, outputs, errors and sub-call text, child runs included,
// with the view's filters. Runs on the host, which holds the full text; the webview gets excerpts.
import type { CellNode, RunNode, SubCallNode } from '../../core/trajectory/treeTypes';
import { PAGE, type SearchFilters, type SearchHit } from '../../shared/trajectoryProtocol';
import { reasoningText } from '../../core/trajectory/exportText';

export interface SearchResult {
  hits: SearchHit[];
  total: number;
  truncated: boolean;
}

const EXCERPT_RADIUS = 60;

export function excerptAround(text: string, at: number, length: number): string {
  return excerptWithMatch(text, at, length).excerpt;
}

/** The text around a match on one line, and where the match sits in it (for highlighting). */
export function excerptWithMatch(text: string, at: number, length: number): { excerpt: string; match: { start: number; length: number } } {
  const start = Math.max(0, at - EXCERPT_RADIUS);
  const end = Math.min(text.length, at + length + EXCERPT_RADIUS);
  const flat = (t: string): string => t.replace(/\s+/g, ' ');
  const lead = `${start > 0 ? '…' : ''}${flat(text.slice(start, at))}`;
  const matched = flat(text.slice(at, at + length));
  const excerpt = `${lead}${matched}${flat(text.slice(at + length, end))}${end < text.length ? '…' : ''}`;
  return { excerpt, match: { start: lead.length, length: matched.length } };
}

/**
 * Finds `query` (case-insensitive) in the run. An empty query with a filter lists the matching
 * items themselves (e.g. every error, every call to a model). Hits are in run order.
 */
export function searchRun(root: RunNode, query: string, filters: SearchFilters, maxHits: number = PAGE.maxSearchHits): SearchResult {
  const needle = query.trim().toLowerCase();
  const callFilter = filters.model !== undefined || filters.depth !== undefined;
  if (!needle && !filters.errorsOnly && !callFilter) return { hits: [], total: 0, truncated: false };
  const hits: SearchHit[] = [];
  let total = 0;
  const add = (hit: SearchHit): void => {
    total += 1;
    if (hits.length < maxHits) hits.push(hit);
  };
  /** Adds a hit when `text` contains the needle, or (empty needle) unconditionally with its start. */
  const match = (text: string | undefined, make: (excerpt: string) => SearchHit): void => {
    if (text === undefined) return;
    if (!needle) {
      add(make(excerptAround(text, 0, 0)));
      return;
    }
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) return;
    const found = excerptWithMatch(text, at, needle.length);
    add({ ...make(found.excerpt), match: found.match });
  };

  const callPasses = (call: SubCallNode): boolean =>
    (filters.model === undefined || call.model.model === filters.model) &&
    (filters.depth === undefined || call.depth === filters.depth) &&
    (!filters.errorsOnly || call.error !== undefined);

  const visitCall = (runId: string, rootTurnIndex: number, call: SubCallNode): void => {
    if (callPasses(call)) {
      const base = { runId, rootTurnIndex, callId: call.callId };
      if (filters.errorsOnly && !needle) {
        add({ ...base, where: 'error', excerpt: excerptAround(`${call.error?.kind}: ${call.error?.message}`, 0, 0) });
      } else {
        match(call.prompt, (excerpt) => ({ ...base, where: 'prompt', excerpt }));
        match(call.response ?? call.error?.message, (excerpt) => ({ ...base, where: call.response !== undefined ? 'response' : 'error', excerpt }));
      }
    }
    if (call.child) visitRun(call.child, rootTurnIndex);
  };

  const visitCell = (runId: string, rootTurnIndex: number, cell: CellNode): void => {
    if (!callFilter && (!filters.errorsOnly || cell.error)) {
      const base = { runId, rootTurnIndex, cellId: cell.cellId };
      if (filters.errorsOnly && !needle) {
        add({ ...base, where: 'error', excerpt: excerptAround(`${cell.error?.type}: ${cell.error?.message}`, 0, 0) });
      } else {
        match(cell.code, (excerpt) => ({ ...base, where: 'code', excerpt }));
        if (!filters.errorsOnly) {
          match(cell.stdout, (excerpt) => ({ ...base, where: 'stdout', excerpt }));
          match(cell.stderr, (excerpt) => ({ ...base, where: 'stderr', excerpt }));
        }
        const err = cell.error ? `${cell.error.type}: ${cell.error.message}\n${cell.error.traceback}` : undefined;
        match(err, (excerpt) => ({ ...base, where: 'error', excerpt }));
      }
    }
    for (const call of cell.subCalls) visitCall(runId, rootTurnIndex, call);
  };

  const visitRun = (run: RunNode, rootTurnIndex: number | undefined): void => {
    run.turns.forEach((turn, index) => {
      const rootTurn = rootTurnIndex ?? index;
      if (needle && !callFilter && !filters.errorsOnly) {
        match(reasoningText(turn), (excerpt) => ({ runId: run.runId, rootTurnIndex: rootTurn, where: 'reasoning', excerpt }));
      }
      for (const cell of turn.cells) visitCell(run.runId, rootTurn, cell);
    });
  };

  visitRun(root, undefined);
  return { hits, total, truncated: total > hits.length };
}
