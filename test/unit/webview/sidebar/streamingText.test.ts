// The chat shows the model's code as code while it streams, never a raw ```repl fence as prose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitStreamingText } from '../../../../webview/common/streamingText';
import { streamTail } from '../../../../src/vscode/sidebar/entryFollower';

test('prose and code come apart; an unclosed fence is code still being written', () => {
  assert.deepEqual(splitStreamingText('I will count.\n```repl\nlines = 1\n```\nThen more.'), [
    { kind: 'prose', text: 'I will count.' },
    { kind: 'code', text: 'lines = 1', complete: true },
    { kind: 'prose', text: 'Then more.' },
  ]);
  assert.deepEqual(splitStreamingText('Looking.\n```repl\nx = con'), [
    { kind: 'prose', text: 'Looking.' },
    { kind: 'code', text: 'x = con', complete: false },
  ]);
  assert.deepEqual(splitStreamingText(''), []);
  for (const segment of splitStreamingText('a\n```repl\nb\n```\nc\n~~~\nd')) {
    if (segment.kind === 'prose') assert.doesNotMatch(segment.text, /```|~~~/);
  }
});

test('the tail sent to the chat starts at a line and keeps a cut code block a code block', () => {
  const text = `Intro\n\`\`\`repl\n${'x = 1\n'.repeat(400)}`;
  const tail = streamTail(text, 100);
  assert.ok(tail.startsWith('```\n'), 'the fence is put back');
  assert.equal(splitStreamingText(tail)[0]?.kind, 'code');
  assert.equal(streamTail('short', 100), 'short');
});
