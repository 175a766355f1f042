// Resolves the `path:line` citations of an answer against the `context` the run bound: each becomes a
// reference holding the cited line(s), or an unresolved citation with the reason. Nothing is dropped
// silently. The text is read from the same source that was bound (files on disk are read again, with
// the same checks as binding); it is data, stored and shown as text only.
import { basename } from 'node:path';
import type { ContextSource } from '../context/contextTypes';
import { readLocalFile } from '../context/localFileRead';
import type { Reference, UnresolvedCitation } from '../trajectory/events';
import { findCitations } from './citationParse';
import type { Citation } from './citationParse';

/** The cited text kept per reference: a range is clipped to this many characters. */
const REFERENCE_TEXT_MAX_CHARS = 2000;

/** Text of one cited file, read on demand (a missing or unreadable file gives undefined). */
type FileText = () => Promise<Uint8Array | string | undefined>;

export interface CitationLookup {
  /** Canonical paths of the context (for a single text: the one name it is shown by). */
  paths: string[];
  /** Other names that mean a path: `context`, a single file's base name. */
  aliases: Map<string, string>;
  read(path: string): Promise<Uint8Array | string | undefined>;
  /** Reads without keeping the text (a scan of the whole input must not hold it all). */
  readOnce(path: string): Promise<Uint8Array | string | undefined>;
}

export interface ResolvedCitations {
  references: Reference[];
  unresolved: UnresolvedCitation[];
}

/** The lookup for a bound source; `name` is how a single text is cited when it has no path. */
export function lookupForSource(source: ContextSource, readFile: (abs: string, maxBytes: number) => Promise<Uint8Array | undefined> = readCitedFile): CitationLookup {
  const files = new Map<string, FileText>();
  const aliases = new Map<string, string>();
  let single: string | undefined;
  if (source.kind === 'text') {
    single = source.label ?? 'context';
    files.set(single, () => Promise.resolve(source.text));
  } else if (source.kind === 'files') {
    for (const file of source.files) files.set(file.path, () => Promise.resolve(file.content));
  } else {
    const { plan } = source;
    for (const file of plan.files) files.set(file.path, () => readFile(file.abs, Math.max(plan.maxFileBytes, file.bytes)));
    if (plan.shape === 'text' && plan.files[0]) single = plan.files[0].path;
  }
  if (single !== undefined) {
    aliases.set('context', single);
    aliases.set(basename(single), single);
  }
  const cache = new Map<string, Promise<Uint8Array | string | undefined>>();
  return {
    paths: [...files.keys()],
    aliases,
    readOnce: (path) => cache.get(path) ?? files.get(path)?.() ?? Promise.resolve(undefined),
    read(path) {
      let text = cache.get(path);
      if (!text) {
        text = files.get(path)?.() ?? Promise.resolve(undefined);
        cache.set(path, text);
      }
      return text;
    },
  };
}

