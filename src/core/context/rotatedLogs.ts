// Rotated logs in a folder (app.log, app.log.1, app.log.2.gz, or app.log-20261204.gz with dateext) are
// one log in several parts. Sorted by name they read out of time order (app.log, app.log.1,
// app.log.10.gz, app.log.2.gz): here each set is put in the order its lines were written, OLDEST FIRST,
// as logrotate's numbers mean (the highest number is the oldest; the bare name is the newest; dated
// parts by date), so joining the set's texts in dict order reads the log as it was written. The set
// stays where its first member sorts, so the rest of the folder keeps its order.
import { compressionOf } from './compressedFormats';

interface RotatedLogSet {
  /** The log's path, as the newest part is named (app.log), whether or not that part is there. */
  log: string;
  parts: number;
}

interface Part {
  /** Folder + base name: the set it belongs to. */
  key: string;
  /** Numbered parts: their number; dated: their date; the current file: none. */
  number?: number;
  date?: string;
}

const NUMBERED = /^(.+)\.(\d{1,4})$/;
const DATED = /^(.+)-(\d{8}(?:\d{2})?)$/;

/** A compressed part is named for the text it holds. */
function plainName(path: string): string {
  return compressionOf(path) ? path.slice(0, path.lastIndexOf('.')) : path;
}

function endsInDigit(name: string): boolean {
  const last = name.charCodeAt(name.length - 1);
  return last >= 48 && last <= 57;
}

/** `plain`: the name without a compression suffix (plainName). */
function partOf(plain: string): Part {
  const numbered = NUMBERED.exec(plain);
  if (numbered) return { key: numbered[1]!, number: Number(numbered[2]) };
  const dated = DATED.exec(plain);
  if (dated) return { key: dated[1]!, date: dated[2]! };
  return { key: plain };
}

/** The current log first is newest: oldest first means dated (by date), then numbered (highest first), then the current one. */
function olderFirst(a: Part, b: Part): number {
  const rank = (p: Part): number => (p.date !== undefined ? 0 : p.number !== undefined ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a.date !== undefined && b.date !== undefined) return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
  if (a.number !== undefined && b.number !== undefined) return b.number - a.number;
  return 0;
}

/** A set is a log's current file with rotated parts beside it, or rotated parts of a `.log` file. */
function isLogSet(key: string, parts: Part[]): boolean {
  if (parts.length < 2 || !parts.some((p) => p.number !== undefined || p.date !== undefined)) return false;
  // chapter.1 and chapter.2 are not a rotated log; app.log.1 beside app.log, or any *.log.N, are.
  return parts.some((p) => p.number === undefined && p.date === undefined) || /(?:^|[./_-])log$/i.test(key);
}

/**
 * Reorders `files` (sorted by path) so that each rotated set reads oldest first, and says which sets
 * there are. Files of two entries named for the same part (app.log.1 and app.log.1.gz) keep path order.
 */
export function orderRotatedLogs<T extends { path: string }>(files: T[]): { files: T[]; sets: RotatedLogSet[] } {
  // Every set has a numbered or dated part, whose name ends in a digit. Most folders (a source tree)
  // have none, and are passed over without a group per file (a fifth of a 20,000-file walk's own time).
  const parts: Array<Part | undefined> = files.map((file) => {
    const plain = plainName(file.path);
    if (!endsInDigit(plain)) return undefined;
    const part = partOf(plain);
    return part.number !== undefined || part.date !== undefined ? part : undefined;
  });
  const keys = new Set<string>();
  for (const part of parts) if (part) keys.add(part.key);
  if (keys.size === 0) return { files, sets: [] };
  const byKey = new Map<string, Array<{ file: T; part: Part; at: number }>>();
  files.forEach((file, at) => {
    const part = parts[at] ?? { key: plainName(file.path) };
    if (!keys.has(part.key)) return;
    const members = byKey.get(part.key);
    if (members) members.push({ file, part, at });
    else byKey.set(part.key, [{ file, part, at }]);
  });
  const sets: RotatedLogSet[] = [];
  /** Where each set is put: at the first member's place, in its own order. */
  const placed = new Map<number, T[]>();
  const moved = new Set<number>();
  for (const [key, members] of byKey) {
    if (!isLogSet(key, members.map((m) => m.part))) continue;
    const ordered = [...members].sort((a, b) => olderFirst(a.part, b.part) || a.at - b.at);
    placed.set(members[0]!.at, ordered.map((m) => m.file));
    for (const m of members) moved.add(m.at);
    sets.push({ log: key, parts: members.length });
  }
  if (sets.length === 0) return { files, sets };
  const out: T[] = [];
  files.forEach((file, at) => {
    const set = placed.get(at);
    if (set) out.push(...set);
    else if (!moved.has(at)) out.push(file);
  });
  return { files: out, sets };
}
