// The host's side of binding: a source becomes a well-formed frame stream (parsed back here exactly as
// binding.py reads it), in pieces of at most 1 MB, with files planned on disk read while streaming, and
// the metadata the root sees built from it (and, before binding, previewed from sizes).
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextTooLargeError } from '../../../../src/core/context/contextErrors';
import { planPaths } from '../../../../src/core/context/contextPlan';
import type { ContextSource } from '../../../../src/core/context/contextTypes';
import { buildMetadata, previewMetadata } from '../../../../src/core/repl/contextEncoding';
import { FRAME_HEAD_BYTES } from '../../../../src/core/repl/contextFrames';
import { ContextChangedError, STREAM_CHUNK_BYTES, streamContext } from '../../../../src/core/repl/contextStream';
import { InvalidContextError } from '../../../../src/core/repl/replErrors';

interface Frame {
  kind: string;
  path: string;
  data: Buffer;
}

/** Collects what a bind writes, and parses it back into frames. */
function collector(): { sink: { write(chunk: Uint8Array): Promise<void> }; pieces: Uint8Array[]; frames(): Frame[] } {
  const pieces: Uint8Array[] = [];
  return {
    sink: { write: async (chunk) => void pieces.push(Buffer.from(chunk)) },
    pieces,
    frames() {
      const all = Buffer.concat(pieces);
      const out: Frame[] = [];
      for (let at = 0; at < all.length; ) {
        const kind = String.fromCharCode(all[at]!);
        const metaLength = all.readUInt32LE(at + 1);
        const dataLength = all.readUInt32LE(at + 5);
        const path = all.subarray(at + FRAME_HEAD_BYTES, at + FRAME_HEAD_BYTES + metaLength).toString('utf8');
        const start = at + FRAME_HEAD_BYTES + metaLength;
        out.push({ kind, path, data: all.subarray(start, start + dataLength) });
        at = start + dataLength;
      }
      return out;
    },
  };
}

test('a text is one T frame, then M (what the input is) and E, sent in pieces of at most 1 MB, and a string is encoded a piece at a time', async () => {
  // Surrogate pairs straddle every cut, so a cut that split one would corrupt the text.
  const text = `${'a'.repeat(STREAM_CHUNK_BYTES / 4 - 1)}😀${'é'.repeat(300_000)}😀${'z'.repeat(1000)}`;
  const out = collector();
  const streamed = await streamContext({ kind: 'text', text, label: 'x.txt' }, out.sink, 100 * 1024 * 1024);
  const frames = out.frames();
  assert.deepEqual(frames.map((f) => f.kind), ['T', 'M', 'E']);
  assert.equal(frames[0]!.data.toString('utf8'), text);
  assert.deepEqual(JSON.parse(frames[1]!.data.toString('utf8')), { format: 'text' });
  assert.ok(out.pieces.every((p) => p.byteLength <= STREAM_CHUNK_BYTES), 'no piece over 1 MB');
  assert.equal(streamed.byteLength, Buffer.byteLength(text));
  const meta = buildMetadata(streamed, { chars: [text.length], invalidUtf8Replacements: [0] });
  assert.equal(meta.prefix, 'a'.repeat(200));
  assert.equal(meta.totalBytes, Buffer.byteLength(text));
});

test('files are F frames in order; the metadata lists 100 and counts the rest', async () => {
  const files = Array.from({ length: 150 }, (_, i) => ({ path: `f${i}.txt`, content: i % 2 ? `n${i}` : new Uint8Array([0x61, 0x62]) }));
  const out = collector();
  const streamed = await streamContext({ kind: 'files', files }, out.sink, 10_000);
  const frames = out.frames();
  assert.equal(frames.length, 152);
  assert.deepEqual(frames.slice(-2).map((f) => f.kind), ['M', 'E']);
  assert.deepEqual(frames.slice(0, 3).map((f) => [f.kind, f.path, f.data.toString()]), [['F', 'f0.txt', 'ab'], ['F', 'f1.txt', 'n1'], ['F', 'f2.txt', 'ab']]);
  const meta = buildMetadata(streamed, { chars: files.map(() => 2), invalidUtf8Replacements: files.map((_, i) => (i === 3 ? 2 : 0)) });
  assert.deepEqual([meta.fileCount, meta.files.length, meta.filesOmitted, meta.totalChars, meta.invalidUtf8Replacements, meta.prefix], [150, 100, 50, 300, 2, 'ab']);
});

