import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { summarizeTrajectory } from '../../../../src/core/trajectory/trajectorySummary';

const fixtures = join(import.meta.dirname, '../../../fixtures/trajectories');

test('a reference log maps to turns, cells, outputs, sub-calls and the final answer', async () => {
  const read = await readTrajectory(join(fixtures, 'reference-basic.jsonl'));
  assert.equal(read.format, 'rlm-python-jsonl');
  assert.deepEqual(read.problems, []);
  const header = read.header!;
  assert.ok(header.format === 'rlm-python-jsonl');
  assert.equal(header.rootModel, 'gpt-5');
  assert.equal(header.maxIterations, 10);
  assert.equal(header.question, 'Which city is mentioned most often?');
  assert.equal((header.metadata.backend_kwargs as Record<string, unknown>).api_key, '[REDACTED]');
  const tree = read.tree!;
  assert.equal(tree.question, 'Which city is mentioned most often?');
  assert.equal(tree.status, 'completed');
  assert.equal(tree.answer, 'Paris');
  assert.equal(tree.turns.length, 3);
  const [t1, t2] = tree.turns;
  assert.equal(t1!.modelText, 'Let me look at the context first.\n```repl\nprint(len(context))\nprint(context[:100])\n```');
  assert.equal(t1!.cells[0]!.stdout, '52000\nParis, London, Paris...\n');
  assert.equal(t1!.cells[0]!.durationMs, 12);
  const call = t2!.cells[0]!.subCalls[0]!;
  assert.equal(call.kind, 'llm_query');
  assert.equal(call.model.model, 'gpt-5-mini');
  assert.equal(call.response, 'Paris: 12, London: 3');
  assert.deepEqual(call.usage, { inputTokens: 1200, outputTokens: 20, costUsd: 0.0004 });
  assert.equal(call.latencyMs, 1300);
  assert.equal(tree.totals.subCalls, 1);
  assert.equal(tree.totals.inputTokens, 1200);
  // Root turns record no usage in this format: the cost is a known lower bound.
  assert.equal(tree.totals.costUnknown, true);
  assert.ok(tree.totals.wallTimeMs >= 6000, `${tree.totals.wallTimeMs}`);
});

test('nested rlm_calls with their own iterations become child runs, two levels deep', async () => {
  const read = await readTrajectory(join(fixtures, 'reference-nested.jsonl'));
  assert.deepEqual(read.problems, []);
  const tree = read.tree!;
  assert.equal(tree.answer, 'done');
  const [depth1Call, leafCall] = tree.turns[0]!.cells[0]!.subCalls;
  assert.equal(depth1Call!.kind, 'rlm_query');
  assert.equal(leafCall!.kind, 'llm_query');
  const child = depth1Call!.child!;
  assert.equal(child.depth, 1);
  assert.equal(child.question, 'Depth-1 question');
  assert.equal(child.answer, 'depth-1 answer');
  assert.equal(child.status, 'completed');
  const grandChild = child.turns[0]!.cells[0]!.subCalls[0]!.child!;
  assert.equal(grandChild.depth, 2);
  assert.equal(grandChild.answer, 'depth-2 answer');
  assert.equal(grandChild.turns[0]!.cells[0]!.subCalls[0]!.response, 'leaf answer');
  // The reference's usage_summary of a nested call covers its whole child run: the root's total is
  // the depth-1 call's 500 plus the root's own leaf call's 100, with nothing counted twice.
  assert.equal(grandChild.totals.inputTokens, 100);
  assert.equal(depth1Call!.child!.turns[0]!.cells[0]!.subCalls[0]!.totals.inputTokens, 300);
  assert.equal(depth1Call!.totals.inputTokens, 500);
  assert.equal(tree.totals.inputTokens, 600);
  // Same for cost: the depth-1 call reported $0.0002 for its whole subtree, plus the root's leaf call.
  assert.ok(Math.abs(tree.totals.costUsd - 0.00021) < 1e-12, `${tree.totals.costUsd}`);
  assert.equal(tree.totals.subCalls, 4);
  const summary = await summarizeTrajectory(join(fixtures, 'reference-nested.jsonl'));
  assert.equal(summary.inputTokens, tree.totals.inputTokens);
  assert.equal(summary.subCalls, 4);
  assert.equal(summary.childRuns, 2);
});

test('older reference logs with missing fields still import; unknown entry types are kept', async () => {
  const read = await readTrajectory(join(fixtures, 'reference-old.jsonl'));
  const tree = read.tree!;
  assert.equal(tree.turns.length, 2);
  assert.deepEqual(tree.turns.map((t) => t.turn), [1, 2]);
  const call = tree.turns[0]!.cells[0]!.subCalls[0]!;
  assert.equal(call.prompt, 'user: hi');
  assert.deepEqual(call.usage, { inputTokens: 5, outputTokens: 2, costUsd: null });
  assert.equal(tree.turns[1]!.cells.length, 0);
  assert.equal(tree.status, 'incomplete');
  assert.deepEqual(read.unknownEvents.map((u) => u.line), [4]);
  assert.deepEqual(read.problems.map((p) => [p.line, p.kind]), [[4, 'unknown-event'], [3, 'missing-end']]);
});

test('a failed call in a reference log keeps its error, type and HTTP status', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-ref-'));
  try {
    const file = join(dir, 'rlm_failed.jsonl');
    const call = (extra: Record<string, unknown>) => ({ root_model: 'gpt-5-mini', prompt: 'q', response: '', usage_summary: { model_usage_summaries: {} }, execution_time: 0.2, ...extra });
    const lines = [
      { type: 'metadata', root_model: 'gpt-5', max_depth: 1, max_iterations: 5, backend: 'openai', backend_kwargs: {}, environment_type: 'local', environment_kwargs: {} },
      {
        type: 'iteration', iteration: 1, prompt: 'p', response: '```repl\nllm_query_batched(["a", "b"])\n```', final_answer: 'done', iteration_time: 1,
        code_blocks: [{ code: 'llm_query_batched(["a", "b"])', result: { stdout: '', stderr: '', locals: {}, execution_time: 0.3, rlm_calls: [
          call({ error: 'rate limited', error_type: 'RateLimitError', status_code: 429 }),
          call({ response: 'ok' }),
        ] } }],
      },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const read = await readTrajectory(file);
    const [failed, fine] = read.tree!.turns[0]!.cells[0]!.subCalls;
    assert.deepEqual(failed!.error, { kind: 'RateLimitError', message: 'rate limited (HTTP 429)' });
    assert.equal(fine!.error, undefined);
    assert.equal(fine!.response, 'ok');
    assert.equal(read.tree!.totals.errors, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
