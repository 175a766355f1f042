import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLength, parseLength, parseLengthList, TaskLengthError } from '../../../src/eval/tasks/taskLength';

test('parseLength reads k and m suffixes as thousands and millions', () => {
  assert.equal(parseLength('8k'), 8_000);
  assert.equal(parseLength('32K'), 32_000);
  assert.equal(parseLength('1m'), 1_000_000);
  assert.equal(parseLength('10m'), 10_000_000);
  assert.equal(parseLength('1.5m'), 1_500_000);
  assert.equal(parseLength('20000'), 20_000);
});

test('parseLength refuses junk and out-of-range lengths with the input named', () => {
  for (const bad of ['', 'abc', '32kb', '-8k', '11m', '999']) {
    assert.throws(() => parseLength(bad), (e: unknown) => e instanceof TaskLengthError && e.message.includes(`"${bad}"`));
  }
});

test('parseLengthList splits on commas and formatLength round-trips', () => {
  assert.deepEqual(parseLengthList('32k, 1m'), [32_000, 1_000_000]);
  assert.deepEqual(['8k', '32k', '1m', '10m'].map((s) => formatLength(parseLength(s))), ['8k', '32k', '1m', '10m']);
  assert.throws(() => parseLengthList(' , '), TaskLengthError);
});
