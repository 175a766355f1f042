// Decides, file by file, what is bound as `context` when gathering a folder or the workspace: binaries
// and over-size files are skipped with a reason, and the total stops at the context limit.
import type { ContextFile, TargetDescription } from '../../core/context/contextTypes';
import { hasBinaryExtension, hasNulByte } from '../../core/context/binaryDetection';

interface GatherLimits {
  maxFileBytes: number;
  contextLimitBytes: number;
}

export type SkipReason = TargetDescription['skipped'][number]['reason'];

export interface GatherCounts {
  found: number;
  included: number;
  skipped: number;
  bytes: number;
}

/** Skipped paths are listed individually up to this many; the rest are only counted. */
const MAX_LISTED_SKIPS = 200;

export class GatherBudget {
  private readonly files: ContextFile[] = [];
  private readonly skippedList: TargetDescription['skipped'] = [];
  private readonly skipCounts = new Map<SkipReason, number>();
  private totalBytes = 0;
  private found = 0;
  ignoredByGitignore = 0;

  constructor(private readonly limits: GatherLimits) {}

  /** Checks a file before reading it. Returns false (and records why) when it must be skipped. */
  /** The most a file may be read up to: reading stops there, whatever its stat said. */
  get maxFileBytes(): number {
    return this.limits.maxFileBytes;
  }

  /** `asText`: a compressed log, notebook or PDF read as its text, whatever its name says (folderFile.ts). */
  admit(path: string, sizeBytes: number, asText = false): boolean {
    this.found++;
    if (!asText && hasBinaryExtension(path)) return this.skip(path, 'binary', sizeBytes);
    if (sizeBytes > this.limits.maxFileBytes) return this.skip(path, 'too-large', sizeBytes);
    if (this.totalBytes + sizeBytes > this.limits.contextLimitBytes) return this.skip(path, 'limit', sizeBytes);
    return true;
  }

  /** Adds a read file; content that turns out binary, or larger than its stat said, is skipped here. */
  add(path: string, content: Uint8Array | string): boolean {
    const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
    if (typeof content !== 'string' && hasNulByte(content)) return this.skip(path, 'binary', bytes);
    if (bytes > this.limits.maxFileBytes) return this.skip(path, 'too-large', bytes);
    if (this.totalBytes + bytes > this.limits.contextLimitBytes) return this.skip(path, 'limit', bytes);
    this.files.push({ path, content });
    this.totalBytes += bytes;
    return true;
  }

  unreadable(path: string, detail?: string): void {
    this.skip(path, 'unreadable', undefined, detail);
  }

  /** An admitted file whose read went past the per-file limit (it grew, or its stat said less). */
  grewTooLarge(path: string, bytesSeen: number): void {
    this.skip(path, 'too-large', bytesSeen);
  }

  /** A file found but not read for a reason decided before its size mattered: a device, a link. */
  exclude(path: string, reason: SkipReason, detail?: string): void {
    this.found++;
    this.skip(path, reason, undefined, detail);
  }

  counts(): GatherCounts {
    return { found: this.found, included: this.files.length, skipped: [...this.skipCounts.values()].reduce((a, b) => a + b, 0), bytes: this.totalBytes };
  }

  skipCountsByReason(): Partial<Record<SkipReason, number>> {
    return Object.fromEntries(this.skipCounts) as Partial<Record<SkipReason, number>>;
  }

  /** The files sorted by path (stable context for the same workspace) and their description. */
  result(kind: TargetDescription['kind'], paths: string[]): { files: ContextFile[]; target: TargetDescription } {
    const files = [...this.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return {
      files,
      target: { kind, paths, totalBytes: this.totalBytes, fileCount: files.length, skipped: [...this.skippedList] },
    };
  }

  private skip(path: string, reason: SkipReason, bytes?: number, detail?: string): false {
    this.skipCounts.set(reason, (this.skipCounts.get(reason) ?? 0) + 1);
    if (this.skippedList.length < MAX_LISTED_SKIPS) this.skippedList.push({ path, reason, ...(bytes !== undefined ? { bytes } : {}), ...(detail !== undefined ? { detail } : {}) });
    return false;
  }
}
