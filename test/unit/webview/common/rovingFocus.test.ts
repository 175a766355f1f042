import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rovingMove, rovingStop } from '../../../../webview/common/rovingFocus';

test('the arrow keys, Home and End move between the list\'s controls without wrapping', () => {
  assert.equal(rovingMove('ArrowDown', 0, 3), 1);
  assert.equal(rovingMove('ArrowRight', 1, 3), 2);
  assert.equal(rovingMove('ArrowDown', 2, 3), 2, 'the last control stays put');
  assert.equal(rovingMove('ArrowUp', 2, 3), 1);
  assert.equal(rovingMove('ArrowLeft', 0, 3), 0, 'the first control stays put');
  assert.equal(rovingMove('Home', 2, 3), 0);
  assert.equal(rovingMove('End', 0, 3), 2);
});

test('other keys (Tab, Enter, letters) are left to the control and the browser', () => {
  for (const key of ['Tab', 'Enter', ' ', 'a', 'Escape']) assert.equal(rovingMove(key, 1, 3), undefined, key);
  assert.equal(rovingMove('ArrowDown', 0, 0), undefined, 'an empty list');
});

test('the Tab stop stays on the control the user last focused, found again after a re-render', () => {
  // A new entry was added above: the remembered link moved from place 1 to place 3.
  assert.equal(rovingStop(['a:view', 'a:copy', 'b:ref:0', 'b:view'], { key: 'b:ref:0', index: 1 }, 3), 2);
  // A control without a focus key (a link in the answer's Markdown) is found by its place.
  assert.equal(rovingStop([undefined, 'a:copy', 'b:view'], { index: 0 }, 2), 0);
});

test('before any choice, or when the remembered control is gone, the fallback holds the Tab stop', () => {
  assert.equal(rovingStop(['a:view', 'b:view', 'b:copy'], undefined, 1), 1);
  assert.equal(rovingStop(['a:view', 'b:view'], { key: 'gone', index: 5 }, 1), 1);
  assert.equal(rovingStop(['a:view', 'b:view'], { index: 5 }, 1), 1, 'a place past the end');
  assert.equal(rovingStop(['a:view'], undefined, 7), 0, 'a fallback past the end is clamped');
  assert.equal(rovingStop([], undefined, 0), -1, 'nothing to focus');
});
