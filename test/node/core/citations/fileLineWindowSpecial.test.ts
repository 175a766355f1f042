// A reference may name a FIFO or a device (a recorded run, or a file swapped since the run): the slice
// reader refuses it at once instead of blocking the extension host on an open or a read that never ends.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLineWindow } from '../../../../src/core/citations/fileLineWindow';
import { SpecialFileError } from '../../../../src/core/context/contextErrors';

it('a FIFO with no writer and a character device are refused as special files', { timeout: 10_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-window-fifo-'));
  try {
    const fifo = join(dir, 'big.log');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    await assert.rejects(readLineWindow(fifo, 10, 10, 3), (error: unknown) => error instanceof SpecialFileError && /FIFO/.test(error.message));
    await assert.rejects(readLineWindow('/dev/zero', 10, 10, 3), (error: unknown) => error instanceof SpecialFileError && /character device/.test(error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
