// The aligner passes an event stream on in whole events: nothing lost, nothing reordered, nothing
// held back past a complete event, whatever the chunking, with all three of the SDKs' boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamAligner } from '../../../../src/core/models/eventStreamAligner';

const BOUNDARIES = ['\n\n', '\r\r', '\r\n\r\n'];

/** Every position just after a boundary in `text`, by a plain scan (the reference). */
function boundaryEnds(text: string): Set<number> {
  const ends = new Set<number>();
  for (const b of BOUNDARIES) for (let i = text.indexOf(b); i >= 0; i = text.indexOf(b, i + 1)) ends.add(i + b.length);
  return ends;
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function feed(text: string, cuts: number[]): { outputs: string[]; released: number[] } {
  const aligner = new EventStreamAligner();
  const bytes = Buffer.from(text, 'latin1');
  const outputs: string[] = [];
  const released: number[] = [];
  let total = 0;
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const out = aligner.push(bytes.subarray(from, to));
    if (out) {
      outputs.push(Buffer.from(out).toString('latin1'));
      total += out.byteLength;
    }
    released.push(total);
    from = to;
  }
  const rest = aligner.flush();
  if (rest) outputs.push(Buffer.from(rest).toString('latin1'));
  return { outputs, released };
}

test('whole events pass through unchanged, and a lone event without a boundary comes out at the end', () => {
  assert.deepEqual(feed('data: a\n\ndata: b\n\n', []).outputs, ['data: a\n\ndata: b\n\n']);
  assert.deepEqual(feed('data: a\n\ndata: b', []).outputs, ['data: a\n\n', 'data: b']);
  assert.deepEqual(feed('data: no end', [3, 6]).outputs, ['data: no end']);
});

test('a boundary split across chunks is found at once', () => {
  assert.deepEqual(feed('data: a\n\ndata: b', [8]).outputs, ['data: a\n\n', 'data: b']);
  assert.deepEqual(feed('data: a\r\n\r\nnext', [8, 10]).outputs, ['data: a\r\n\r\n', 'next']);
  assert.deepEqual(feed('x\r\n\r\ny', [2, 3, 4]).outputs, ['x\r\n\r\n', 'y']);
});

test('any chunking: nothing lost or reordered, every cut at a boundary, nothing held past one', () => {
  const next = random(42);
  const pieces = ['data: {"x":1}', 'event: ping', ': comment', 'data: ', 'aaaaaaaaaa', '\n', '\r', '\n\n', '\r\r', '\r\n\r\n', '\r\n'];
  for (let round = 0; round < 500; round++) {
    let text = '';
    while (text.length < 200) text += pieces[Math.floor(next() * pieces.length)];
    const cuts = [...new Set(Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * text.length)))].sort((a, b) => a - b);
    const { outputs, released } = feed(text, cuts);
    assert.equal(outputs.join(''), text, `round ${round}`);
    const ends = boundaryEnds(text);
    let at = 0;
    for (const out of outputs.slice(0, -1)) {
      at += out.length;
      assert.ok(ends.has(at), `round ${round}: a cut at ${at} is not after a boundary`);
    }
    [...cuts, text.length].forEach((seen, i) => {
      const lastEnd = Math.max(0, ...[...boundaryEnds(text.slice(0, seen))]);
      assert.ok((released[i] ?? 0) >= lastEnd, `round ${round}: after ${seen} bytes only ${released[i]} were passed on, but an event ended at ${lastEnd}`);
    });
  }
});

test('an endless line is held, not passed on in pieces for the SDK to rescan', () => {
  const aligner = new EventStreamAligner();
  const slab = Buffer.alloc(64 * 1024, 'a');
  for (let i = 0; i < 64; i++) assert.equal(aligner.push(slab), undefined);
  assert.equal(aligner.flush()?.byteLength, 64 * 64 * 1024);
});
