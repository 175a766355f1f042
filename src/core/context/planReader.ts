// Reads the files of a ContextPlan, in parallel and in the plan's order, with the checks a plan cannot
// make without reading: a file that is binary by content, that grew past its limit, or that was swapped
// for a link or a device since the walk looked at it. Used both to stream a plan into the REPL and to
// read one whole into memory.
import { binaryReason } from './binaryDetection';
import { BinaryFileError, ContextTooLargeError, NoReadableFilesError, SpecialFileError } from './contextErrors';
import type { ContextFile, ContextPlan, ContextSource, PlannedFile, TargetDescription } from './contextTypes';
import { forEachInOrder } from './inOrder';
import { nodeContextFs } from './contextPlan';
import type { ContextFs } from './contextPlan';

/** Files read at once: enough to overlap the disk with decoding, few enough that only a window is held. */
export const READ_CONCURRENCY = 32;

type Skipped = TargetDescription['skipped'][number];

export type PlannedRead = { kind: 'read'; bytes: Uint8Array } | { kind: 'skipped'; skipped: Skipped };

/**
 * Reads one planned file of a folder (or a file named among several): up to the per-file limit, never
 * following a link the walk did not see, skipping what is not text.
 */
export async function readPlannedFile(plan: ContextPlan, file: PlannedFile, fs: ContextFs = nodeContextFs): Promise<PlannedRead> {
  let read;
  try {
    read = await fs.readFile(file.abs, { maxBytes: plan.maxFileBytes, noFollow: true });
  } catch {
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable' } };
  }
  switch (read.kind) {
    case 'special':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'special', detail: `became a ${read.special} while read` } };
    case 'link':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'link', detail: 'became a link while read' } };
    case 'too-large':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: Math.max(read.bytesSeen, read.statBytes) } };
    case 'read': {
      const binary = binaryReason(file.path, read.bytes.subarray(0, 8192));
      if (binary) return { kind: 'skipped', skipped: { path: file.path, reason: 'binary', bytes: read.bytes.byteLength } };
      return { kind: 'read', bytes: read.bytes };
    }
  }
}

/** Reads a whole plan into memory: the ContextSource of readPathsAsContext, for callers that keep it. */
export async function readPlanInMemory(plan: ContextPlan, fs: ContextFs = nodeContextFs): Promise<{ source: ContextSource; target: TargetDescription }> {
  if (plan.shape === 'text') {
    const file = plan.files[0]!;
    const read = await fs.readFile(file.abs, { maxBytes: plan.maxTotalBytes });
    if (read.kind === 'special') throw new SpecialFileError(file.path, read.special);
    if (read.kind === 'too-large') {
      const seen = Math.max(read.bytesSeen, read.statBytes);
      throw new ContextTooLargeError(seen, plan.maxTotalBytes, [{ path: file.path, bytes: seen }], read.bytesSeen > read.statBytes);
    }
    if (read.kind !== 'read') throw new SpecialFileError(file.path, 'symlink');
    const binary = binaryReason(file.path, read.bytes.subarray(0, 8192));
    if (binary) throw new BinaryFileError(file.path, binary);
    return { source: { kind: 'text', text: read.bytes, label: file.path }, target: { ...plan.target, totalBytes: read.bytes.byteLength } };
  }
  const files: ContextFile[] = [];
  const skipped = [...plan.target.skipped];
  let total = 0;
  await forEachInOrder(plan.files, READ_CONCURRENCY, (file) => readPlannedFile(plan, file, fs), (read, file) => {
    if (read.kind === 'skipped') {
      skipped.push(read.skipped);
      return;
    }
    total += read.bytes.byteLength;
    // A file may have grown since the walk: the total still holds.
    if (total > plan.maxTotalBytes) throw new ContextTooLargeError(total, plan.maxTotalBytes, [], true);
    files.push({ path: file.path, content: read.bytes });
  });
  if (files.length === 0) throw new NoReadableFilesError(plan.target.paths, skipped.length);
  return { source: { kind: 'files', files }, target: { ...plan.target, totalBytes: total, fileCount: files.length, skipped } };
}
