// Test-only extension: registers a fake language model through VS Code 1.100's proposed
// lm.registerChatModelProvider (code-server enables proposals without a flag; CHAT-FACTS.md), so the
// extension under test can be driven through the real Language Model API. It plays a scripted RLM
// policy: the first root turn writes a cell that reads `context` and makes one sub-call, the next turn
// answers FINAL_VAR(result) (or, asked to "cite path:line", a FINAL answer citing it); sub-calls
// (prompts starting "SUBCALL:") are answered in a few fragments.
// It also registers a default chat participant, without which the Chat view does not exist here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS test extension, loaded unbundled
const vscode = require('vscode');

/** Every request, as { messages: [{ role, text }] }, for the tests to inspect. */
const requests = [];

function textOf(message) {
  return (message.content ?? []).map((part) => (typeof part.value === 'string' ? part.value : '')).join('');
}

function reply(messages) {
  const last = messages.at(-1)?.text ?? '';
  if (/single word OK/.test(last)) return ['O', 'K'];
  if (messages.length === 1 && last.startsWith('SUBCALL:')) return ['hello ', 'from the ', 'fake model'];
  if (messages.some((m) => m.role === 'assistant')) {
    // A question ending "cite <path>:<line>" gets an answer citing that place, as the prompt asks models to.
    const cite = messages.map((m) => /\bcite (\S+:\d+(?:-\d+)?)/i.exec(m.text)?.[1]).find(Boolean);
    if (cite) return ['The place is known.\n', `FINAL("It starts at ${cite}.")`];
    return ['The count is printed above.\n', 'FINAL_VAR(result)'];
  }
  return ['```repl\n', 'greeting = llm_query("SUBCALL: say hello")\n', 'result = f"{len(context.splitlines())} lines"\n', 'print(result, greeting)\n', '```'];
}

function activate(context) {
  const provider = {
    async provideLanguageModelResponse(messages, _options, _extensionId, progress, token) {
      const plain = messages.map((m) => ({ role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', text: textOf(m) }));
      requests.push({ messages: plain });
      // A question containing "slowly" keeps its run going for seconds (the queueing tests need that).
      const delayMs = plain.some((m) => /\bslowly\b/i.test(m.text)) ? 400 : 5;
      for (const fragment of reply(plain)) {
        if (token.isCancellationRequested) return;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        progress.report({ index: 0, part: new vscode.LanguageModelTextPart(fragment) });
      }
    },
    async provideTokenCount(text) {
      const value = typeof text === 'string' ? text : textOf(text);
      return value.split(/\s+/).filter(Boolean).length;
    },
  };
  context.subscriptions.push(
    vscode.lm.registerChatModelProvider('rlm-test-model', provider, {
      vendor: 'rlm-test',
      name: 'RLM Test Model',
      family: 'rlm-test-family',
      version: '1',
      maxInputTokens: 200000,
      maxOutputTokens: 8000,
      isDefault: true,
      isUserSelectable: true,
    }),
    vscode.chat.createChatParticipant('rlmTest.default', async (_request, _context, stream) => {
      stream.markdown('test default participant');
      return {};
    }),
    vscode.commands.registerCommand('rlmTest.languageModelRequests', () => requests),
  );
}

module.exports = { activate, deactivate() {} };
