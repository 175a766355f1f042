import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownReport, planMismatch, suiteScores, summaryText } from '../../../src/cli/eval/evalResults';
import type { EvalPlanRecord, EvalResultsFile, TaskResult } from '../../../src/cli/eval/evalTypes';
import { ProgressBar } from '../../../src/cli/eval/progressBar';

const plan: EvalPlanRecord = {
  suites: ['niah', 'oolong'],
  lengths: [32_000],
  modes: ['rlm'],
  tasksPerLength: 2,
  seed: 1,
  scripted: false,
  root: { provider: 'openai', model: 'm-root' },
  sub: { provider: 'openai', model: 'm-sub' },
};

function result(id: string, score: number, extra: Partial<TaskResult> = {}): TaskResult {
  return {
    id, suite: id.startsWith('niah') ? 'niah' : 'oolong', lengthTokens: 32_000, mode: 'rlm', score, status: 'completed', answer: 'x', expected: 'x',
    inputTokens: 100, outputTokens: 10, costUsd: 0.0012, wallTimeMs: 2500, subCalls: 3, iterations: 4, contextChars: 128_000, trajectory: 't', scripted: false, ...extra,
  };
}

const data: EvalResultsFile = {
  version: 1, label: 'model', plan, startedAt: 's', updatedAt: 'u', complete: true,
  results: [result('niah-32k-0', 1), result('niah-32k-1', 0), result('oolong-32k-0', 0.75, { costUsd: null, status: 'limit', error: 'iterations: limit | hit' })],
};

test('suite scores are mean percentages per suite and mode', () => {
  assert.deepEqual(suiteScores(data.results).map((s) => [s.suite, s.mode, s.percent, s.tasks]), [['niah', 'rlm', 50, 2], ['oolong', 'rlm', 75, 1]]);
  assert.match(summaryText(data), /root m-root, sub m-sub/);
  assert.match(summaryText(data), /niah\s+rlm\s+50\.0%\s+\(2 tasks\)/);
});

test('the Markdown table has every column, unknown costs shown as unknown, and escaped notes', () => {
  const md = markdownReport(data);
  assert.match(md, /\| Task \| Length \| Mode \| Score \| Input tok \| Cached tok \| Output tok \| Cost \| Saved \| Wall time \| Sub-calls \| Iterations \| Note \|/);
  assert.match(md, /\| niah-32k-0 \| 32k \| rlm \| 1\.000 \| 100 \| 0 \| 10 \| \$0\.0012 \| \$0\.0000 \| 2\.5 s \| 3 \| 4 \| {2}\|/);
  assert.doesNotMatch(md, /Prompt caching served/, 'no cache line when nothing was cached');
  assert.match(md, /\| oolong-32k-0 \| .* \| unknown \| .* \| limit; iterations: limit \/ hit \|/);
});

test('cached input and what it saved are shown per task and in all', () => {
  const cachedData = { ...data, results: data.results.map((r, i) => (i === 0 ? { ...r, cacheReadTokens: 9000, savedUsd: 0.0081 } : r)) };
  const md = markdownReport(cachedData);
  assert.match(md, /Prompt caching served 9,000 input tokens at the cache rate, saving \$0\.0081\./);
  assert.match(md, /\| niah-32k-0 \| 32k \| rlm \| 1\.000 \| 100 \| 9000 \| 10 \| \$0\.0012 \| \$0\.0081 \|/);
});

test('resume refuses a different plan and names the difference', () => {
  assert.equal(planMismatch(plan, { ...plan }), undefined);
  assert.match(planMismatch(plan, { ...plan, lengths: [1_000_000] })!, /lengths differs/);
  assert.match(planMismatch(plan, { ...plan, root: { provider: 'openai', model: 'other' } })!, /root model differs/);
});

test('the progress bar redraws one line on a terminal and prints one line per task otherwise', () => {
  let tty = '';
  const bar = new ProgressBar({ write: (t: string) => (tty += t), isTTY: true }, 4, 0, () => 61_000);
  bar.working(0, 'niah-32k-0 rlm');
  bar.finished(1, 'niah-32k-0 rlm', 'score 1.00');
  bar.stop();
  assert.match(tty, /^\r\[\.{24}\] 0\/4 1:01 niah-32k-0 rlm\r\[#{6}\.{18}\] 1\/4 1:01 niah-32k-0 rlm score 1\.00\n$/);
  let plain = '';
  const quiet = new ProgressBar({ write: (t: string) => (plain += t) }, 2, 0, () => 0);
  quiet.working(0, 'a');
  quiet.finished(1, 'a', 'score 0.00');
  quiet.stop();
  assert.equal(plain, '[############............] 1/2 0:00 a score 0.00\n');
});
