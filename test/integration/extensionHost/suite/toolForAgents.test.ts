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
import { fakeRequests, folderUri, records, rlmApi as api, setRlm } from './suiteHelpers';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function invoke(input: object, token?: vscode.CancellationToken, tokenBudget?: number): Promise<string> {
  const options = { input, toolInvocationToken: undefined, ...(tokenBudget ? { tokenizationOptions: { tokenBudget, countTokens: async (t: string) => Math.ceil(t.length / 4) } } : {}) };
  return textOf(await vscode.lm.invokeTool('rlm_ask', options, token));
}

function fifty(): vscode.Uri {
  return vscode.Uri.joinPath(folderUri(), 'agent', 'fifty.txt');
}

/** Opens agent/fifty.txt with the given selections (0-based [startLine, endLine) pairs of whole lines). */
async function selectInFifty(...spans: Array<[number, number]>): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(fifty());
  editor.selections = spans.map(([start, end]) => new vscode.Selection(start, 0, end, 0));
  return editor;
}

describe('the rlm_ask language model tool', function () {
  this.timeout(240_000);

  before(async () => {
    // No RLM model: the tool uses the model VS Code offers (the fake provider). No confirmation dialog
    // for invokeTool outside a chat (its text is checked through prepareInvocation below).
    await setRlm({ 'root.provider': undefined, 'root.model': undefined, 'root.baseUrl': undefined, trajectoriesInWorkspace: true, 'agentTool.confirm': false });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folderUri(), 'agent', 'ten.txt'), new TextEncoder().encode('zero\nthe start\ntwo\nthree\n'));
    await vscode.workspace.fs.writeFile(fifty(), new TextEncoder().encode(Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join('\n')));
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

  it('says in the confirmation what will be read and the cost limit, where it can stop the run', async () => {
    const { services } = await api();
    await setRlm({ 'agentTool.confirm': undefined });
    try {
      const tool = new RlmAskTool(services);
      const prepared = await tool.prepareInvocation({ input: { question: 'How many lines?', paths: ['agent/ten.txt'] } });
      assert.equal(prepared.confirmationMessages?.title, 'Run RLM on these files?');
      const message = prepared.confirmationMessages?.message;
      const body = typeof message === 'string' ? message : (message?.value ?? '');
      assert.match(body, /Question: How many lines\?/);
      // No RLM model: the chat's model, on the user's plan, so only the time limit can stop the run.
      assert.match(body, /Reads 1 file \(25 B\) from agent\/ten\.txt, bound whole into the sandbox\. No per-token charge \(a VS Code chat model, included in your plan\)\. Stops at 5 min 0 s\./);
      const bodyOf = (p: vscode.PreparedToolInvocation): string => {
        const m = p.confirmationMessages?.message;
        return typeof m === 'string' ? m : (m?.value ?? '');
      };
      const input = { input: { question: 'How many lines?', paths: ['agent/ten.txt'] } };
      await setRlm({ 'root.provider': 'openai', 'root.model': 'gpt-4.1-mini', 'root.baseUrl': '', 'agentTool.maxCostUsd': 0.2 });
      assert.match(bodyOf(await tool.prepareInvocation(input)), /Stops at \$0\.20 or 5 min 0 s, whichever comes first\./, 'a priced model: the setting\'s cost limit');
      await setRlm({ 'root.model': 'house-model', 'root.baseUrl': 'https://llm.example.com/v1' });
      assert.match(
        bodyOf(await tool.prepareInvocation(input)),
        /Stops at 5 min 0 s\. The price of house-model is unknown, so its cost is not counted and the \$0\.20 cost limit cannot stop the run: set its price in rlm\.prices/,
      );
      const refused = await tool.prepareInvocation({ input: { question: 'q', paths: ['../outside'] } });
      assert.equal(refused.confirmationMessages, undefined);
      assert.match(String(refused.invocationMessage), /climbs out with "\.\."/);
    } finally {
      await setRlm({ 'agentTool.confirm': false, 'root.provider': undefined, 'root.model': undefined, 'root.baseUrl': undefined, 'agentTool.maxCostUsd': undefined });
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
  it('reads the active editor\'s selection at its own line numbers when asked with selection: true', async () => {
    const { services } = await api();
    await selectInFifty([19, 29]);
    const question = `Where does it start? cite agent/fifty.txt:24 ${Date.now()}`;
    const before = (await fakeRequests()).length;
    const text = await invoke({ question, selection: true });
    assert.match(text, /^It starts at agent\/fifty\.txt:24\./, text);
    assert.match(text, /References:\n- agent\/fifty\.txt:24: row 24\n/, text);
    const entry = (await listHistory(services.trajectoryDirectory())).find((h) => h.question === question);
    assert.ok(entry, 'the run is in History');
    assert.equal(entry.askedBy, 'an agent (chat tool)');
    const started = records(entry.path).find((r) => r.type === 'run.started') as { target?: { kind?: string; paths?: string[] } } | undefined;
    assert.deepEqual({ kind: started?.target?.kind, paths: started?.target?.paths }, { kind: 'selection', paths: ['agent/fifty.txt:20-29'] });
    // The fake root prints len(context.splitlines()): the lines before the selection are bound empty.
    const cell = records(entry.path).find((r) => r.type === 'cell.finished') as { stdout?: string } | undefined;
    assert.match(cell?.stdout ?? '', /^29 lines/);
    const sent = JSON.stringify((await fakeRequests()).slice(before));
    assert.doesNotMatch(sent, /row 5\b|row 30\b/, 'no line outside the selection reaches the model');
  });

  it('names the selection in the confirmation, several selections with their lines', async () => {
    const { services } = await api();
    await setRlm({ 'agentTool.confirm': undefined });
    try {
      const tool = new RlmAskTool(services);
      await selectInFifty([9, 20], [39, 49]);
      const prepared = await tool.prepareInvocation({ input: { question: 'What do these rows say?', selection: true } });
      assert.equal(prepared.confirmationMessages?.title, 'Run RLM on the selection?');
      const message = prepared.confirmationMessages?.message;
      const body = typeof message === 'string' ? message : (message?.value ?? '');
      assert.match(body, /Reads the 21 selected lines of agent\/fifty\.txt \(lines 10-20 and 40-49\): \d+ B, bound at their own line numbers so references point into the file\. No per-token charge \(a VS Code chat model, included in your plan\)\. Stops at 5 min 0 s\./, body);
      assert.equal(prepared.invocationMessage, 'Asking RLM about the 21 selected lines of agent/fifty.txt (lines 10-20 and 40-49)');
    } finally {
      await setRlm({ 'agentTool.confirm': false });
    }
  });

  it('reads the selection the confirmation showed, even if the user selects something else before Continue', async () => {
    const { services } = await api();
    const tool = new RlmAskTool(services);
    const input = { question: `Where does it start? cite agent/fifty.txt:24 ${Date.now()}`, selection: true };
    await selectInFifty([19, 29]);
    const prepared = await tool.prepareInvocation({ input });
    assert.match(String(prepared.invocationMessage), /the 10 selected lines of agent\/fifty\.txt \(lines 20-29\)/);
    await selectInFifty([0, 5]);
    const result = await tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    assert.match(textOf(result), /References:\n- agent\/fifty\.txt:24: row 24\n/, textOf(result));
    const entry = (await listHistory(services.trajectoryDirectory())).find((h) => h.question === input.question);
    assert.ok(entry, 'the run is in History');
    const started = records(entry.path).find((r) => r.type === 'run.started') as { target?: { paths?: string[] } } | undefined;
    assert.deepEqual(started?.target?.paths, ['agent/fifty.txt:20-29']);
  });

  it('says what to do when nothing is selected, no editor is open, or paths come with the selection', async () => {
    const editor = await selectInFifty();
    editor.selections = [new vscode.Selection(3, 2, 3, 2)];
    assert.match(await invoke({ question: 'q', selection: true }), /^Nothing is selected in agent\/fifty\.txt \(the active editor\): ask the user to select the lines they mean, or pass "agent\/fifty\.txt" in "paths"/);
    assert.match(await invoke({ question: 'q', selection: true, paths: ['agent'] }), /either "selection": true or "paths", not both/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.match(await invoke({ question: 'q', selection: true }), /^No text editor is open in VS Code, so there is no selection to read/);
  });

  it('reports turns and sub-calls through the progress VS Code passes to invoke', async () => {
    const { services } = await api();
    const reported: string[] = [];
    const source = new vscode.CancellationTokenSource();
    const result = await new RlmAskTool(services).invoke(
      { input: { question: `Where does it start? cite agent/ten.txt:2 ${Date.now()}`, paths: ['agent/ten.txt'] }, toolInvocationToken: undefined },
      source.token,
      { report: (step: { message?: string }) => reported.push(step.message ?? '') },
    );
    assert.match(textOf(result), /^It starts at agent\/ten\.txt:2\./);
    // Reported on the run's ticks (at most every 200 ms, and once at the end), so a fast turn 1 may be skipped.
    assert.ok(reported.length > 0 && reported.every((m) => /^RLM: turn [12], [01] sub-calls?, \S/.test(m)), reported.join(' | '));
    assert.match(reported.at(-1) ?? '', /^RLM: turn 2, 1 sub-call, /, reported.join(' | '));
    assert.equal(new Set(reported).size, reported.length, 'a message is reported once, when it changes');
  });
});
