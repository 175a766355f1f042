import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLineWindow } from '../../../../src/core/citations/fileLineWindow';
import { SpecialFileError } from '../../../../src/core/context/contextErrors';

describe('readLineWindow: the lines around a cited line of a file too large for the editor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-window-'));
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ${'é'.repeat(i % 5)}`);
  const file = join(dir, 'big.log');
  writeFileSync(file, `${lines.join('\n')}\n`);

  it('the lines around a line, clipped at both ends, whatever the read size', async () => {
    for (const chunkBytes of [3, 7, 64, 1024 * 1024]) {
      const mid = await readLineWindow(file, 500, 501, 3, { chunkBytes });
      assert.deepEqual([mid.firstLine, mid.lastLine], [497, 504], `chunk ${chunkBytes}`);
      assert.equal(mid.text, lines.slice(496, 504).join('\n'));
      const start = await readLineWindow(file, 2, 2, 5, { chunkBytes });
      assert.deepEqual([start.firstLine, start.lastLine], [1, 7]);
      const end = await readLineWindow(file, 999, 999, 5, { chunkBytes });
      assert.deepEqual([end.firstLine, end.lastLine], [994, 1000]);
      assert.equal(end.text.split('\n').at(-1), lines[999]);
    }
  });

  it('a line past the end of a file that shrank gives no lines', async () => {
    const window = await readLineWindow(file, 5000, 5000, 3);
    assert.equal(window.text, '');
  });

  it('a folder is refused with a typed error, not read', async () => {
    await assert.rejects(readLineWindow(dir, 1, 1, 3), (error: unknown) => error instanceof SpecialFileError || (error as NodeJS.ErrnoException).code === 'EISDIR');
  });

  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});
