// The CLI's one writer for people: a terminal hyperlink (OSC 8, ST or BEL form) or any other escape
// sequence in an answer, a cell error or a note never reaches the terminal raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inertOutput } from '../../../src/cli/support/inertOutput';

const ESC = '\u001b';

function written(text: string): string {
  let out = '';
  inertOutput({ write: (t: string) => (out += t) }).write(text);
  return out;
}

test('OSC 8 hyperlinks, both terminators, are printed as visible text', () => {
  assert.equal(written(`a ${ESC}]8;;http://evil.example${ESC}\\link${ESC}]8;;${ESC}\\ b`), 'a \\x1b]8;;http://evil.example\\x1b\\link\\x1b]8;;\\x1b\\ b');
  assert.equal(written(`${ESC}]8;;http://evil.example\u0007link${ESC}]8;;\u0007`), '\\x1b]8;;http://evil.example\\x07link\\x1b]8;;\\x07');
});

test('clipboard writes, titles, C1 introducers and cursor moves too; newlines and tabs stay', () => {
  assert.equal(written(`${ESC}]52;c;ZXZpbA==\u0007${ESC}]0;t\u0007\u009b2J${ESC}[1A\rx\n\ty`), '\\x1b]52;c;ZXZpbA==\\x07\\x1b]0;t\\x07\\x9b2J\\x1b[1A\\rx\n\ty');
});

test("the CLI's own redraw goes through control() as it is (a control)", () => {
  let out = '';
  inertOutput({ write: (t: string) => (out += t) }).control(`${ESC}[2K\r`);
  assert.equal(out, `${ESC}[2K\r`);
});
