// One interface over the four decoders, each fed compressed pieces and handing decoded pieces on as it
// goes, so what is held at once is a piece of input and a block of output, never the whole text:
// - gzip: Node's zlib (native, in the thread pool).
// - zstd: fzstd (pure JS, no dependencies): decodes block by block (a block is at most 128 KB) and hands
//   each one over as soon as it is decoded, so a bomb is stopped one block past the limit.
// - xz: xz-decompress (xz-embedded compiled to WebAssembly, no dependencies): a stream of 1 MB outputs.
// - bzip2: seek-bzip (pure JS): writes byte by byte into our sink, which stops it at once; it reads its
//   input synchronously, so the compressed file is held whole (the caller bounds it) and decoding runs
//   without a turn of the event loop between blocks (see the closing note of issue 35).
// `emit` returns false to stop early (enough was read), or a promise of that when the consumer must be
// waited for (a pipe); a throw from it stops decoding too.
// Each decoder's library is loaded on its first use: this module is in the extension's activation graph
// (reading a .gz reference) and in every `rlm ask`, and zlib, xz-decompress (with Node's web streams)
// and the others cost their load time to everyone, most of whom never open a compressed file.
import { Readable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import type { Compression } from './compressedFormats';

type Emit = (piece: Uint8Array) => boolean | Promise<boolean>;

/** The decoder ran into data it cannot decode: the file is damaged or is not what its name says. */
export class CorruptCompressedError extends Error {
  constructor(readonly format: Compression, readonly detail: string) {
    super(`not valid ${format} data (${detail})`);
    this.name = 'CorruptCompressedError';
  }
}

/** Thrown through a decoder's callback to stop it; never escapes decode(). */
class Stop extends Error {}

/** Pieces of zstd input pushed at once: the decoder hands each block over as it goes, so this bounds only the input held. */
const ZSTD_PIECE = 16 * 1024;
const BZIP2_OUT_PIECE = 64 * 1024;

/** Decodes all of `input`, or until `emit` returns false. Resolves 'end' or 'stopped'. */
export async function decode(format: Compression, input: AsyncIterable<Uint8Array>, emit: Emit): Promise<'end' | 'stopped'> {
  try {
    switch (format) {
      case 'gzip':
        return await decodeGzip(input, emit);
      case 'zstd':
        return await decodeZstd(input, emit);
      case 'xz':
        return await decodeXz(input, emit);
      case 'bzip2':
        return await decodeBzip2(input, emit);
    }
  } catch (error) {
    if (error instanceof Stop) return 'stopped';
    if (error instanceof CorruptCompressedError) throw error;
    // What a decoder throws on bad data is its own; say it in one line, whatever it is.
    const detail = error instanceof Error ? error.message : String(error);
    throw new CorruptCompressedError(format, detail.split('\n')[0]!.slice(0, 200));
  }
}

async function decodeGzip(input: AsyncIterable<Uint8Array>, emit: Emit): Promise<'end' | 'stopped'> {
  const { createGunzip } = await import('node:zlib');
  // Concatenated members (what `cat a.gz b.gz` or some log shippers make) are one text, as gunzip reads them.
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  const source = Readable.from(input, { objectMode: false });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  try {
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      if (!(await emit(piece))) return 'stopped';
    }
    return 'end';
  } finally {
    source.unpipe(gunzip);
    source.destroy();
    gunzip.destroy();
  }
}

async function decodeZstd(input: AsyncIterable<Uint8Array>, emit: Emit): Promise<'end' | 'stopped'> {
  // fzstd hands blocks over inside push(), where nothing can be awaited: they are kept (copied: the
  // decoder reuses its window) and handed on after each push. A piece of input is small so that what
  // one push yields stays bounded; the callers' limits stop a bomb between pushes.
  const { Decompress: ZstdDecompress } = await import('fzstd');
  let pending: Uint8Array[] = [];
  const decoder = new ZstdDecompress((block) => {
    if (block.byteLength > 0) pending.push(block.slice());
  });
  const flush = async (): Promise<boolean> => {
    const blocks = pending;
    pending = [];
    for (const block of blocks) if (!(await emit(block))) return false;
    return true;
  };
  for await (const chunk of input) {
    for (let at = 0; at < chunk.byteLength; at += ZSTD_PIECE) {
      decoder.push(chunk.subarray(at, Math.min(chunk.byteLength, at + ZSTD_PIECE)));
      if (!(await flush())) return 'stopped';
      // Pure JS on this thread: a turn of the event loop between pieces keeps the host responsive.
      await turn();
    }
  }
  decoder.push(new Uint8Array(0), true);
  return (await flush()) ? 'end' : 'stopped';
}

async function decodeXz(input: AsyncIterable<Uint8Array>, emit: Emit): Promise<'end' | 'stopped'> {
  const { XzReadableStream } = await import('xz-decompress');
  const pieces = input[Symbol.asyncIterator]();
  const compressed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await pieces.return?.();
    },
  });
  const reader = new XzReadableStream(compressed).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'end';
      if (value.byteLength > 0 && !(await emit(value))) return 'stopped';
    }
  } finally {
    // Cancelling frees the decoder's one context (xz-decompress decodes one stream at a time).
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * seek-bzip allocates with the deprecated `new Buffer(n)` (sizes it computed itself, filled before
 * read). Bundled, it counts as our code, so Node printed a DeprecationWarning on the user's terminal
 * for every `rlm ask app.log.bz2`. Its decode is synchronous, so muting deprecations around it mutes
 * only its own.
 */
function decodeQuietly(decode: () => void): void {
  const before = process.noDeprecation;
  process.noDeprecation = true;
  try {
    decode();
  } finally {
    process.noDeprecation = before;
  }
}

async function decodeBzip2(input: AsyncIterable<Uint8Array>, emit: Emit): Promise<'end' | 'stopped'> {
  const { default: Bunzip } = await import('seek-bzip');
  const parts: Uint8Array[] = [];
  for await (const chunk of input) parts.push(Uint8Array.from(chunk));
  const whole = Buffer.concat(parts);
  parts.length = 0;
  // seek-bzip writes byte by byte and cannot wait: each full piece is handed on in a buffer of its own,
  // and a consumer that must be waited for is waited for at the end (bzip2 in JS decodes at a few MB/s,
  // far slower than any pipe drains, so little is ever in flight).
  let out = Buffer.allocUnsafe(BZIP2_OUT_PIECE);
  let used = 0;
  const waits: Array<Promise<boolean>> = [];
  const hand = (piece: Uint8Array): void => {
    const answer = emit(piece);
    if (answer === false) throw new Stop();
    if (answer !== true) waits.push(answer);
  };
  const sink = {
    writeByte(byte: number): void {
      out[used++] = byte;
      if (used === out.length) {
        hand(out);
        out = Buffer.allocUnsafe(BZIP2_OUT_PIECE);
        used = 0;
      }
    },
    flush(): void {},
  };
  decodeQuietly(() => Bunzip.decode(whole, sink, true));
  if (used > 0) hand(out.subarray(0, used));
  return (await Promise.all(waits)).every(Boolean) ? 'end' : 'stopped';
}
