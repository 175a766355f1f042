// path:line mentions inside an answer's text become links to the references the loop resolved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitMentions } from '../../../src/shared/text/answerMentions';

const refs = [
  { path: 'src/retry.ts', line: 12 },
  { path: 'src/core/a.ts', line: 3, endLine: 5 },
];

test('a mention of a resolved reference is a link to it, by index', () => {
  assert.deepEqual(splitMentions('Backoff is at retry.ts:12, and the cap at src/core/a.ts:3-5.', refs), [
    { kind: 'text', text: 'Backoff is at ' },
    { kind: 'mention', text: 'retry.ts:12', index: 0 },
    { kind: 'text', text: ', and the cap at ' },
    { kind: 'mention', text: 'src/core/a.ts:3-5', index: 1 },
    { kind: 'text', text: '.' },
  ]);
  assert.deepEqual(splitMentions('see (src/retry.ts:12)', refs).map((p) => p.kind), ['text', 'mention', 'text']);
});

test('mentions the loop did not resolve stay text: another line, another file, a time, a URL port', () => {
  for (const text of ['retry.ts:13', 'other.ts:12', 'at 10:12 it failed', 'http://localhost:12', 'a.ts:3-6', 'xretry.ts:12']) {
    assert.deepEqual(splitMentions(text, refs), [{ kind: 'text', text }], text);
  }
  assert.deepEqual(splitMentions('retry.ts:12', []), [{ kind: 'text', text: 'retry.ts:12' }]);
});
