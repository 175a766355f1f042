// History's Continue… / Fork… and a record's provider batches (continuePlan.ts batchContinuation): a run
// interrupted while it waited for a batch is taken up at that turn with its own question, and the
// record's batches go to the run (which polls one only on the provider, endpoint and model configured
// now: matchRecordedBatch); any other unfinished run is refused as before; a replay for the user's cells
// gets none. The record is hostile: a batch id of the wrong shape is never offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchRecordedBatch, providerBatchItemHash } from '../../../src/core/loop/batchOptions';
import type { ModelClient } from '../../../src/core/models/modelTypes';
import { TreeBuilder } from '../../../src/core/trajectory/treeBuilder';
import type { EventRecord } from '../../../src/core/trajectory/events';
import { batchContinuation, RunUnfinishedError } from '../../../src/vscode/commands/continuePlan';

const client = { provider: 'openai', model: 'm', endpoint: 'https://api.openai.com/v1' } as ModelClient;
const hash = providerBatchItemHash(client, 100, 'p');

/** A run of two turns: the second cell sent a batch; `ended` says whether it ended, `finished` whether the run did. */
function record(opts: { batch?: boolean; ended?: boolean; finished?: boolean; providerBatchId?: string; endpoint?: string }) {
  let seq = 0;
  const ev = (e: Record<string, unknown>): EventRecord => ({ runId: 'r', seq: ++seq, ts: seq, ...e }) as unknown as EventRecord;
  const b = new TreeBuilder();
  b.apply(ev({ type: 'run.started', depth: 0, question: 'the question' }));
  for (const turn of [1, 2]) {
    b.apply(ev({ type: 'turn.started', turn }));
    b.apply(ev({ type: 'cell.started', turn, cellId: `c${turn}`, code: 'x' }));
  }
  const providerBatchId = opts.providerBatchId ?? 'batch_1';
  if (opts.batch !== false) b.apply(ev({ type: 'batch.submitted', cellId: 'c2', batchId: 'b', provider: 'openai', endpoint: opts.endpoint ?? client.endpoint, model: 'm', providerBatchId, items: [{ customId: 'q0-abc', promptHash: hash }] }));
  if (opts.ended) b.apply(ev({ type: 'batch.ended', batchId: 'b', providerBatchId, status: 'completed', counts: { total: 1, succeeded: 1, errored: 0, expired: 0, canceled: 0, processing: 0 }, elapsedMs: 5 }));
  if (opts.finished) b.apply(ev({ type: 'run.finished', status: 'completed', forced: false }));
  return b.tree!;
}

test('Continue… takes a run interrupted while waiting up at that turn, and passes its batch on', () => {
  const plan = batchContinuation(record({}), 'continue', undefined);
  assert.equal(plan.takeUpAt, 2);
  assert.equal(plan.recorded.length, 1);
  assert.ok(matchRecordedBatch(plan.recorded, client, [hash]), 'polled on the endpoint configured now');
  assert.equal(matchRecordedBatch(plan.recorded, { ...client, endpoint: 'http://other.example/v1' } as ModelClient, [hash]), undefined, 'and on no other');
  // A turn the user chose wins; the batches still go with it.
  const chosen = batchContinuation(record({}), 'continue', 1);
  assert.equal(chosen.takeUpAt, undefined);
  assert.equal(chosen.recorded.length, 1);
});

test('Fork… passes the batches on without taking up a turn; a replay for the user\'s cells gets none', () => {
  const fork = batchContinuation(record({ ended: true, finished: true }), 'fork', 1);
  assert.equal(fork.takeUpAt, undefined);
  assert.equal(fork.recorded.length, 1);
  assert.deepEqual(batchContinuation(record({ ended: true, finished: true }), 'session', undefined), { recorded: [] });
});

test('an unfinished run that was not waiting for a batch is refused, as before', () => {
  assert.throws(() => batchContinuation(record({ batch: false }), 'continue', undefined), RunUnfinishedError);
  assert.throws(() => batchContinuation(record({ ended: true }), 'fork', 1), RunUnfinishedError);
  assert.equal(batchContinuation(record({ ended: true, finished: true }), 'continue', undefined).takeUpAt, undefined, 'a finished run is continued with a follow-up');
});

test('a recorded batch id that would change the URL path is never offered', () => {
  assert.deepEqual(batchContinuation(record({ providerBatchId: '../files/x' }), 'continue', undefined).recorded, []);
});
