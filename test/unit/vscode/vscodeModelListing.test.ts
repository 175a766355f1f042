// The model setup's list of VS Code models, through a stand-in vscode.lm: ids with their display
// names, "included in your plan" as the price (never $0.00), and a plain sentence when there are none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listVscodeModels, NO_VSCODE_MODELS } from '../../../src/vscode/models/vscodeModelListing';
import type { LmSurface } from '../../../src/vscode/models/lmSurface';
import { FakeChatModel, FakeLm } from '../../fakes/fakeLanguageModels';

const answer = (): { fragments: string[] } => ({ fragments: ['OK'] });

test('lists every model VS Code offers, named, at "included in your plan"', async () => {
  const lm = new FakeLm([new FakeChatModel('gpt-4o', 'gpt-4o', answer, 'copilot', 128_000, 'GPT-4o'), new FakeChatModel('rlm-test-model', 'rlm-test-family', answer, 'rlm-test', 1000, 'rlm-test-model')]);
  const listed = await listVscodeModels(lm);
  assert.deepEqual(listed, {
    ok: true,
    models: [
      { id: 'gpt-4o', label: 'GPT-4o · copilot', price: 'included in your plan' },
      { id: 'rlm-test-model', label: 'rlm-test', price: 'included in your plan' },
    ],
  });
  assert.ok(listed.ok && listed.models.every((m) => !m.price.includes('$')));
});

test('no model, or a failing API, is a sentence saying what to do', async () => {
  assert.deepEqual(await listVscodeModels(new FakeLm([])), { ok: false, reason: NO_VSCODE_MODELS });
  const broken: LmSurface = {
    selectChatModels: () => Promise.reject(new Error('lm is not ready')),
    createCancellation: () => new FakeLm([]).createCancellation(),
  };
  const result = await listVscodeModels(broken);
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.reason, /could not list its language models \(lm is not ready\)/);
});
