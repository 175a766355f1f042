// The sentence an agent's run is confirmed with (VS Code) or announced by (rlm mcp's first progress
// message): the cost limit is promised only where it can stop the run. It counts known prices only,
// so a model with an unknown price is said to be uncounted, and a run on the user's plan or a local
// model is said to cost nothing per token.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costBasisOf, describeAgentSelection } from '../../../../src/core/agentAsk/agentPlanSummary';

const limits = { maxCostUsd: 0.5, maxWallTimeMs: 300_000 };
const remedy = 'set its price';

describe('the cost an agent\'s run is confirmed with', () => {
  it('tells priced, local, plan and unpriced models apart', () => {
    assert.deepEqual(costBasisOf([{ provider: 'openai', model: 'gpt-4.1-mini' }], remedy), { kind: 'priced' });
    assert.deepEqual(costBasisOf([{ provider: 'openai', model: 'llama3', baseUrl: 'http://localhost:11434/v1' }], remedy), { kind: 'free', why: 'a local model' });
    assert.deepEqual(costBasisOf([{ provider: 'vscode', model: 'copilot' }], remedy), { kind: 'free', why: 'included in your plan' });
    assert.deepEqual(costBasisOf([{ provider: 'openai', model: 'gpt-4.1-mini' }, { provider: 'openai', model: 'house-model', baseUrl: 'https://llm.example.com/v1' }], remedy), { kind: 'unpriced', models: ['house-model'], remedy });
    // A price the user set counts, wherever the model is served.
    assert.deepEqual(costBasisOf([{ provider: 'openai', model: 'house-model', baseUrl: 'https://llm.example.com/v1' }], remedy, { 'house-model': { inputPerMTok: 1, outputPerMTok: 2 } }), { kind: 'priced' });
    // A local root with a paid sub model is charged: the limit counts.
    assert.deepEqual(costBasisOf([{ provider: 'openai', model: 'llama3', baseUrl: 'http://127.0.0.1:1/v1' }, { provider: 'openai', model: 'gpt-4.1-mini' }], remedy), { kind: 'priced' });
  });

  it('names the cost limit only where it can stop the run', () => {
    const what = 'the 3 selected lines of a.ts (lines 1-3)';
    assert.match(describeAgentSelection(what, 30, limits, { kind: 'priced' }), / Stops at \$0\.50 or 5 min 0 s, whichever comes first\.$/);
    assert.match(describeAgentSelection(what, 30, limits, { kind: 'free', why: 'included in your plan' }), / No per-token charge \(included in your plan\)\. Stops at 5 min 0 s\.$/);
    assert.match(
      describeAgentSelection(what, 30, limits, { kind: 'unpriced', models: ['house-model'], remedy }),
      / Stops at 5 min 0 s\. The price of house-model is unknown, so its cost is not counted and the \$0\.50 cost limit cannot stop the run: set its price\.$/,
    );
  });
});
