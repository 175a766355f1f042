// Calls paid by the user's plan (VS Code language models) add no cost but mark the totals, up the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageMeter } from '../../../../src/core/loop/usageMeter';

test('a plan-paid call marks the run and its ancestors as included in the plan, at no cost', () => {
  const root = new UsageMeter(0);
  const child = new UsageMeter(0, root);
  assert.equal(root.totals(1).includedInPlan, undefined);
  child.addUsage({ inputTokens: 10, outputTokens: 2, costUsd: 0, includedInPlan: true });
  root.addUsage({ inputTokens: 5, outputTokens: 1, costUsd: 0.5 });
  assert.equal(root.totals(1).includedInPlan, true);
  assert.equal(root.totals(1).costUsd, 0.5);
  assert.equal(root.totals(1).costUnknown, false);
  assert.equal(child.totals(1).includedInPlan, true);
});
