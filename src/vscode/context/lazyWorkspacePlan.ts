// A folder or workspace over rlm.contextLimitMb (and within rlm.workspaceLimitGb) is listed, not read:
// the files findFiles returned after the excludes and .gitignore, with the same per-file checks as the
// eager gathering (a link leading out, a device, a binary name, over rlm.maxFileSizeKb), become a
// ContextPlan that the REPL binds lazily. Texts are read from disk when the model uses them, so unsaved
// editor changes are not seen in this mode.
import { lstat, realpath } from 'node:fs/promises';
import { plannedFolderFile, readableByName } from '../../core/context/folderFile';
import { folderInputFormat } from '../../core/context/contextPlan';
import { newPdfSession } from '../../core/context/pdfDocument';
import { ContextTooLargeError } from '../../core/context/contextErrors';
import type { ContextPlan, PlannedFile, TargetDescription } from '../../core/context/contextTypes';
import { readLocalFileInto } from '../../core/context/localFileReadSync';
import { judgeReachedPath } from '../../core/context/pathContainment';
import { specialKindOf } from '../../core/context/localFileRead';

export interface LazyCandidate {
  path: string;
  fsPath: string;
  root: string;
  rootReal: string;
}

interface LazyLimits {
  maxFileBytes: number;
  contextLimitBytes: number;
  workspaceLimitBytes: number;
}

const CONCURRENCY = 32;
const MAX_LISTED_SKIPS = 200;
const HEAD_BYTES = 8 * 1024;

/** What a stat-only look at a listed file found: a regular file of some size, or why it is not read at all. */
export type CheckedCandidate = { kind: 'file'; size: number } | { kind: 'excluded'; reason: TargetDescription['skipped'][number]['reason']; detail?: string };

/**
 * Looks at every listed file without reading it (where a link leads, lstat), 32 at a time: enough to
 * know the folder's size, and so whether it is bound eagerly or lazily, before a byte is read.
 */
export async function checkCandidates(candidates: readonly LazyCandidate[], isCancelled: () => boolean): Promise<CheckedCandidate[]> {
  const checked: CheckedCandidate[] = new Array(candidates.length);
  for (let i = 0; i < candidates.length; i += CONCURRENCY) {
    if (isCancelled()) throw new Error('cancelled');
    await Promise.all(
      candidates.slice(i, i + CONCURRENCY).map(async (c, j) => {
        checked[i + j] = await checkOne(c);
      }),
    );
  }
  return checked;
}

async function checkOne(c: LazyCandidate): Promise<CheckedCandidate> {
  const verdict = await judgeReachedPath(c.fsPath, c.root, c.rootReal);
  if (verdict) return { kind: 'excluded', reason: verdict.reason, ...(verdict.detail !== undefined ? { detail: verdict.detail } : {}) };
  try {
    const st = await lstat(c.fsPath);
    const special = specialKindOf(st);
    if (special || !st.isFile()) return { kind: 'excluded', reason: 'special', detail: special ?? 'not a regular file' };
    return { kind: 'file', size: st.size };
  } catch {
    return { kind: 'excluded', reason: 'unreadable' };
  }
}

/** The bytes an eager gathering would bind: files that pass the per-file checks (a binary name, the per-file limit). */
export function admissibleBytes(candidates: readonly LazyCandidate[], checked: readonly CheckedCandidate[], maxFileBytes: number): number {
  let total = 0;
  checked.forEach((check, i) => {
    if (check.kind === 'file' && check.size <= maxFileBytes && readableByName(candidates[i]!.path)) total += check.size;
  });
  return total;
}

export async function planLazyWorkspace(candidates: readonly LazyCandidate[], limits: LazyLimits, kind: TargetDescription['kind'], labels: string[], isCancelled: () => boolean, checkedAlready?: readonly CheckedCandidate[]): Promise<ContextPlan> {
  const checked = checkedAlready ?? (await checkCandidates(candidates, isCancelled));
  const files: Array<PlannedFile | undefined> = new Array(candidates.length);
  const skipped: TargetDescription['skipped'] = [];
  const skip = (entry: TargetDescription['skipped'][number]): void => {
    if (skipped.length < MAX_LISTED_SKIPS) skipped.push(entry);
  };
  let pdfSession: number | undefined;
  const folderLimits = { maxFileBytes: limits.maxFileBytes, maxTotalBytes: limits.contextLimitBytes, pdfSession: () => (pdfSession ??= newPdfSession()) };
  candidates.forEach((c, i) => {
    const check = checked[i]!;
    if (!readableByName(c.path)) return skip({ path: c.path, reason: 'binary' });
    if (check.kind === 'excluded') return skip({ path: c.path, reason: check.reason, ...(check.detail !== undefined ? { detail: check.detail } : {}) });
    // As the command line's walk plans it: a compressed log, a notebook or a PDF read as its text.
    const planned = plannedFolderFile(c.path, c.fsPath, check.size, folderLimits);
    if (planned.kind === 'skipped') return skip(planned.skipped);
    files[i] = planned.file;
  });
  const planned = files.filter((f): f is PlannedFile => f !== undefined).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const totalBytes = planned.reduce((n, f) => n + f.bytes, 0);
  if (totalBytes > limits.workspaceLimitBytes) throw new ContextTooLargeError(totalBytes, limits.workspaceLimitBytes);
  const roots = [...new Set(candidates.map((c) => c.rootReal))];
  const format = folderInputFormat(planned);
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  if (planned[0]) {
    try {
      const read = readLocalFileInto(planned[0].abs, head, { head: true, noFollow: true });
      headLength = read.kind === 'read' ? read.length : 0;
    } catch {
      headLength = 0;
    }
  }
  return {
    shape: 'files',
    files: planned,
    head: head.subarray(0, headLength),
    totalBytes,
    maxFileBytes: limits.maxFileBytes,
    maxTotalBytes: limits.contextLimitBytes,
    lazy: { listLimitBytes: limits.workspaceLimitBytes, roots: await Promise.all(roots.map((r) => realpath(r))) },
    target: { kind, paths: labels, totalBytes, fileCount: planned.length, skipped },
    ...(format ? { format } : {}),
  };
}
