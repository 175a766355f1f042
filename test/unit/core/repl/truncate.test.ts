import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headTail } from '../../../../src/core/repl/truncate';

test('headTail leaves text that fits untouched', () => {
  assert.equal(headTail('short', 10), 'short');
  assert.equal(headTail('', 0), '');
});

test('headTail keeps head and tail, states the true length, and stays within maxChars', () => {
  const text = Array.from({ length: 5000 }, (_, i) => String(i % 10)).join('');
  const view = headTail(text, 400);
  assert.ok(view.length <= 400, `view is ${view.length} chars`);
  assert.ok(view.startsWith(text.slice(0, 100)));
  assert.ok(view.endsWith(text.slice(-100)));
  const omitted = /\[\.\.\. ([\d,]+) of 5,000 characters omitted \.\.\.\]/.exec(view);
  assert.ok(omitted, view);
  const kept = view.length - omitted[0].length - 2;
  assert.equal(Number(omitted[1]!.replace(/,/g, '')), 5000 - kept);
});

test('headTail reports a true length beyond the captured text', () => {
  const view = headTail('a'.repeat(100), 1000, 1_234_567);
  assert.match(view, /of 1,234,567 characters omitted/);
  assert.match(view, /1,234,467 of/);
});

test('headTail rejects bad arguments', () => {
  assert.throws(() => headTail('abc', -1), RangeError);
  assert.throws(() => headTail('abc', 10, 2), RangeError);
});
