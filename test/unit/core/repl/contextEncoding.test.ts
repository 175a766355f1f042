import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMetadata, encodeContext } from '../../../../src/core/repl/contextEncoding';
import { ContextTooLargeError } from '../../../../src/core/context/contextErrors';
import { InvalidContextError } from '../../../../src/core/repl/replErrors';

test('a text context is one chunk with a text layout', () => {
  const enc = encodeContext({ kind: 'text', text: 'héllo' }, 100);
  assert.deepEqual(enc.layout, { kind: 'text' });
  assert.equal(enc.byteLength, 6);
  const meta = buildMetadata(enc, { chars: [5], invalidUtf8Replacements: [0] });
  assert.deepEqual(meta, { type: 'str', totalChars: 5, totalBytes: 6, fileCount: 1, prefix: 'héllo', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 });
});

test('files keep their order and byte ranges; metadata caps the file list at 100', () => {
  const files = Array.from({ length: 150 }, (_, i) => ({ path: `f${i}.txt`, content: i % 2 ? `n${i}` : new Uint8Array([0x61, 0x62]) }));
  const enc = encodeContext({ kind: 'files', files }, 10_000);
  assert.equal(enc.layout.kind, 'files');
  if (enc.layout.kind !== 'files') return;
  assert.deepEqual(enc.layout.files.slice(0, 3), [
    { path: 'f0.txt', start: 0, end: 2 },
    { path: 'f1.txt', start: 2, end: 4 },
    { path: 'f2.txt', start: 4, end: 6 },
  ]);
  const meta = buildMetadata(enc, { chars: files.map(() => 2), invalidUtf8Replacements: files.map((_, i) => (i === 3 ? 2 : 0)) });
  assert.equal(meta.fileCount, 150);
  assert.equal(meta.files.length, 100);
  assert.equal(meta.filesOmitted, 50);
  assert.equal(meta.totalChars, 300);
  assert.equal(meta.invalidUtf8Replacements, 2);
  assert.equal(meta.prefix, 'ab');
});

test('the prefix is 200 characters and never ends in a cut multi-byte character', () => {
  const enc = encodeContext({ kind: 'text', text: '€'.repeat(500) }, 10_000);
  const meta = buildMetadata(enc, { chars: [500], invalidUtf8Replacements: [0] });
  assert.equal(meta.prefix, '€'.repeat(200));
});

test('over-size input is refused before encoding, with bytes and limit', () => {
  assert.throws(
    () => encodeContext({ kind: 'files', files: [{ path: 'a', content: 'x'.repeat(60) }, { path: 'b', content: 'y'.repeat(60) }] }, 100),
    (err: unknown) => err instanceof ContextTooLargeError && err.bytes === 120 && err.limit === 100,
  );
  assert.throws(() => encodeContext({ kind: 'text', text: 'é'.repeat(60) }, 100), ContextTooLargeError);
});

test('duplicate or empty paths are refused', () => {
  assert.throws(() => encodeContext({ kind: 'files', files: [{ path: '', content: 'x' }] }, 100), InvalidContextError);
  assert.throws(() => encodeContext({ kind: 'files', files: [{ path: 'a', content: 'x' }, { path: 'a', content: 'x' }] }, 100), InvalidContextError);
});