async function readCitedFile(abs: string, maxBytes: number): Promise<Uint8Array | undefined> {
  try {
    const read = await readLocalFile(abs, { maxBytes, noFollow: true });
    return read.kind === 'read' ? read.bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves every citation in `answer`; the order of the answer is kept in both lists. */
export async function resolveCitations(answer: string, lookup: CitationLookup): Promise<ResolvedCitations> {
  const known = new Set(lookup.paths);
  const citations = findCitations(answer, (path) => known.has(normalize(path)) || lookup.aliases.has(normalize(path)));
  const references: Reference[] = [];
  const unresolved: UnresolvedCitation[] = [];
  const seen = new Set<string>();
  for (const citation of citations) {
    const outcome = await resolveOne(citation, lookup, known);
    if ('reason' in outcome) {
      unresolved.push(outcome);
      continue;
    }
    const key = `${outcome.path}\n${outcome.line}\n${outcome.endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    references.push(outcome);
  }
  return { references, unresolved };
}

async function resolveOne(citation: Citation, lookup: CitationLookup, known: Set<string>): Promise<Reference | UnresolvedCitation> {
  const { raw, line, endLine } = citation;
  const miss = (reason: UnresolvedCitation['reason'], detail: string): UnresolvedCitation => ({ citation: raw, path: citation.path, line, ...(endLine !== undefined ? { endLine } : {}), reason, detail });
  const match = matchPath(normalize(citation.path), lookup, known);
  if (match.kind === 'none') return miss('unknown-path', `no file ${citation.path} in the context`);
  if (match.kind === 'many') return miss('ambiguous-path', `${citation.path} could be ${match.paths.slice(0, 3).join(', ')}${match.paths.length > 3 ? ', …' : ''}`);
  if (line < 1) return miss('line-out-of-range', 'lines are numbered from 1');
  if (endLine !== undefined && endLine < line) return miss('bad-range', `the range ends (${endLine}) before it starts (${line})`);
  const content = await lookup.read(match.path);
  if (content === undefined) return miss('unreadable', `${match.path} could not be read again`);
  const slice = sliceLines(content, line, endLine ?? line);
  if (slice.kind === 'short') return miss('line-out-of-range', `${match.path} has ${slice.lines} line${slice.lines === 1 ? '' : 's'}`);
  return { path: match.path, line, ...(endLine !== undefined ? { endLine } : {}), text: clipText(slice.text) };
}

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

type PathMatch = { kind: 'one'; path: string } | { kind: 'none' } | { kind: 'many'; paths: string[] };

/** Exact path, an alias, or else the one path ending with the cited one (`a.ts` for `src/a.ts`). */
function matchPath(path: string, lookup: CitationLookup, known: Set<string>): PathMatch {
  if (known.has(path)) return { kind: 'one', path };
  const alias = lookup.aliases.get(path);
  if (alias !== undefined) return { kind: 'one', path: alias };
  const suffix = `/${path.replace(/^\/+/, '')}`;
  const candidates = lookup.paths.filter((p) => `/${p}`.endsWith(suffix));
  if (candidates.length === 1) return { kind: 'one', path: candidates[0]! };
  return candidates.length > 1 ? { kind: 'many', paths: candidates } : { kind: 'none' };
}

/**
 * Lines `from`..`to` (1-based, inclusive). A trailing newline ends the last line, it does not start one
 * (so "a\nb\n" has two lines), as search() counts. Bytes are scanned for newlines and only the slice is
 * decoded, so a 20 MB file costs one pass and no copy.
 */
export function sliceLines(content: Uint8Array | string, from: number, to: number): { kind: 'ok'; text: string } | { kind: 'short'; lines: number } {
  const newline = typeof content === 'string' ? '\n' : 0x0a;
  const indexOf = (at: number): number => (typeof content === 'string' ? content.indexOf(newline as string, at) : content.indexOf(newline as number, at));
  const length = content.length;
  let line = 1;
  let pos = 0;
  while (line < from) {
    const next = indexOf(pos);
    if (next < 0 || next + 1 >= length) return { kind: 'short', lines: length === 0 ? 0 : line };
    pos = next + 1;
    line += 1;
  }
  if (length === 0) return { kind: 'short', lines: 0 };
  const start = pos;
  let end = pos;
  for (;;) {
    const next = indexOf(end);
    if (line === to) {
      end = next < 0 ? length : next;
      break;
    }
    if (next < 0 || next + 1 >= length) return { kind: 'short', lines: line };
    end = next + 1;
    line += 1;
  }
  const piece = typeof content === 'string' ? content.slice(start, end) : new TextDecoder('utf-8').decode(content.subarray(start, end));
  return { kind: 'ok', text: piece.replace(/\r$/gm, '') };
}

function clipText(text: string): string {
  return text.length <= REFERENCE_TEXT_MAX_CHARS ? text : `${text.slice(0, REFERENCE_TEXT_MAX_CHARS)}…`;
}
