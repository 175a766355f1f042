// The result an agent receives is small whatever the input: the answer, clipped references, one line
// of figures and the trajectory, cut to the caller's token budget; a run without an answer says why.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { agentAnswerOf, renderAgentAnswer } from '../../../../src/core/agentAsk/agentResult';
import type { RunResult } from '../../../../src/core/loop/loopTypes';

function result(over: Partial<RunResult> = {}): RunResult {
  return {
    runId: 'run-1',
    status: 'completed',
    answer: 'The key is read at src/app.ts:42.',
    forced: false,
    references: [{ path: 'src/app.ts', line: 42, endLine: 43, text: 'const key = env.KEY;\nuse(key);' }],
    unresolvedReferences: [],
    totals: { inputTokens: 12000, outputTokens: 300, costUsd: 0.0123, costUnknown: false, subCalls: 4, iterations: 3, wallTimeMs: 8200 },
    ...over,
  };
}

describe('agentAnswerOf', () => {
  it('gives the answer, its references with endLine, the figures and the trajectory', () => {
    const shaped = agentAnswerOf(result(), '/w/.rlm/runs/r.rlm.jsonl');
    assert.equal(shaped.status, 'completed');
    assert.deepEqual(shaped.references, [{ path: 'src/app.ts', line: 42, endLine: 43, text: 'const key = env.KEY; ⏎ use(key);' }]);
    assert.deepEqual(shaped.figures, { turns: 3, subCalls: 4, inputTokens: 12000, outputTokens: 300, costUsd: 0.0123, costUnknown: false, cost: '$0.01', wallTimeMs: 8200 });
    assert.equal(shaped.truncated, false);
    const text = renderAgentAnswer(shaped);
    assert.match(text, /^The key is read at src\/app\.ts:42\.\n\nReferences:\n- src\/app\.ts:42-43: const key = env\.KEY; ⏎ use\(key\);\n\nRLM: 3 turns, 4 sub-calls, 12k tokens, \$0\.01, 8\.2 s; trajectory: \/w\/\.rlm\/runs\/r\.rlm\.jsonl$/);
  });

  it('cuts references, then the answer, to the token budget, and says so', () => {
    const references = Array.from({ length: 40 }, (_, i) => ({ path: `src/f${i}.ts`, line: i + 1, text: 'x'.repeat(500) }));
    const big = result({ answer: 'word '.repeat(5000), references });
    const shaped = agentAnswerOf(big, 't.rlm.jsonl', 300);
    const text = renderAgentAnswer(shaped);
    assert.ok(text.length <= 300 * 4, `${text.length} chars`);
    assert.equal(shaped.truncated, true);
    assert.equal(shaped.references.length, 0);
    assert.match(text, /cut to fit; the trajectory holds it whole; trajectory: t\.rlm\.jsonl$/);
    const roomy = agentAnswerOf(result({ references }), 't', 4000);
    assert.ok(roomy.references.length > 0 && roomy.references.every((r) => r.text.length <= 160));
  });

  it('says why there is no answer and keeps the partial findings apart', () => {
    const shaped = agentAnswerOf(result({ status: 'limit', forced: false, error: { kind: 'limit', message: 'the cost limit of $0.50 was reached', limit: 'costUsd' }, partial: 'found 3 of 5', references: [] }), undefined);
    assert.equal(shaped.answer, undefined);
    const text = renderAgentAnswer(shaped);
    assert.match(text, /^No answer \(limit\): the cost limit of \$0\.50 was reached\n\nPartial findings \(the run's last output, not an answer\):\nfound 3 of 5/);
  });
});

describe('agentAnswerOf: cost in the same words as every other surface', () => {
  const totals = (over: object) => ({ inputTokens: 1000, outputTokens: 100, costUsd: 0, costUnknown: false, subCalls: 1, iterations: 2, wallTimeMs: 900, ...over });
  const figuresOf = (over: object, local = false) =>
    agentAnswerOf({ status: 'completed', forced: false, answer: 'ok', references: [], totals: totals(over) } as unknown as Parameters<typeof agentAnswerOf>[0], undefined, undefined, local).figures.cost;

  it('never "$0.00": a local server, an unknown price, the user\'s plan', () => {
    assert.equal(figuresOf({}, true), 'local (no charge)');
    assert.equal(figuresOf({ costUsd: null, costUnknown: true }), 'price unknown');
    assert.equal(figuresOf({ includedInPlan: true }), 'included in your plan');
    assert.equal(figuresOf({ costUsd: 0.25 }), '$0.25');
  });
});
