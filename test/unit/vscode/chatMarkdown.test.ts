// The @rlm chat's answers, partial findings, errors and progress lines: escape sequences from a cell
// or a model (a terminal hyperlink, colour codes) show as text, never as a link or styling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerMarkdown, errorMarkdown, partialFindingsMarkdown, progressText } from '../../../src/vscode/chat/chatMarkdown';

const ESC = '\u001b';
const OSC8_ST = `${ESC}]8;;http://evil.example/steal${ESC}\\the docs${ESC}]8;;${ESC}\\`;
const OSC8_BEL = `${ESC}]8;;https://evil.example/steal\u0007the docs${ESC}]8;;\u0007`;
// eslint-disable-next-line no-control-regex -- no raw control character may reach the chat
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

test('a terminal hyperlink in an answer, ST or BEL form, shows as its escape text', () => {
  for (const link of [OSC8_ST, OSC8_BEL]) {
    const md = answerMarkdown(`See ${link} for more.`);
    assert.doesNotMatch(md, RAW);
    assert.match(md, /\\x1b\]8;;https?:\/\/evil\.example\/steal/);
  }
});

test("an answer keeps its formatting and safe links, as docs/untrusted-text.md promises; others are text", () => {
  const md = answerMarkdown('# Findings\n\n- **one** [docs](https://example.com/a)\n- [run](command:workbench.action.terminal.new) ![x](https://evil.example/p.png) <b>x</b>');
  assert.match(md, /^# Findings/m);
  assert.match(md, /\[docs\]\(https:\/\/example\.com\/a\)/);
  assert.match(md, /\\\[run\\\]\\\(command:/);
  assert.match(md, /\\!\\\[x\\\]/);
  assert.match(md, /&lt;b&gt;x&lt;\/b&gt;/);
});

test('partial findings are a cell output: a code block, where nothing is linked', () => {
  const md = partialFindingsMarkdown(`found http://evil.example/bare and ${OSC8_BEL}\n\`\`\`\nbreakout`);
  assert.doesNotMatch(md, RAW);
  const fence = /\n(`{3,})text\n([^]*)\n\1$/.exec(md);
  assert.ok(fence, md);
  assert.ok(fence[1]!.length > 3, 'the fence is longer than any run of backticks inside');
  assert.match(fence[2]!, /http:\/\/evil\.example\/bare/);
});

test('errors and progress lines carry no raw escapes', () => {
  assert.doesNotMatch(errorMarkdown(`the server said ${OSC8_ST} ${ESC}[2J`), RAW);
  assert.equal(progressText(`Cell 2: ${ESC}[31mred${ESC}[0m`), 'Cell 2: \\x1b[31mred\\x1b[0m');
});
