// Reads a compressed file as the text it holds, with the checks of every other read (localFileRead.ts):
// opened non-blocking and, when asked, without following a link at the last step; the open handle must
// be a regular file (inside `within`, checked on the descriptor); the magic bytes must match the name.
// The limits hold for the DECOMPRESSED bytes: decoding stops as soon as the output passes `maxBytes`,
// or once the output passes RATIO_FLOOR_BYTES at more than MAX_RATIO times the compressed bytes taken
// (what a decompression bomb does; no log compresses like that). Memory stays at one piece of input and
// one block of output whatever the file holds (bzip2 aside: its compressed bytes are held, see decoders.ts).
import { hasMagic } from './compressedFormats';
import type { Compression } from './compressedFormats';
import { CorruptCompressedError, decode } from './decoders';
import { openRegularFile } from './localFileRead';
import type { SpecialKind } from './localFileRead';

/** Past this many times the compressed size a file is a bomb, not a log (gzip tops out near 1,032:1 on zeros; real logs are 5-50:1, repetitive ones a few hundred). */
const MAX_RATIO = 1000;
/** The ratio is judged only past this much output: tiny files have any ratio, and cost nothing. */
const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;
const READ_PIECE = 256 * 1024;

interface CompressedReadOptions {
  /** Output past this is refused ('too-large'); the decoder stops one block after it. */
  maxBytes: number;
  noFollow?: boolean;
  within?: readonly string[];
  /** Stop (kind 'stopped') once this much compressed input was taken: a sample, for an estimate. */
  sampleStoredBytes?: number;
  /** Stop (kind 'stopped') once this much output was handed over: a head. */
  stopAfterBytes?: number;
  signal?: AbortSignal;
  /** The bomb rule (defaults MAX_RATIO and RATIO_FLOOR_BYTES); tests set them low to stay small. */
  maxRatio?: number;
  ratioFloorBytes?: number;
}

export type CompressedRead =
  /** The whole file decoded: `bytes` of text from `storedBytes` on disk. */
  | { kind: 'done'; bytes: number; storedBytes: number }
  /** Stopped early as asked (a head or a sample): `bytes` from the first `takenBytes` of `storedBytes`. */
  | { kind: 'stopped'; bytes: number; takenBytes: number; storedBytes: number }
  | { kind: 'too-large'; bytesSeen: number; takenBytes: number; storedBytes: number }
  | { kind: 'bomb'; bytesSeen: number; takenBytes: number; storedBytes: number }
  | { kind: 'corrupt'; detail: string }
  | { kind: 'special'; special: SpecialKind }
  | { kind: 'link' }
  | { kind: 'outside'; real: string | undefined };

/**
 * Decodes `path` as `format`, handing each piece of text to `onChunk` in order (a view that is reused
 * or freed after: copy what you keep; return a promise to be waited for). At most `maxBytes` are handed over
 * in all.
 */
export async function readCompressed(path: string, format: Compression, options: CompressedReadOptions, onChunk: (piece: Uint8Array) => void | Promise<void>): Promise<CompressedRead> {
  const opened = await openRegularFile(path, options);
  if (opened.kind !== 'open') return opened;
  const { handle, stat } = opened;
  try {
    const storedBytes = stat.size;
    let taken = 0;
    let out = 0;
    let verdict: 'too-large' | 'bomb' | 'sampled' | 'head' | undefined;
    let magicChecked = false;
    const sample = options.sampleStoredBytes ?? Infinity;
    // The compressed bytes, read in pieces from the handle that was checked (never reopened by name).
    // bzip2's decoder holds its input whole: reading stops at the output limit's worth, as no text
    // past the limit compresses to more than the limit.
    const storedCap = format === 'bzip2' ? Math.min(sample, options.maxBytes + 1024 * 1024) : sample;
    const pieces = async function* (): AsyncGenerator<Uint8Array> {
      for (;;) {
        options.signal?.throwIfAborted();
        if (taken >= storedCap) {
          if (taken >= sample) verdict ??= 'sampled';
          else verdict ??= 'too-large';
          return;
        }
        const buffer = Buffer.allocUnsafe(Math.min(READ_PIECE, storedCap - taken));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return;
        if (!magicChecked) {
          magicChecked = true;
          if (!hasMagic(format, buffer.subarray(0, bytesRead))) throw new CorruptCompressedError(format, `it does not start as ${format} data does`);
        }
        taken += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    };
    const stopAfter = options.stopAfterBytes ?? Infinity;
    let ended: 'end' | 'stopped';
    try {
      ended = await decode(format, pieces(), (piece) => {
        const allowed = Math.min(piece.byteLength, options.maxBytes - out, stopAfter - out);
        const handed = allowed > 0 ? onChunk(piece.subarray(0, allowed)) : undefined;
        out += piece.byteLength;
        let goOn = true;
        if (out >= stopAfter && stopAfter <= options.maxBytes) {
          verdict = 'head';
          goOn = false;
        } else if (out > options.maxBytes) {
          verdict = 'too-large';
          goOn = false;
        } else if (out > (options.ratioFloorBytes ?? RATIO_FLOOR_BYTES) && out > (options.maxRatio ?? MAX_RATIO) * Math.max(1, taken)) {
          verdict = 'bomb';
          goOn = false;
        }
        return handed ? handed.then(() => goOn) : goOn;
      });
    } catch (error) {
      // Input cut short on purpose (a sample, or bzip2's cap) reads as truncated data to the decoder.
      if (!(error instanceof CorruptCompressedError) || verdict === undefined) throw error;
      ended = 'stopped';
    }
    if (verdict === 'bomb') return { kind: 'bomb', bytesSeen: out, takenBytes: taken, storedBytes };
    if (verdict === 'too-large') return { kind: 'too-large', bytesSeen: out, takenBytes: taken, storedBytes };
    if (verdict === 'head' || verdict === 'sampled' || ended === 'stopped') return { kind: 'stopped', bytes: Math.min(out, options.maxBytes, stopAfter), takenBytes: taken, storedBytes };
    if (!magicChecked) return { kind: 'corrupt', detail: 'the file is empty' };
    return { kind: 'done', bytes: out, storedBytes };
  } catch (error) {
    if (error instanceof CorruptCompressedError) return { kind: 'corrupt', detail: error.message };
    throw error;
  } finally {
    await handle.close();
  }
}
