import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineSplitter } from '../../../../src/core/citations/lineSplitter';
import { utf8Chunks } from '../../../../src/core/context/utf8Chunks';

const decoder = new TextDecoder();

function split(input: Uint8Array, chunkSize: number, maxLineBytes?: number): Array<[string, boolean]> {
  const lines: Array<[string, boolean]> = [];
  const splitter = new LineSplitter((bytes, start, end, cut) => lines.push([decoder.decode(bytes.subarray(start, end)), cut]), maxLineBytes);
  // One reused buffer, as a file stream hands chunks over: the splitter must copy what it carries.
  const buffer = new Uint8Array(chunkSize);
  for (let at = 0; at < input.length; at += chunkSize) {
    const piece = input.subarray(at, at + chunkSize);
    buffer.set(piece);
    splitter.push(buffer.subarray(0, piece.length));
    buffer.fill(0x58);
  }
  splitter.end();
  return lines;
}

/** What search() and the citations count as lines: a trailing newline ends the last line, it does not start one. */
function expected(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

test('line splitter: the same lines whatever the chunk boundaries, with a reused buffer', () => {
  const texts = ['', '\n', 'a', 'a\n', 'a\nb', 'a\n\nb\n\n', 'first line\nsecond line\r\nthird\n', 'é€😀 wide\nchars\n'];
  let seed = 7;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 40; i++) texts.push(Array.from({ length: 1 + Math.floor(random() * 30) }, () => (random() < 0.3 ? '\n' : 'xyz'.repeat(Math.floor(random() * 5)))).join(''));
  for (const text of texts) {
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) {
      assert.deepEqual(split(bytes, size).map(([line]) => line), expected(text), `${JSON.stringify(text)} in chunks of ${size}`);
    }
  }
});

test('line splitter: a line past the cap keeps its first bytes and is marked cut; memory stays bounded', () => {
  const text = `short\n${'x'.repeat(10_000)}\nafter\n${'y'.repeat(5000)}`;
  const lines = split(new TextEncoder().encode(text), 333, 1000);
  assert.deepEqual(lines.map(([line, cut]) => [line.length, cut]), [[5, false], [1000, true], [5, false], [1000, true]]);
  assert.equal(lines[1]![0], 'x'.repeat(1000));
});

test('text chunks: a string is encoded piece by piece exactly as it would be whole, surrogate pairs never cut', () => {
  const text = `${'a😀'.repeat(1000)}é\n€${'😀'.repeat(333)}`;
  for (const size of [2, 3, 5, 100, 4096]) {
    const parts: number[] = [];
    for (const piece of utf8Chunks(text, size)) parts.push(...piece);
    assert.deepEqual(Buffer.from(parts), Buffer.from(new TextEncoder().encode(text)), `chunks of ${size} chars`);
  }
});
