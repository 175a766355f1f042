import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSafeHref, renderMarkdown } from '../../../../webview/common/markdown';
import { FakeElement, fakeDocument, serialize } from './fakeDom';

function render(source: string): FakeElement {
  const root = new FakeElement('div');
  renderMarkdown(fakeDocument, root, source);
  return root;
}

test('headings, emphasis, lists and inline code become elements', () => {
  const html = serialize(render('# Title\n\nSome *em* and **strong** and `x < 1`\n\n- a\n- b\n'));
  assert.equal(html, '<div><h1>Title</h1><p>Some <em>em</em> and <strong>strong</strong> and <code>x &lt; 1</code></p><ul><li>a</li><li>b</li></ul></div>');
});

test('raw HTML stays text and never becomes an element', () => {
  const root = render('hello <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<div>block</div>');
  assert.equal(root.findAll('img').length, 0);
  assert.equal(root.findAll('script').length, 0);
  assert.equal(root.findAll('div').length, 0);
  assert.match(root.textContent, /<script>alert\(2\)<\/script>/);
  assert.match(root.textContent, /<div>block<\/div>/);
});

test('fenced code keeps its text verbatim with a language class', () => {
  const root = render('```python\nprint("<b>")\n```\n');
  const code = root.findAll('code')[0];
  assert.ok(code);
  assert.equal(code.attributes.get('class'), 'language-python');
  assert.equal(code.textContent, 'print("<b>")\n');
});

test('javascript: links lose their href; written-out http links keep it; bare URLs stay text', () => {
  const root = render('[bad](javascript:alert(1)) [good](https://example.com/a) see http://x.org/y');
  const hrefs = root.findAll('a').map((a) => a.attributes.get('href'));
  assert.deepEqual(hrefs, ['https://example.com/a']);
  assert.match(root.textContent, /see http:\/\/x\.org\/y/);
  assert.doesNotMatch(serialize(root), /href="javascript/);
});

test('images become labelled links, never <img>', () => {
  const root = render('![a cat](https://example.com/cat.png)');
  assert.equal(root.findAll('img').length, 0);
  assert.equal(root.findAll('a')[0]?.textContent, '[image: a cat]');
});

test('tables render with alignment', () => {
  const root = render('| a | b |\n|:-|-:|\n| 1 | 2 |\n');
  assert.equal(root.findAll('table').length, 1);
  assert.equal(root.findAll('td')[1]?.attributes.get('align'), 'right');
});

test('isSafeHref accepts only http(s), mailto and anchors', () => {
  assert.equal(isSafeHref('https://a'), true);
  assert.equal(isSafeHref('mailto:x@y'), true);
  assert.equal(isSafeHref('#top'), true);
  assert.equal(isSafeHref('javascript:1'), false);
  assert.equal(isSafeHref('data:text/html,x'), false);
  assert.equal(isSafeHref('vscode://x'), false);
});

test('a single line break in an answer stays a break, not a space', () => {
  const html = serialize(render('x is set to 500.\ny is 7\n\nnext paragraph'));
  assert.equal(html, '<div><p>x is set to 500.<br></br>y is 7</p><p>next paragraph</p></div>');
});

// A terminal hyperlink in a cell's output, an answer or an error: ESC ] 8 ; ; URL, then the label,
// then ESC ] 8 ; ; to close, with ST (ESC \\) or BEL as the terminator. Both must show as text.
const OSC8_ST = 'see \x1b]8;;http://evil.example/steal\x1b\\the docs\x1b]8;;\x1b\\ now';
const OSC8_BEL = 'see \x1b]8;;https://evil.example/steal\x07the docs\x1b]8;;\x07 now';

test('a terminal hyperlink (OSC 8, ST or BEL form) is never a link: its escapes show as text', () => {
  for (const source of [OSC8_ST, OSC8_BEL]) {
    const root = render(source);
    assert.deepEqual(root.findAll('a'), [], `no link from ${JSON.stringify(source)}`);
    assert.match(root.textContent, /\\x1b\]8;;https?:\/\/evil\.example\/steal/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the page
    assert.doesNotMatch(root.textContent, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  }
});

test('colour and cursor sequences and C1 controls show as escapes', () => {
  const root = render('\x1b[31mred\x1b[0m \x1b[2J \x9b1m \u202eevil');
  assert.equal(root.textContent, '\\x1b[31mred\\x1b[0m \\x1b[2J \\x9b1m \\u202eevil');
});
