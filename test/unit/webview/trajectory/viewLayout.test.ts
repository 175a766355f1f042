// The view at any width, the timeline's axis, and what a turn is labelled by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { widthClass } from '../../../../webview/trajectory/widthMode';
import { axisLabel, axisTicks } from '../../../../webview/trajectory/timelineLayout';
import { codeLabel, turnLabel } from '../../../../src/vscode/trajectory/turnLabel';
import { excerptWithMatch } from '../../../../src/vscode/trajectory/runSearch';
import { parsePriceInput } from '../../../../src/vscode/settings/priceInput';

test('the layout adapts: the outline leaves its column below 640 px, the figures stack below 380 px', () => {
  assert.equal(widthClass(1200), 'wide');
  assert.equal(widthClass(600), 'narrow');
  assert.equal(widthClass(220), 'compact');
  assert.equal(widthClass(0), 'wide', 'not laid out yet');
});

test('the time axis has round ticks from 0', () => {
  assert.deepEqual(axisTicks(4000).map((t) => t.label), ['0', '1 s', '2 s', '3 s', '4 s']);
  assert.deepEqual(axisTicks(1300).map((t) => t.label), ['0', '500 ms', '1 s']);
  assert.ok(axisTicks(95_000).length <= 5);
  assert.equal(axisLabel(90_000), '1.5 min');
  assert.deepEqual(axisTicks(0), [{ at: 0, label: '0' }]);
});

test('a turn is labelled by the model\'s stated intent, else its code\'s first meaningful line', () => {
  assert.equal(turnLabel({ modelText: 'I will **count** the lines first. Then words.\n```repl\nn = 20\n```', cells: [{ code: 'n = 20' } as never] }), 'I will count the lines first.');
  assert.equal(turnLabel({ modelText: '```repl\nimport re\n# Count errors per service\nn = 20\n```', cells: [{ code: 'import re\n# Count errors per service\nn = 20' } as never] }), 'Count errors per service');
  assert.equal(codeLabel('import re\nfrom x import y\n\nn = 20'), 'n = 20');
  assert.equal(turnLabel({ modelText: 'FINAL(42)', cells: [] }), 'FINAL(42)');
  assert.equal(turnLabel({ cells: [] }), '');
});

test('a search excerpt says where the match is, through collapsed whitespace', () => {
  const text = `${'a  \n'.repeat(40)}the Needle here`;
  const at = text.toLowerCase().indexOf('needle');
  const { excerpt, match } = excerptWithMatch(text, at, 6);
  assert.equal(excerpt.slice(match.start, match.start + match.length), 'Needle');
});

test('a typed price: input and output in USD per million tokens', () => {
  assert.deepEqual(parsePriceInput('0.15, 0.60'), { input: 0.15, output: 0.6 });
  assert.deepEqual(parsePriceInput('$3 / $15'), { input: 3, output: 15 });
  assert.ok('problem' in parsePriceInput('0.15'));
  assert.ok('problem' in parsePriceInput('-1, 2'));
  assert.ok('problem' in parsePriceInput('a, b'));
});
