import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clipAtWord, viewTitle } from '../../../src/vscode/trajectory/viewTitle';

const run = (question: string, continuedFrom?: { mode: 'continue' | 'fork' | 'session' }) => ({
  question,
  ...(continuedFrom && { continuedFrom: { ...continuedFrom, runId: 'parent', question, allowDivergence: false } }),
});

test('a short question is the title as it is, its spaces folded', () => {
  assert.equal(viewTitle(run('How many lines\n and  words?')), 'How many lines and words?');
});

test('a long question is clipped at a word, never mid-word when a break is near', () => {
  const title = viewTitle(run('Which functions write to the database, and where are they called from?'));
  assert.equal(title, 'Which functions write to the database…');
  assert.ok(title.length <= 40);
});

test('one very long word is cut where the room ends', () => {
  assert.equal(clipAtWord('a'.repeat(60), 10), `${'a'.repeat(9)}…`);
});

test('a fork says so, so it differs from its original; a follow-up has its own question', () => {
  assert.equal(viewTitle(run('How many errors?', { mode: 'fork' })), 'Fork: How many errors?');
  assert.notEqual(viewTitle(run('How many errors?', { mode: 'fork' })), viewTitle(run('How many errors?')));
  assert.equal(viewTitle(run('And warnings?', { mode: 'continue' })), 'And warnings?');
  assert.ok(viewTitle(run('x'.repeat(100), { mode: 'fork' })).length <= 40);
});

test('a run whose question is not known yet has a title that says what it is', () => {
  assert.equal(viewTitle(run('  ')), 'RLM run');
  assert.equal(viewTitle(run('', { mode: 'fork' })), 'Fork of an RLM run');
});
