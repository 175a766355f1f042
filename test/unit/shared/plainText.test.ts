// Markdown reduced to plain text for notifications, history previews and one-line labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstPlainLine, firstSentence, markdownToPlain } from '../../../src/shared/text/plainText';

test('no Markdown syntax survives: emphasis, code, links, headings, lists, quotes, fences', () => {
  const md = '# Result\n\n**42** errors in `app.log`, see [the log](https://x.test/log).\n\n- *first*: _timeout_\n> quoted ~~old~~\n\n```python\nprint(1)\n```';
  const plain = markdownToPlain(md);
  assert.equal(plain, 'Result\n\n42 errors in app.log, see the log.\n\nfirst: timeout\nquoted old\n\nprint(1)');
  assert.doesNotMatch(plain, /\*\*|`|\[|\]\(|^#/m);
});

test('snake_case and arithmetic are left alone', () => {
  assert.equal(markdownToPlain('call count_errors_by_service and 2 * 3 * 4'), 'call count_errors_by_service and 2 * 3 * 4');
});

test('tables read as rows', () => {
  assert.equal(markdownToPlain('| a | b |\n|---|---|\n| 1 | 2 |'), 'a · b\n1 · 2');
});

test('first line and first sentence, clipped', () => {
  assert.equal(firstPlainLine('\n\n**The answer** is 42.\nMore.'), 'The answer is 42.');
  assert.equal(firstPlainLine('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  assert.equal(firstSentence('I will count the lines first. Then the words.'), 'I will count the lines first.');
  assert.equal(firstSentence('Let me look at the structure:\nmore'), 'Let me look at the structure');
  assert.equal(firstSentence('version 1.2.3 is out'), 'version 1.2.3 is out');
});