test('an over-size or malformed source is refused before a single byte is sent', async () => {
  const out = collector();
  await assert.rejects(
    streamContext({ kind: 'files', files: [{ path: 'a', content: 'x'.repeat(60) }, { path: 'b', content: 'y'.repeat(60) }] }, out.sink, 100),
    (err: unknown) => err instanceof ContextTooLargeError && err.bytes === 120 && err.limit === 100,
  );
  await assert.rejects(streamContext({ kind: 'files', files: [{ path: '', content: 'x' }] }, out.sink, 100), InvalidContextError);
  await assert.rejects(streamContext({ kind: 'files', files: [{ path: 'a', content: 'x' }, { path: 'a', content: 'x' }] }, out.sink, 100), InvalidContextError);
  assert.equal(out.pieces.length, 0);
});

test('the preview is exact for strings and ASCII bytes, and says when it estimates', () => {
  assert.equal(previewMetadata({ kind: 'text', text: 'héllo' }).approximate, undefined);
  assert.equal(previewMetadata({ kind: 'text', text: 'héllo' }).totalChars, 5);
  assert.equal(previewMetadata({ kind: 'text', text: new TextEncoder().encode('plain') }).approximate, undefined);
  const accented: ContextSource = { kind: 'text', text: new TextEncoder().encode('héllo') };
  assert.equal(previewMetadata(accented).approximate, true);
  assert.equal(previewMetadata(accented).prefix, 'héllo');
});

describe('a plan on disk is read while it streams', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-stream-'));
    mkdirSync(join(dir, 'proj'));
    for (let i = 0; i < 100; i++) writeFileSync(join(dir, 'proj', `f${String(i).padStart(3, '0')}.txt`), `file ${i}\n`.repeat(i + 1));
    writeFileSync(join(dir, 'proj', 'sneaky.txt'), Buffer.from([0x61, 0, 0x62]));
    writeFileSync(join(dir, 'big.log'), 'x'.repeat(3 * STREAM_CHUNK_BYTES + 17));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('streams a folder in order, leaving out a file that is binary by content', async () => {
    const plan = await planPaths(['proj'], { cwd: dir });
    const preview = previewMetadata({ kind: 'plan', plan });
    assert.equal(preview.approximate, true);
    assert.equal(preview.fileCount, 101, 'the walk does not read contents, so it cannot know sneaky.txt is binary');
    const out = collector();
    const streamed = await streamContext({ kind: 'plan', plan }, out.sink, 256 * 1024 * 1024);
    const frames = out.frames().filter((f) => f.kind === 'F');
    assert.equal(frames.length, 100);
    assert.deepEqual(frames.map((f) => f.path), [...frames.map((f) => f.path)].sort());
    assert.equal(frames[5]!.data.toString(), 'file 5\n'.repeat(6));
    assert.deepEqual(streamed.leftOut, [{ path: 'proj/sneaky.txt', reason: 'binary', bytes: 3 }]);
    assert.equal(buildMetadata(streamed, { chars: frames.map((f) => f.data.length), invalidUtf8Replacements: frames.map(() => 0) }).leftOut?.length, 1);
  });

  it('reads a single file in 1 MB pieces, up to the size it had when planned', async () => {
    const plan = await planPaths(['big.log'], { cwd: dir });
    appendFileSync(join(dir, 'big.log'), 'GROWN AFTER PLANNING');
    const out = collector();
    const streamed = await streamContext({ kind: 'plan', plan }, out.sink, 256 * 1024 * 1024);
    const [text] = out.frames();
    assert.equal(text!.kind, 'T');
    assert.equal(text!.data.length, 3 * STREAM_CHUNK_BYTES + 17);
    assert.ok(!text!.data.includes('GROWN'));
    assert.ok(out.pieces.every((p) => p.byteLength <= STREAM_CHUNK_BYTES));
    assert.equal(streamed.prefixBytes.length, 800);
  });

  it('a file that shrank while read aborts the bind, keeping the frame stream whole', async () => {
    writeFileSync(join(dir, 'shrinks.log'), 'y'.repeat(2 * STREAM_CHUNK_BYTES));
    const plan = await planPaths(['shrinks.log'], { cwd: dir });
    truncateSync(join(dir, 'shrinks.log'), 1000);
    const out = collector();
    await assert.rejects(streamContext({ kind: 'plan', plan }, out.sink, 256 * 1024 * 1024), (e: unknown) => e instanceof ContextChangedError && e.got === 1000);
    const frames = out.frames();
    assert.deepEqual(frames.map((f) => f.kind), ['T', 'A']);
    assert.equal(frames[0]!.data.length, 2 * STREAM_CHUNK_BYTES, 'the announced bytes were all sent');
  });
});
