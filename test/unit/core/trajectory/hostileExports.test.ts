// Exports of a run whose model and file text is hostile: the Markdown report and the notebook must stay
// inert wherever they are opened (a Markdown preview, GitHub, Jupyter, VS Code's notebook editor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toMarkdown } from '../../../../src/core/trajectory/exportMarkdown';
import { toNotebook } from '../../../../src/core/trajectory/exportIpynb';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import type { RunNode } from '../../../../src/core/trajectory/treeTypes';
import type { EventRecord, RunEvent } from '../../../../src/core/trajectory/events';
import { markdownText, visibleControls } from '../../../../src/shared/text/untrustedText';
import { allLayersOn } from '../../../fakes/fakeProtections';

const ESC = '\u001b';
const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<iframe src="javascript:alert(3)"></iframe>',
  '[click me](javascript:alert(4))',
  '[data](data:text/html;base64,PHNjcmlwdD4=)',
  '![tracker](https://evil.example/pixel.png)',
  '[ref]: javascript:alert(5)',
  `${ESC}]0;owned${'\u0007'} ${ESC}[2J ${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}[1A`,
  // The BEL-terminated terminal hyperlink, and a bare URL in the same line.
  `${ESC}]8;;http://evil.example/bel\u0007bel-link${ESC}]8;;\u0007 http://evil.example/bare`,
  '\u202eevil',
  '```',
  '# Fake heading after a fence',
  '```',
  '[fine](https://example.com/ok)',
].join('\n');

function hostileRun(): RunNode {
  let seq = 0;
  const at = (event: RunEvent): EventRecord => ({ ...event, seq: ++seq, ts: 1000 + seq } as EventRecord);
  const context = { type: 'str' as const, totalChars: 1, totalBytes: 1, fileCount: 1, prefix: HOSTILE, files: [], filesOmitted: 0, invalidUtf8Replacements: 0 };
  const config = { root: { provider: 'openai' as const, model: 'm' }, sub: { provider: 'openai' as const, model: 'm' }, maxIterations: 3, maxDepth: 1, maxSubCalls: 5, maxConsecutiveErrors: 3, cellTimeoutMs: 1, subCallTimeoutMs: 1, subCallMaxTokens: 1, subCallConcurrency: 1, observationMaxChars: 1, outputCaptureMaxChars: 1 };
  const events: EventRecord[] = [
    at({ type: 'run.started', runId: 'r', depth: 0, question: `Q ${HOSTILE}`, context, config, protections: allLayersOn() }),
    at({ type: 'turn.started', runId: 'r', turn: 1 }),
    at({ type: 'model.output', runId: 'r', turn: 1, text: `Thinking ${HOSTILE}\n\`\`\`repl\nprint(1)\n\`\`\``, usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 }, latencyMs: 1, finishReason: 'stop', requestBytes: 1 }),
    at({ type: 'protocol.notice', runId: 'r', turn: 1, kind: 'extra-code-blocks', message: HOSTILE }),
    at({ type: 'cell.started', runId: 'r', turn: 1, cellId: 'c', code: `print(1)\n# ${HOSTILE}` }),
    at({ type: 'subcall.started', runId: 'r', callId: 's', cellId: 'c', kind: 'llm_query', depth: 1, model: { provider: 'openai', model: 'm' }, prompt: HOSTILE }),
    at({ type: 'subcall.finished', runId: 'r', callId: 's', response: HOSTILE, usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 }, latencyMs: 1 }),
    at({ type: 'cell.finished', runId: 'r', cellId: 'c', stdout: HOSTILE, stderr: HOSTILE, stdoutChars: HOSTILE.length, stderrChars: HOSTILE.length, error: { type: 'ValueError', message: HOSTILE, traceback: HOSTILE }, newVariables: [], durationMs: 1, outIndex: 1 }),
    at({ type: 'answer', runId: 'r', text: `Answer ${HOSTILE}`, forced: false, via: 'FINAL' }),
    at({ type: 'run.finished', runId: 'r', status: 'completed', answer: `Answer ${HOSTILE}`, forced: false, totals: { inputTokens: 1, outputTokens: 1, costUsd: 0, costUnknown: false, subCalls: 1, iterations: 1, wallTimeMs: 1 } }),
  ];
  const builder = new TreeBuilder();
  for (const e of events) builder.apply(e);
  return builder.tree!;
}

/** Markdown outside fenced blocks and code spans: where a renderer would interpret it. */
function proseOf(markdown: string): string {
  const lines = markdown.split('\n');
  const prose: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1]!.startsWith(fence[0]!) && m[1]!.length >= fence.length && line.trim() === m[1]) fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1];
      continue;
    }
    // Code spans: a run of N backticks up to the next run of exactly N.
    prose.push(line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ''));
  }
  return prose.join('\n');
}

function assertInert(markdown: string, where: string): void {
  assert.ok(!markdown.includes(ESC), `${where}: a raw ESC byte`);
  assert.ok(!markdown.includes('\u0007') && !markdown.includes('\u202e'), `${where}: raw control characters`);
  const prose = proseOf(markdown);
  assert.doesNotMatch(prose, /<(script|img|iframe)/i, `${where}: raw HTML`);
  assert.doesNotMatch(prose, /(?<!\\)\]\(\s*(javascript|data):/i, `${where}: a link to another scheme`);
  assert.doesNotMatch(prose, /(?<!\\)!\[[^\]]*(?<!\\)\]\(/, `${where}: an image`);
  assert.doesNotMatch(prose, /^ {0,3}\[ref\]: javascript/m, `${where}: a reference definition`);
  assert.doesNotMatch(prose, /^# Fake heading/m, `${where}: a fence broke out and made a heading`);
}

test('the Markdown report escapes HTML, neutralises links and images, keeps fences closed and shows control characters', () => {
  const md = toMarkdown(hostileRun());
  assertInert(md, 'report');
  assert.match(md, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'HTML is shown as text');
  assert.match(md, /\\\[click me\\\]\\\(javascript:alert/, 'the link is shown as text');
  assert.match(md, /\[fine\]\(https:\/\/example\.com\/ok\)/, 'an https link is kept');
  assert.match(md, /\\x1b\]0;owned\\x07/, 'control characters are visible');
  assert.match(md, /\\u202eevil/);
});

test('the notebook has no kernel, says where its code came from, and its markdown and outputs are inert', () => {
  const nb = toNotebook(hostileRun());
  assert.equal(nb.metadata.kernelspec, undefined);
  assert.match(nb.cells[0]!.source.join(''), /Do not run these cells on your machine[\s\S]*sandbox[\s\S]*`context`[\s\S]*`llm_query`/);
  for (const cell of nb.cells.filter((c) => c.cell_type === 'markdown')) assertInert(cell.source.join(''), `markdown cell ${cell.id}`);
  const code = nb.cells.find((c) => c.cell_type === 'code')!;
  assert.ok(code.source.join('').includes('<script>'), 'the code itself stays faithful (it is shown as code, not run)');
  for (const output of code.outputs ?? []) {
    const text = [...(output.text ?? []), output.evalue ?? '', ...(output.traceback ?? [])].join('');
    assert.ok(!text.includes(ESC) && !text.includes('\u202e'), `an output (${output.output_type}) keeps raw control characters`);
  }
});

test('visibleControls keeps newlines and tabs, and markdownText keeps emphasis and lists', () => {
  assert.equal(visibleControls('a\tb\nc\r\nd\re\u0000\u009b'), 'a\tb\nc\r\nd\\re\\x00\\x9b');
  assert.equal(markdownText('- **bold** item\n1. one'), '- **bold** item\n1. one');
});
