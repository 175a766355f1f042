import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractChoice, extractPairs, scoreAnswer, scoreExact, scoreMultipleChoice, scoreNumeric, scorePairsF1 } from '../../../src/eval/tasks/scorers';

test('exact match ignores case, outer quotes, trailing punctuation and an "Answer:" prefix', () => {
  assert.equal(scoreExact('48213077', 'Answer: 48213077.'), 1);
  assert.equal(scoreExact('less common than', '"Less common than"'), 1);
  assert.equal(scoreExact('48213077', '48213078'), 0);
  assert.equal(scoreExact('location', 'the location'), 0);
});

test('numeric answers score 0.75 ** |error|', () => {
  assert.equal(scoreNumeric('120', '120'), 1);
  assert.equal(scoreNumeric('120', 'There are 122 records.'), 0.75 ** 2);
  assert.equal(scoreNumeric('1200', '1,195'), 0.75 ** 5);
  assert.equal(scoreNumeric('12', 'none'), 0);
});

test('pairs F1 is order- and format-insensitive and penalises extras and misses', () => {
  const want = '10, 20\n10, 30\n20, 30';
  assert.deepEqual([...extractPairs('(20,10); (30 - 10)')].sort(), ['10,20', '10,30']);
  assert.equal(scorePairsF1(want, '(30, 20)\n(20, 10)\n(10, 30)'), 1);
  // 2 of 3 found, nothing extra: P = 1, R = 2/3.
  assert.ok(Math.abs(scorePairsF1(want, '10, 20\n10, 30') - 0.8) < 1e-9);
  // 3 right and 1 wrong: P = 3/4, R = 1.
  assert.ok(Math.abs(scorePairsF1(want, `${want}\n40, 50`) - 6 / 7) < 1e-9);
  assert.equal(scorePairsF1(want, 'no pairs'), 0);
  assert.equal(scorePairsF1('', ''), 1);
});

test('multiple choice takes a lone letter or the exact text of one choice', () => {
  const choices = ['lodash/isMatch.js', 'lodash/fp/matches.js', 'a.js', 'b.js'];
  assert.equal(extractChoice('B'), 'B');
  assert.equal(extractChoice('(c)'), 'C');
  assert.equal(extractChoice('Answer: D) b.js'), 'D');
  assert.equal(extractChoice('lodash/isMatch.js', choices), 'A');
  assert.equal(extractChoice('Because of x'), undefined);
  assert.equal(scoreMultipleChoice('A', 'A'), 1);
  assert.equal(scoreMultipleChoice('A', 'B'), 0);
});

test('scoreAnswer dispatches on the task scorer and gives 0 for no answer', () => {
  assert.equal(scoreAnswer({ scorer: 'numeric', answer: '5' }, '4'), 0.75);
  assert.equal(scoreAnswer({ scorer: 'exact', answer: 'x' }, undefined), 0);
  assert.equal(scoreAnswer({ scorer: 'multipleChoice', answer: 'C', choices: ['a', 'b', 'c', 'd'] }, 'c'), 1);
});
