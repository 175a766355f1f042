import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findProseFinal, parseReply } from '../../../../src/core/loop/parseResponse';

describe('parseReply', () => {
  it('accepts ```repl, ```python and bare fences, in order', () => {
    const parsed = parseReply('a\n```repl\nx = 1\n```\nb\n```python\ny = 2\n```\n```\nz = 3\n```');
    assert.deepEqual(parsed.blocks.map((b) => [b.lang, b.code]), [['repl', 'x = 1'], ['python', 'y = 2'], ['', 'z = 3']]);
    assert.equal(parsed.prose.trim(), 'a\nb');
  });

  it('ignores blocks in other languages and empty blocks', () => {
    const parsed = parseReply('```json\n{"a": 1}\n```\n```repl\n\n```\n```text\nFINAL(no)\n```');
    assert.equal(parsed.blocks.length, 0);
    assert.equal(parsed.proseFinal, undefined, 'a FINAL inside a non-code block is not prose');
  });

  it('keeps an unclosed last fence, marked as such', () => {
    const parsed = parseReply('```repl\nprint(1)\n');
    assert.equal(parsed.blocks[0]?.code, 'print(1)\n');
    assert.equal(parsed.blocks[0]?.unclosed, true);
  });

  it('removes common indentation (code inside a list item)', () => {
    const parsed = parseReply('1. Run:\n   ```repl\n   for i in range(2):\n       print(i)\n   ```');
    assert.equal(parsed.blocks[0]?.code, 'for i in range(2):\n    print(i)');
  });

  it('finds FINAL and FINAL_VAR at the start of a prose line only', () => {
    assert.deepEqual(findProseFinal('Done.\nFINAL(42 apples)'), { kind: 'FINAL', value: '42 apples' });
    assert.deepEqual(findProseFinal('FINAL("quoted (with parens)")'), { kind: 'FINAL', value: 'quoted (with parens)' });
    assert.deepEqual(findProseFinal('**FINAL_VAR(result)**'), { kind: 'FINAL_VAR', name: 'result' });
    assert.deepEqual(findProseFinal("FINAL_VAR('result')"), { kind: 'FINAL_VAR', name: 'result' });
    assert.equal(findProseFinal('I will call FINAL(x) when I know more.'), undefined);
    assert.equal(findProseFinal('FINAL( no closing'), undefined);
  });

  it('runs the first repl block whatever comes before it; falls back to python, then a bare fence, and says so', () => {
    const both = parseReply('```python\nprint("py")\n```\ntext\n```repl\nprint("repl")\n```\n```repl\nprint("second")\n```');
    assert.equal(both.run?.code, 'print("repl")');
    assert.equal(both.fallback, undefined);
    assert.equal(both.blocks.length, 3);
    const python = parseReply('```py\nx = 1\n```\n```\ny = 2\n```');
    assert.deepEqual([python.run?.code, python.fallback], ['x = 1', 'python']);
    const bare = parseReply('```\ny = 2\n```');
    assert.deepEqual([bare.run?.code, bare.fallback], ['y = 2', 'bare']);
    assert.equal(parseReply('```json\n{}\n```').run, undefined, 'other languages never run');
  });

  it('unwraps a decorative outer fence, properly nested or not, and honours fence lengths and CRLF', () => {
    assert.equal(parseReply('```\n```repl\nprint(1)\n```\n```').run?.code, 'print(1)');
    assert.equal(parseReply('````markdown\n```repl\nprint(2)\n```\n````').run?.code, 'print(2)');
    assert.equal(parseReply('````repl\ns = """\n```\n"""\nprint(s)\n````').run?.code, 's = """\n```\n"""\nprint(s)', 'a shorter fence inside does not close a longer one');
    assert.equal(parseReply('```repl\r\nprint(3)\r\n```\r\n').run?.code, 'print(3)\r');
    assert.equal(parseReply('```repl\nprint(4)').run?.unclosed, true);
  });
});
