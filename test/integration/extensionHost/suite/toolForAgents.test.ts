// The rlm_ask language model tool in the real VS Code: invoked through vscode.lm.invokeTool as an
// agent would, on the fake VS Code model (no RLM model configured, so the tool falls back to the
// model VS Code offers). Checks the answer and its references, the run listed in History as asked by
// an agent, the confirmation text prepareInvocation gives, refusals of paths out of the workspace,
// and that cancelling the invocation stops the run.
// Named to run after chatPrewarm.test.ts (the suite runs its files in name order): a tool run starts
// the REPL pool, and that test checks the chat is what starts it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RlmAskTool } from '../../../../src/vscode/agentTool/rlmAskTool';
import { listHistory } from '../../../../src/vscode/history/historyIndex';
import { folderUri, rlmApi as api, setRlm } from './suiteHelpers';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function invoke(input: object, token?: vscode.CancellationToken, tokenBudget?: number): Promise<string> {
  const options = { input, toolInvocationToken: undefined, ...(tokenBudget ? { tokenizationOptions: { tokenBudget, countTokens: async (t: string) => Math.ceil(t.length / 4) } } : {}) };
  return textOf(await vscode.lm.invokeTool('rlm_ask', options, token));
}

describe('the rlm_ask language model tool', function () {
  this.timeout(240_000);

  before(async () => {
    // No RLM model: the tool uses the model VS Code offers (the fake provider). No confirmation dialog
    // for invokeTool outside a chat (its text is checked through prepareInvocation below).
    await setRlm({ 'root.provider': undefined, 'root.model': undefined, 'root.baseUrl': undefined, trajectoriesInWorkspace: true, 'agentTool.confirm': false });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folderUri(), 'agent', 'ten.txt'), new TextEncoder().encode('zero\nthe start\ntwo\nthree\n'));
  });
  after(async () => {
    await setRlm({ trajectoriesInWorkspace: undefined, 'agentTool.confirm': undefined });
  });

  it('is registered with its reference name and input schema', async () => {
    await api();
    const tool = vscode.lm.tools.find((t) => t.name === 'rlm_ask');
    assert.ok(tool, `rlm_ask among ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['question']);
  });

  it('answers through vscode.lm.invokeTool with the answer, its path:line reference, figures and History marked as an agent\'s', async () => {
    const { services } = await api();
    const question = `Where does it start? cite agent/ten.txt:2 ${Date.now()}`;
    const text = await invoke({ question, paths: ['agent/ten.txt'] });
    assert.match(text, /^It starts at agent\/ten\.txt:2\./, text);
    assert.match(text, /References:\n- agent\/ten\.txt:2: the start/, text);
    assert.match(text, /RLM: 2 turns, 1 sub-call, .*included in your plan.*trajectory: /, text);
    const history = await listHistory(services.trajectoryDirectory());
    const entry = history.find((h) => h.question === question);
    assert.ok(entry, 'the run is in History');
    assert.equal(entry.status, 'completed');
    assert.equal(entry.askedBy, 'an agent (chat tool)');
  });

  it('fits the result to the caller\'s token budget', async () => {
    const question = `Where does it start? cite agent/ten.txt:2 ${Date.now()}`;
    const text = await invoke({ question, paths: ['agent'] }, undefined, 60);
    // The figures line (with the trajectory's path) is kept whole; the answer and references are what give way.
    assert.doesNotMatch(text, /References:/, text);
    assert.match(text, /^…\n\nRLM: 2 turns, .*cut to fit; the trajectory holds it whole; trajectory: /, text);
  });

  it('says in the confirmation what will be read and the cost limit', async () => {
    const { services } = await api();
    await setRlm({ 'agentTool.confirm': undefined });
    try {
      const tool = new RlmAskTool(services);
      const prepared = await tool.prepareInvocation({ input: { question: 'How many lines?', paths: ['agent/ten.txt'] } });
      assert.equal(prepared.confirmationMessages?.title, 'Run RLM on these files?');
      const message = prepared.confirmationMessages?.message;
      const body = typeof message === 'string' ? message : (message?.value ?? '');
      assert.match(body, /Question: How many lines\?/);
      assert.match(body, /Reads 1 file \(25 B\) from agent\/ten\.txt, bound whole into the sandbox\. Stops at \$0\.50 or 5 min 0 s, whichever comes first\./);
      const refused = await tool.prepareInvocation({ input: { question: 'q', paths: ['../outside'] } });
      assert.equal(refused.confirmationMessages, undefined);
      assert.match(String(refused.invocationMessage), /climbs out with "\.\."/);
    } finally {
      await setRlm({ 'agentTool.confirm': false });
    }
  });

  it('refuses a path out of the workspace with a sentence the agent can act on', async () => {
    assert.match(await invoke({ question: 'q', paths: ['../secret'] }), /climbs out with "\.\."/);
    assert.match(await invoke({ question: 'q', paths: ['/etc/passwd'] }), /is outside the folder RLM serves/);
    assert.match(await invoke({ question: 'q', paths: ['agent/*.nothing'] }), /matches no readable text file/);
  });

  it('stops the run when the invocation is cancelled', async () => {
    const { services } = await api();
    const question = `Count them slowly ${Date.now()}`;
    const source = new vscode.CancellationTokenSource();
    const call = invoke({ question, paths: ['agent/ten.txt'] }, source.token).then(
      (text) => ({ text }),
      (error: unknown) => ({ error }),
    );
    const run = await (async () => {
      for (let i = 0; i < 400; i++) {
        const found = services.registry.active().find((r) => r.question === question);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail('the run did not start');
    })();
    source.cancel();
    const ended = await call;
    const result = await run.result;
    assert.equal(result.status, 'cancelled');
    if ('text' in ended) assert.match(ended.text, /stopped/);
  });
});
