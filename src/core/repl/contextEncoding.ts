// Turns a ContextSource into the single UTF-8 buffer the REPL decodes, with its layout, and assembles the
// ContextMetadata the root model sees from the sizes Python reports back after decoding.
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import { ContextTooLargeError } from '../context/contextErrors';
import { InvalidContextError } from './replErrors';
import type { BoundSummary, ContextLayout } from './replProtocol';

export const DEFAULT_CONTEXT_LIMIT_BYTES = 256 * 1024 * 1024;
const PREFIX_CHARS = 200;
const META_FILES_MAX = 100;

export interface EncodedContext {
  /** The pieces to write, in order; their total is `byteLength`. */
  chunks: Uint8Array[];
  byteLength: number;
  layout: ContextLayout;
  /** The first bytes of the text (or first file), for the metadata prefix. */
  prefixBytes: Uint8Array;
  paths: string[];
}

function byteLengthOf(content: Uint8Array | string): number {
  return typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
}

function toBytes(content: Uint8Array | string): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

/** Checks the limit before encoding anything, so an oversized input costs no copy. */
export function encodeContext(source: ContextSource, limitBytes: number): EncodedContext {
  if (source.kind === 'text') {
    const bytes = byteLengthOf(source.text);
    if (bytes > limitBytes) throw new ContextTooLargeError(bytes, limitBytes);
    const data = toBytes(source.text);
    return { chunks: [data], byteLength: data.byteLength, layout: { kind: 'text' }, prefixBytes: data.subarray(0, PREFIX_CHARS * 4), paths: [] };
  }
  const seen = new Set<string>();
  let total = 0;
  for (const file of source.files) {
    if (typeof file.path !== 'string' || file.path === '') throw new InvalidContextError('every context file needs a non-empty path');
    if (seen.has(file.path)) throw new InvalidContextError(`context lists the file ${file.path} twice`, file.path);
    seen.add(file.path);
    total += byteLengthOf(file.content);
    if (total > limitBytes) throw new ContextTooLargeError(sumBytes(source.files), limitBytes);
  }
  const chunks: Uint8Array[] = [];
  const files: Array<{ path: string; start: number; end: number }> = [];
  let offset = 0;
  for (const file of source.files) {
    const data = toBytes(file.content);
    chunks.push(data);
    files.push({ path: file.path, start: offset, end: offset + data.byteLength });
    offset += data.byteLength;
  }
  const first = chunks[0] ?? new Uint8Array(0);
  return { chunks, byteLength: offset, layout: { kind: 'files', files }, prefixBytes: first.subarray(0, PREFIX_CHARS * 4), paths: files.map((f) => f.path) };
}

function sumBytes(files: Array<{ content: Uint8Array | string }>): number {
  return files.reduce((n, f) => n + byteLengthOf(f.content), 0);
}

function prefixOf(bytes: Uint8Array): string {
  // stream:true drops a multi-byte character cut at the end of the slice instead of replacing it.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: true });
  return Array.from(text).slice(0, PREFIX_CHARS).join('');
}

export function buildMetadata(encoded: EncodedContext, summary: BoundSummary): ContextMetadata {
  const totalChars = summary.chars.reduce((a, b) => a + b, 0);
  const invalid = summary.invalidUtf8Replacements.reduce((a, b) => a + b, 0);
  const isText = encoded.layout.kind === 'text';
  const files = isText ? [] : encoded.paths.slice(0, META_FILES_MAX).map((path, i) => ({ path, chars: summary.chars[i] ?? 0 }));
  return {
    type: isText ? 'str' : 'dict',
    totalChars,
    totalBytes: encoded.byteLength,
    fileCount: isText ? 1 : encoded.paths.length,
    prefix: prefixOf(encoded.prefixBytes),
    files,
    filesOmitted: isText ? 0 : Math.max(0, encoded.paths.length - META_FILES_MAX),
    invalidUtf8Replacements: invalid,
  };
}

/** True when binding `b` would bind exactly what `a` bound (same objects, so no content comparison). */
export function sameContextSource(a: ContextSource, b: ContextSource): boolean {
  if (a === b) return true;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'files' && b.kind === 'files') {
    return a.files.length === b.files.length && a.files.every((f, i) => f.path === b.files[i]?.path && f.content === b.files[i]?.content);
  }
  return false;
}
