// The 'M' frame that tells the REPL what the input is (context_meta()'s format keys): the one-word name
// for each kind of input, the root's format metadata in Python's key style, and the declared shape
// (childMessages.ts) held by every frame built, however long the names in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFrame, replFormatMeta } from '../../../../src/core/repl/contextFormatFrame';
import { REPL_FORMAT_META } from '../../../../src/core/repl/childMessages';
import { FRAME_HEAD_BYTES } from '../../../../src/core/repl/contextFrames';

test('each kind of input has its name; plain text, a plain folder and plain rotated logs are "text"', () => {
  assert.deepEqual(replFormatMeta(undefined, 'str'), { format: 'text' });
  assert.deepEqual(replFormatMeta(undefined, 'dict'), { format: 'text' });
  assert.deepEqual(replFormatMeta({ compression: 'zstd' }, 'str'), { format: 'zstd', format_summary: 'read decompressed from zstd', compression: 'zstd' });
  const notebook = { cells: 3, code: 2, markdown: 1, raw: 0, language: 'python', binaryOutputs: 1, truncatedOutputs: 0 };
  assert.deepEqual(replFormatMeta({ notebook }, 'str').notebook, { cells: 3, code: 2, markdown: 1, raw: 0, language: 'python', binary_outputs: 1, truncated_outputs: 0 });
  assert.equal(replFormatMeta({ notebook }, 'str').format, 'notebook');
  assert.equal(replFormatMeta({ notebook: { ...notebook, cells: 1, code: 1, markdown: 0, language: undefined } }, 'str').format_summary, 'a Jupyter notebook, 1 cell: 1 code');
  assert.deepEqual(replFormatMeta({ pdf: { pages: 40, textlessPages: '3, 7–9', textlessCount: 4 } }, 'dict').pdf, { pages: 40, textless_pages: '3, 7–9', textless_count: 4 });
  assert.equal(replFormatMeta({ pdf: { pages: 40 } }, 'dict').format, 'pdf');
  assert.equal(replFormatMeta({ logSets: [{ log: 'logs/app.log', parts: 2 }] }, 'dict').format, 'text');
  assert.equal(replFormatMeta({ compressedFiles: 2, logSets: [{ log: 'logs/app.log', parts: 3 }] }, 'dict').format, 'mixed');
  assert.equal(replFormatMeta({ pdfs: { files: 1, read: 0, pages: 0, textlessPages: 0 } }, 'dict').format, 'mixed');
  assert.equal(replFormatMeta({ notebooks: 1 }, 'dict').format, 'mixed');
});

test('a frame holds the declared shape and stays small, however long the names in it', () => {
  const logSets = Array.from({ length: 20 }, (_, i) => ({ log: `${'deep/'.repeat(2000)}app${i}.log`, parts: 3 }));
  const frame = formatFrame({ compressedFiles: 60, logSets, logSetsOmitted: 7 }, 'dict');
  assert.equal(String.fromCharCode(frame[0]!), 'M');
  const data = frame.subarray(FRAME_HEAD_BYTES);
  assert.equal(frame.readUInt32LE(5), data.byteLength);
  const meta = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
  assert.equal(REPL_FORMAT_META(meta), undefined);
  assert.equal(meta.log_sets_omitted, 7);
  assert.ok(data.byteLength < 64 * 1024, `${data.byteLength} bytes`);
  assert.match(REPL_FORMAT_META({ format: 'text', extra: 1 }) ?? '', /undeclared field/);
});
