// How an @rlm answer ends: a stop is said as a stop with what was done; turns count what happened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { footerMarkdown, stoppedMarkdown } from '../../../src/vscode/chat/chatEnding';
import { completedTurns, shownTurns } from '../../../src/core/trajectory/turnCount';
import { describeOutcome } from '../../../src/vscode/errors/outcomeWording';

const usage = { inputTokens: 10, outputTokens: 2, costUsd: null };
const figures = { subCalls: 3, inputTokens: 1200, outputTokens: 300, costUsd: 0, costUnknown: false, costLocal: true };

test('a stop reads "Stopped by you" with the turns completed and the figures so far', () => {
  assert.equal(stoppedMarkdown(2, figures), '**Stopped by you after 2 turns.** Done so far: 3 sub-calls · 1.5k tokens · local (no charge).');
  assert.equal(stoppedMarkdown(0, undefined), '**Stopped by you** before anything was sent.');
  assert.match(stoppedMarkdown(0, { ...figures, subCalls: 0 }), /^\*\*Stopped by you before any turn finished\.\*\*/);
});

test('the footer counts turns as the view does and words a local run\'s cost as local', () => {
  const text = footerMarkdown(4, figures, 'qwen2.5');
  assert.equal(text, '\n\n---\n_4 turns · 3 sub-calls · 1.5k tokens · local (no charge) · qwen2.5_');
  assert.doesNotMatch(text, /\$0\.00/);
});

test('a turn is a root-model reply that arrived: user cells and a turn still out do not count', () => {
  const run = { status: 'error', turns: [{ usage }, { author: 'user' as const, usage }, {}] };
  assert.equal(completedTurns(run), 1);
  assert.equal(shownTurns(run), 1);
  assert.equal(shownTurns({ ...run, status: 'running' }), 2, 'while running, the turn under way is "turn 2"');
  // A run that failed in its first model call completed none: never "Failed after 1 turn".
  const failed = { status: 'error', turns: [{}] };
  assert.equal(describeOutcome({ status: 'error', error: { kind: 'connection', message: 'could not connect' }, turns: completedTurns(failed) }).headline, 'Failed before any turn finished');
});

test('a failure outcome carries the buttons of its next step', () => {
  const conn = describeOutcome({ status: 'error', error: { kind: 'connection', message: 'could not connect' }, turns: 0 });
  assert.ok(conn.steps?.includes('configureModels'), JSON.stringify(conn));
  const auth = describeOutcome({ status: 'error', error: { kind: 'auth', message: 'bad key' }, turns: 0 });
  assert.deepEqual(auth.steps, ['setApiKey', 'configureModels']);
  assert.equal(describeOutcome({ status: 'cancelled', turns: 1 }).steps, undefined);
});
