// The provider batches a record offers to `rlm continue`, read as hostile data: ids of the wrong shape
// are dropped, and a recorded batch is matched only on the provider, endpoint and model configured now,
// for prompt hashes it lists. --batch parsing refuses what cannot work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interruptedBatchTurn, matchRecordedBatch, providerBatchItemHash, recordedBatchesOf } from '../../../../src/core/loop/batchOptions';
import type { ModelClient } from '../../../../src/core/models/modelTypes';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { parseBatchChoice } from '../../../../src/cli/support/batchArgs';

const client = { provider: 'openai', model: 'm', endpoint: 'https://api.openai.com/v1' } as ModelClient;

function tree(providerBatchId: string, endpoint: string, customId = 'q0-abc', ended = false) {
  const hash = providerBatchItemHash(client, 100, 'p');
  let seq = 0;
  const ev = (e: Record<string, unknown>): EventRecord => ({ runId: 'r', seq: ++seq, ts: seq, ...e }) as unknown as EventRecord;
  const b = new TreeBuilder();
  b.apply(ev({ type: 'run.started', depth: 0, question: 'q' }));
  b.apply(ev({ type: 'turn.started', turn: 1 }));
  b.apply(ev({ type: 'cell.started', turn: 1, cellId: 'c', code: 'x' }));
  b.apply(ev({ type: 'batch.submitted', cellId: 'c', batchId: 'b', provider: 'openai', endpoint, model: 'm', providerBatchId, items: [{ customId, promptHash: hash }] }));
  if (ended) b.apply(ev({ type: 'batch.ended', batchId: 'b', providerBatchId, status: 'completed', counts: { total: 1, succeeded: 1, errored: 0, expired: 0, canceled: 0, processing: 0 }, elapsedMs: 5 }));
  return { run: b.tree, hash };
}

test('a recorded batch is offered only with a well-formed id and custom ids', () => {
  assert.equal(recordedBatchesOf(tree('batch_1', client.endpoint).run).length, 1);
  assert.equal(recordedBatchesOf(tree('../files/x', client.endpoint).run).length, 0, 'an id that would change the URL path is dropped');
  assert.equal(recordedBatchesOf(tree('batch_1', client.endpoint, 'a/b').run).length, 0);
});

test('a recorded batch matches only the endpoint, provider and model configured now, for hashes it holds', () => {
  const { run, hash } = tree('batch_1', client.endpoint);
  const recorded = recordedBatchesOf(run);
  assert.ok(matchRecordedBatch(recorded, client, [hash]));
  assert.equal(matchRecordedBatch(recorded, { ...client, endpoint: 'http://evil.example/v1' } as ModelClient, [hash]), undefined);
  assert.equal(matchRecordedBatch(recorded, { ...client, model: 'other' } as ModelClient, [hash]), undefined);
  assert.equal(matchRecordedBatch(recorded, client, [hash, providerBatchItemHash(client, 100, 'another prompt')]), undefined);
  const other = recordedBatchesOf(tree('batch_1', 'http://evil.example/v1').run);
  assert.equal(matchRecordedBatch(other, client, [hash]), undefined, "the record's endpoint is never the one used");
});

test('the turn to take up is the one whose batch never ended', () => {
  assert.equal(interruptedBatchTurn(tree('batch_1', client.endpoint).run), 1);
  assert.equal(interruptedBatchTurn(tree('batch_1', client.endpoint, 'q0-abc', true).run), undefined);
});

test('--batch and --batch-min', () => {
  assert.equal(parseBatchChoice({}), undefined);
  assert.deepEqual(parseBatchChoice({ batch: 'auto', 'batch-min': '5' }), { mode: 'auto', minPrompts: 5 });
  assert.deepEqual(parseBatchChoice({ batch: 'always' }), { mode: 'always', minPrompts: 20 });
  assert.throws(() => parseBatchChoice({ batch: 'sometimes' }), /--batch must be off, auto or always/);
  assert.throws(() => parseBatchChoice({ batch: 'always', 'batch-min': '5' }), /--batch-min applies to --batch auto/);
});
