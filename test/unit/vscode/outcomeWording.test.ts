// How a run ended, in words: a stop is not an error, a limit is a limit, a failure says its cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeOutcome } from '../../../src/vscode/errors/outcomeWording';

test('a stop by the user is neutral, counts its turns and offers to ask again', () => {
  for (const kind of ['cancelled', 'RunCancelledError']) {
    const o = describeOutcome({ status: 'cancelled', error: { kind, message: 'Run cancelled: stopped by the user' }, turns: 3 });
    assert.equal(o.headline, 'Stopped by you after 3 turns');
    assert.equal(o.tone, 'neutral');
    assert.equal(o.detail, undefined, 'no error text for a stop');
    assert.equal(o.askAgain, true);
  }
  assert.equal(describeOutcome({ status: 'cancelled', turns: 1 }).headline, 'Stopped by you after 1 turn');
  assert.equal(describeOutcome({ status: 'cancelled', turns: 0 }).headline, 'Stopped by you before any turn finished');
});

test('a stop for another reason says the reason', () => {
  const o = describeOutcome({ status: 'cancelled', error: { kind: 'repl', message: 'the REPL process exited' }, turns: 2 });
  assert.equal(o.headline, 'Stopped after 2 turns');
  assert.equal(o.detail, 'The REPL process exited.');
  assert.equal(o.tone, 'warning');
});

test('a limit is shown as a limit, with or without an answer', () => {
  const limit = describeOutcome({ status: 'limit', error: { kind: 'limit', message: 'Cost limit reached: $0.5012 of $0.5000', limit: 'costUsd' }, turns: 4 });
  assert.equal(limit.headline, 'Stopped at the cost limit after 4 turns, without an answer');
  assert.equal(limit.detail, 'The run reached the cost limit ($0.5012 of $0.5000). Raise rlm.maxCostUsd to let runs go further.');
  assert.equal(limit.setting, 'rlm.maxCostUsd');
  assert.equal(limit.tone, 'warning');
  const forced = describeOutcome({ status: 'forced', error: { kind: 'limit', message: 'Iteration limit reached: 30 of 30', limit: 'iterations' }, turns: 30 });
  assert.equal(forced.headline, 'Best answer at the turn limit, after 30 turns');
  assert.equal(forced.askAgain, false);
});

test('a failure says its cause and next step; completed runs count their turns', () => {
  const failed = describeOutcome({ status: 'error', error: { kind: 'connection', message: 'could not connect: fetch failed. Is the server running and the base URL right?' }, turns: 1 });
  assert.equal(failed.headline, 'Failed after 1 turn');
  assert.match(failed.detail ?? '', /^Could not reach the model server: could not connect/);
  assert.doesNotMatch(failed.detail ?? '', /fetch failed/);
  assert.equal(failed.tone, 'error');
  assert.equal(describeOutcome({ status: 'completed', turns: 2 }).headline, 'Answered in 2 turns');
  assert.equal(describeOutcome({ status: 'incomplete', turns: 2 }).tone, 'warning');
});
