// A recorded run's provider batches as the trajectory view and `rlm show` show them: one still waiting
// (its counts and elapsed time, and when that was measured so a live view can count on), one cancelled
// by Stop ("N already run and billed"), one the provider failed as a whole (its own reason).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { summarizeTrajectory } from '../../../../src/core/trajectory/trajectorySummary';
import { formatSummary } from '../../../../src/cli/commands/show';
import { cellView } from '../../../../src/vscode/trajectory/runProjection';
import { describeProviderBatch, providerBatchDiscountText } from '../../../../src/shared/text/providerBatchText';

const FIXTURE = resolve(__dirname, '../../../fixtures/trajectories/sample.rlm.jsonl');
const counts = (total: number, succeeded: number, errored: number, canceled: number, processing: number) => ({ total, succeeded, errored, expired: 0, canceled, processing });
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ customId: `q${i}-abc`, promptHash: `${i}`.padStart(32, '0') }));

/** The sample run with three provider batches in its first cell, every seq renumbered after them. */
function withBatches(dir: string): string {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const at = lines.findIndex((l) => l.type === 'cell.started' && l.cellId === 'run-1-c1');
  const ts = lines[at]!.ts as number;
  const base = { runId: 'run-1', seq: 0 };
  const added = [
    { ...base, type: 'batch.submitted', cellId: 'run-1-c1', batchId: 'b1', provider: 'openai', endpoint: 'https://api.openai.com/v1', model: 'm', providerBatchId: 'batch_wait', items: items(10), ts: ts + 1 },
    { ...base, type: 'batch.progress', batchId: 'b1', providerBatchId: 'batch_wait', status: 'in_progress', counts: counts(10, 3, 0, 0, 7), elapsedMs: 65_000, ts: ts + 65_001 },
    { ...base, type: 'batch.submitted', cellId: 'run-1-c1', batchId: 'b2', provider: 'anthropic', endpoint: 'https://api.anthropic.com', model: 'm', providerBatchId: 'msgbatch_stop', items: items(40), ts: ts + 2 },
    { ...base, type: 'batch.ended', batchId: 'b2', providerBatchId: 'msgbatch_stop', status: 'canceling', counts: counts(40, 4, 0, 36, 0), elapsedMs: 9_000, cancelled: true, ts: ts + 9_002 },
    { ...base, type: 'batch.submitted', cellId: 'run-1-c1', batchId: 'b3', provider: 'openai', endpoint: 'https://api.openai.com/v1', model: 'm', providerBatchId: 'batch_failed', items: items(2), ts: ts + 3 },
    { ...base, type: 'batch.ended', batchId: 'b3', providerBatchId: 'batch_failed', status: 'failed', counts: counts(2, 0, 2, 0, 0), elapsedMs: 1_000, failure: 'invalid_request: model m is not available for batches (line 1)', ts: ts + 1_003 },
  ];
  lines.splice(at + 1, 0, ...added);
  let seq = 0;
  for (const line of lines) if ('seq' in line) line.seq = ++seq;
  const file = join(dir, 'batches.rlm.jsonl');
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

test('the cell view carries each provider batch: waiting, cancelled with what was billed, failed with its reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-batch-view-'));
  try {
    const read = await readTrajectory(withBatches(dir));
    assert.deepEqual(read.problems, []);
    const cell = read.tree!.turns[0]!.cells[0]!;
    const view = cellView(cell, undefined);
    const [waiting, stopped, failed] = view.providerBatches ?? [];
    assert.ok(waiting && stopped && failed);
    assert.deepEqual({ ended: waiting.ended, counts: waiting.counts, elapsedMs: waiting.elapsedMs }, { ended: false, counts: counts(10, 3, 0, 0, 7), elapsedMs: 65_000 });
    assert.equal(waiting.updatedAt, cell.startedAt + 65_001, 'measured at the last poll');
    assert.ok(!('items' in waiting) && !('endpoint' in waiting), 'prompt hashes and the endpoint stay in the host');
    assert.equal(describeProviderBatch(waiting), 'OpenAI batch batch_wait: 3 of 10 requests done; waiting (in_progress), 1 min 5 s so far');
    // A live view adds the time since the last poll.
    assert.match(describeProviderBatch({ ...waiting, elapsedMs: waiting.elapsedMs + 30_000 }), /1 min 35 s so far$/);
    assert.equal(describeProviderBatch(stopped), 'Anthropic message batch msgbatch_stop: 4 of 40 requests done, 36 cancelled; cancelled after 9.0 s; 4 already run and billed at the batch price');
    assert.equal(describeProviderBatch(failed), 'OpenAI batch batch_failed: 2 of 2 requests done, 2 failed; ended (failed) after 1.0 s: invalid_request: model m is not available for batches (line 1)');
    assert.match(providerBatchDiscountText('anthropic'), /half the ordinary price on Anthropic's Message Batches/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('`rlm show` lists the provider batches', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-batch-show-'));
  try {
    const file = withBatches(dir);
    const text = formatSummary(file, await summarizeTrajectory(file), 10);
    assert.match(text, /\nBatches: {4}OpenAI batch batch_wait: 3 of 10 requests done; waiting \(in_progress\), 1 min 5 s so far\n {12}Anthropic message batch msgbatch_stop: .*4 already run and billed at the batch price\n {12}OpenAI batch batch_failed: .*ended \(failed\) after 1\.0 s: invalid_request: model m is not available/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
