// The ContextMetadata the root model sees: the exact one, assembled from what was streamed into the REPL
// and the sizes Python reports after decoding; and the preview, from what is known before binding (byte
// sizes, a prefix), which lets the root's first request go out while `context` is still being bound.
import { isAscii } from 'node:buffer';
import type { ContextMetadata, ContextSource, PlanProgress } from '../context/contextTypes';
import type { StreamedContext } from './contextStream';
import type { BoundSummary } from './replProtocol';

export const DEFAULT_CONTEXT_LIMIT_BYTES = 256 * 1024 * 1024;
const PREFIX_CHARS = 200;
const META_FILES_MAX = 100;

function prefixOf(bytes: Uint8Array): string {
  // stream:true drops a multi-byte character cut at the end of the slice instead of replacing it.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: true });
  return Array.from(text).slice(0, PREFIX_CHARS).join('');
}

export function buildMetadata(streamed: StreamedContext, summary: BoundSummary): ContextMetadata {
  if (streamed.lazy) {
    // Nothing was decoded: character counts are the sizes on disk, as in the preview.
    return {
      type: 'dict',
      totalChars: streamed.byteLength,
      totalBytes: streamed.byteLength,
      fileCount: streamed.entries.length,
      prefix: prefixOf(streamed.prefixBytes),
      files: streamed.entries.slice(0, META_FILES_MAX).map((entry) => ({ path: entry.path, chars: entry.bytes })),
      filesOmitted: Math.max(0, streamed.entries.length - META_FILES_MAX),
      invalidUtf8Replacements: 0,
      approximate: true,
      mode: 'lazy',
      ...(streamed.budgetBytes !== undefined ? { cacheBudgetBytes: streamed.budgetBytes } : {}),
      ...(streamed.format ? { format: streamed.format } : {}),
    };
  }
  const totalChars = summary.chars.reduce((a, b) => a + b, 0);
  const invalid = summary.invalidUtf8Replacements.reduce((a, b) => a + b, 0);
  const isText = streamed.shape === 'str';
  const files = isText ? [] : streamed.entries.slice(0, META_FILES_MAX).map((entry, i) => ({ path: entry.path, chars: summary.chars[i] ?? 0 }));
  return {
    type: isText ? 'str' : 'dict',
    totalChars,
    totalBytes: streamed.byteLength,
    fileCount: isText ? 1 : streamed.entries.length,
    prefix: prefixOf(streamed.prefixBytes),
    files,
    filesOmitted: isText ? 0 : Math.max(0, streamed.entries.length - META_FILES_MAX),
    invalidUtf8Replacements: invalid,
    ...(isText ? {} : { mode: 'eager' as const }),
    ...(streamed.leftOut.length ? { leftOut: streamed.leftOut } : {}),
    ...(streamed.format ? { format: streamed.format } : {}),
  };
}

/** Characters of one entry, exactly when that is cheap (a string, or ASCII bytes), else estimated from its bytes. */
function charsOf(content: Uint8Array | string): { chars: number; exact: boolean } {
  if (typeof content === 'string') return { chars: content.length, exact: true };
  if (isAscii(content)) return { chars: content.byteLength, exact: true };
  return { chars: content.byteLength, exact: false };
}

/**
 * What the root is shown before `context` is bound: sizes, file list and prefix, from what the host has
 * without decoding anything. Marked approximate when a character count is an estimate, or when files may
 * still be left out (a plan's files are checked for binary content only as they are read).
 */
export function previewMetadata(source: ContextSource): ContextMetadata {
  if (source.kind === 'plan') {
    const { plan } = source;
    const isText = plan.shape === 'text';
    return {
      type: isText ? 'str' : 'dict',
      totalChars: plan.totalBytes,
      totalBytes: plan.totalBytes,
      fileCount: plan.files.length,
      prefix: prefixOf(plan.head.subarray(0, PREFIX_CHARS * 4)),
      files: isText ? [] : plan.files.slice(0, META_FILES_MAX).map((f) => ({ path: f.path, chars: f.bytes })),
      filesOmitted: isText ? 0 : Math.max(0, plan.files.length - META_FILES_MAX),
      invalidUtf8Replacements: 0,
      approximate: true,
      ...(plan.lazy ? { mode: 'lazy' as const, cacheBudgetBytes: plan.maxTotalBytes } : isText ? {} : { mode: 'eager' as const }),
      ...(plan.format ? { format: plan.format } : {}),
    };
  }
  const entries = source.kind === 'text' ? [{ path: source.label ?? 'text', content: source.text }] : source.files;
  let exact = true;
  const sized = entries.map((entry) => {
    const counted = charsOf(entry.content);
    exact &&= counted.exact;
    return { path: entry.path, chars: counted.chars, bytes: typeof entry.content === 'string' ? Buffer.byteLength(entry.content, 'utf8') : entry.content.byteLength };
  });
  const first = entries[0]?.content;
  const prefix = first === undefined ? '' : typeof first === 'string' ? Array.from(first.slice(0, PREFIX_CHARS * 2)).slice(0, PREFIX_CHARS).join('') : prefixOf(first.subarray(0, PREFIX_CHARS * 4));
  const isText = source.kind === 'text';
  return {
    type: isText ? 'str' : 'dict',
    totalChars: sized.reduce((n, e) => n + e.chars, 0),
    totalBytes: sized.reduce((n, e) => n + e.bytes, 0),
    fileCount: sized.length,
    prefix,
    files: isText ? [] : sized.slice(0, META_FILES_MAX).map((e) => ({ path: e.path, chars: e.chars })),
    filesOmitted: isText ? 0 : Math.max(0, sized.length - META_FILES_MAX),
    invalidUtf8Replacements: 0,
    ...(isText ? {} : { mode: 'eager' as const }),
    ...(exact ? {} : { approximate: true }),
    ...(source.kind === 'text' && source.notebook ? { format: { notebook: source.notebook.summary } } : {}),
  };
}

/**
 * What the root is shown when its first request goes out before the walk of a large folder ends: the
 * files and bytes found so far, marked `listing: 'partial'`. Lazy once what was found passes the eager
 * limit; until then the mode is left open. No prefix: the first file in path order is not known yet.
 */
export function partialPreview(progress: PlanProgress, eagerLimitBytes: number): ContextMetadata | undefined {
  if (progress.fileCount === 0) return undefined;
  const files = progress.firstFiles.slice(0, META_FILES_MAX);
  return {
    type: 'dict',
    totalChars: progress.totalBytes,
    totalBytes: progress.totalBytes,
    fileCount: progress.fileCount,
    prefix: '',
    files: files.map((f) => ({ path: f.path, chars: f.bytes })),
    filesOmitted: Math.max(0, progress.fileCount - files.length),
    invalidUtf8Replacements: 0,
    approximate: true,
    listing: 'partial',
    ...(progress.totalBytes > eagerLimitBytes ? { mode: 'lazy' as const, cacheBudgetBytes: eagerLimitBytes } : {}),
  };
}

/** True when binding `b` would bind exactly what `a` bound (same objects, so no content comparison). */
export function sameContextSource(a: ContextSource, b: ContextSource): boolean {
  if (a === b) return true;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'plan' && b.kind === 'plan') return a.plan === b.plan;
  if (a.kind === 'files' && b.kind === 'files') {
    return a.files.length === b.files.length && a.files.every((f, i) => f.path === b.files[i]?.path && f.content === b.files[i]?.content);
  }
  return false;
}
