// The read every lazy read and search goes through, checked on the descriptor it holds: a FIFO swapped
// in for a planned file is refused even on the fast path that skips the stat (it reads as nothing,
// which is not the planned size), and `within` refuses a file whose real place is outside, told by the
// kernel on Linux and, where there is no /proc, by the file's identity at its resolved name.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPathOfDescriptor } from '../../../../src/core/context/descriptorPath';
import { readLocalFileInto } from '../../../../src/core/context/localFileReadSync';

describe('reads checked at read time', { skip: process.platform === 'win32' ? 'FIFOs and /proc as on POSIX' : false }, () => {
  let dir: string;
  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'rlm-readtime-')));
    mkdirSync(join(dir, 'in'));
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'in', 'a.txt'), 'inside\n');
    writeFileSync(join(dir, 'out', 'a.txt'), 'outside\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a FIFO swapped in for a planned file is refused on the fast path, a regular file is read', () => {
    const into = new Uint8Array(64);
    assert.deepEqual(readLocalFileInto(join(dir, 'in', 'a.txt'), into, { noFollow: true, plannedBytes: 7 }), { kind: 'read', length: 7 });
    const fifo = join(dir, 'in', 'fifo.txt');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    try {
      assert.deepEqual(readLocalFileInto(fifo, into, { noFollow: true, plannedBytes: 7 }), { kind: 'special', special: 'FIFO' });
      assert.deepEqual(readLocalFileInto(fifo, into, { noFollow: true, plannedBytes: 0, within: [join(dir, 'in')] }), { kind: 'special', special: 'FIFO' }, 'with `within`, even a planned empty file');
    } finally {
      rmSync(fifo);
    }
  });

  it('`within` refuses a file reached through a folder swapped for a link out, and reads it in place', () => {
    const into = new Uint8Array(64);
    const within = [join(dir, 'in')];
    assert.deepEqual(readLocalFileInto(join(dir, 'in', 'a.txt'), into, { noFollow: true, within }), { kind: 'read', length: 7 });
    mkdirSync(join(dir, 'in', 'sub'));
    writeFileSync(join(dir, 'in', 'sub', 'b.txt'), 'inside b\n');
    renameSync(join(dir, 'in', 'sub'), join(dir, 'moved'));
    symlinkSync(join(dir, 'out'), join(dir, 'in', 'sub'));
    try {
      assert.deepEqual(readLocalFileInto(join(dir, 'in', 'sub', 'a.txt'), into, { noFollow: true, within }), { kind: 'outside', real: join(dir, 'out', 'a.txt') });
    } finally {
      rmSync(join(dir, 'in', 'sub'));
      renameSync(join(dir, 'moved'), join(dir, 'in', 'sub'));
    }
  });

  for (const platform of ['linux', 'darwin'] as const) {
    it(`the descriptor's real path (${platform === 'linux' ? '/proc' : 'identity at the resolved name'})`, { skip: platform === 'linux' && process.platform !== 'linux' ? 'Linux only' : false }, () => {
      const fd = openSync(join(dir, 'in', 'a.txt'), constants.O_RDONLY);
      try {
        assert.equal(realPathOfDescriptor(fd, join(dir, 'in', 'a.txt'), platform), join(dir, 'in', 'a.txt'));
        // The name now leads elsewhere: the held file is no longer what the name resolves to.
        renameSync(join(dir, 'in', 'a.txt'), join(dir, 'in', 'held.txt'));
        symlinkSync(join(dir, 'out', 'a.txt'), join(dir, 'in', 'a.txt'));
        const real = realPathOfDescriptor(fd, join(dir, 'in', 'a.txt'), platform);
        assert.equal(real, platform === 'linux' ? join(dir, 'in', 'held.txt') : undefined);
      } finally {
        closeSync(fd);
        rmSync(join(dir, 'in', 'a.txt'), { force: true });
        renameSync(join(dir, 'in', 'held.txt'), join(dir, 'in', 'a.txt'));
      }
    });
  }
});
