import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPathsAsContext } from '../../../../src/core/context/readPaths';
import { BinaryFileError, ContextTooLargeError, NoReadableFilesError, PathNotFoundError } from '../../../../src/core/context/contextErrors';
import { binaryReason, hasBinaryExtension, hasNulByte } from '../../../../src/core/context/binaryDetection';

describe('binary detection', () => {
  it('looks at the extension and for NUL in the first 8 KB only', () => {
    assert.equal(hasBinaryExtension('img/logo.PNG'), true);
    assert.equal(hasBinaryExtension('src/main.ts'), false);
    assert.equal(hasBinaryExtension('.png'), false, 'a dotfile named like an extension is not binary by name');
    assert.equal(hasNulByte(new Uint8Array([65, 0, 66])), true);
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    assert.equal(hasNulByte(late), false);
    assert.equal(binaryReason('a.txt', new TextEncoder().encode('plain text')), undefined);
    assert.equal(binaryReason('a.zip', new Uint8Array()), 'extension');
  });
});

describe('readPathsAsContext', () => {
  let dir: string;
  const write = (path: string, content: string | Uint8Array): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-context-'));
    write('proj/.gitignore', 'build/\n*.log\n');
    write('proj/src/b.ts', 'export const b = 2;\n');
    write('proj/src/a.ts', 'export const a = 1;\n');
    write('proj/README.md', '# readme\n');
    write('proj/build/out.js', 'compiled');
    write('proj/debug.log', 'log line');
    write('proj/logo.png', 'not really a png');
    write('proj/blob.dat', new Uint8Array([1, 2, 0, 3]));
    write('proj/big.txt', 'x'.repeat(2000));
    write('proj/nested/.gitignore', 'private.txt\n');
    write('proj/nested/private.txt', 'hidden');
    write('proj/nested/keep.txt', 'kept');
    write('proj/.git/config', '[core]');
    write('single.txt', 'just one file');
    write('raw.bin', new Uint8Array([0, 0, 0]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a folder honouring .gitignore at every level, skipping binaries and large files, sorted', async () => {
    const { source, target } = await readPathsAsContext(['proj'], { cwd: dir, maxFileBytes: 1000 });
    assert.equal(source.kind, 'files');
    if (source.kind !== 'files') return;
    assert.deepEqual(
      source.files.map((f) => f.path),
      ['proj/.gitignore', 'proj/README.md', 'proj/nested/.gitignore', 'proj/nested/keep.txt', 'proj/src/a.ts', 'proj/src/b.ts'],
    );
    assert.equal(target.kind, 'folder');
    assert.equal(target.fileCount, 6);
    const skipped = Object.fromEntries(target.skipped.map((s) => [s.path, s.reason]));
    assert.deepEqual(skipped, {
      'proj/big.txt': 'too-large',
      'proj/blob.dat': 'binary',
      'proj/build': 'excluded',
      'proj/debug.log': 'excluded',
      'proj/logo.png': 'binary',
      'proj/nested/private.txt': 'excluded',
    });
    assert.equal(target.totalBytes, source.files.reduce((n, f) => n + (f.content as Uint8Array).byteLength, 0));
  });

  it('reads one file as a text context', async () => {
    const { source, target } = await readPathsAsContext(['single.txt'], { cwd: dir });
    assert.equal(source.kind, 'text');
    assert.equal(target.kind, 'file');
    assert.deepEqual(target.paths, ['single.txt']);
  });

  it('reads several paths as files, without duplicates', async () => {
    const { source, target } = await readPathsAsContext(['single.txt', 'proj/src', 'proj/src/a.ts'], { cwd: dir });
    assert.equal(target.kind, 'files');
    assert.deepEqual(source.kind === 'files' && source.files.map((f) => f.path), ['proj/src/a.ts', 'proj/src/b.ts', 'single.txt']);
  });

  it('refuses a binary file named directly, with a clear error', async () => {
    await assert.rejects(readPathsAsContext(['raw.bin'], { cwd: dir }), (e: unknown) => e instanceof BinaryFileError && /binary/.test(e.message) && e.path === 'raw.bin');
  });

  it('refuses input over the total limit and says how to narrow it', async () => {
    await assert.rejects(readPathsAsContext(['proj'], { cwd: dir, maxTotalBytes: 40 }), (e: unknown) => {
      assert.ok(e instanceof ContextTooLargeError);
      assert.match(e.message, /Narrow it: name a subfolder/);
      assert.equal(e.limit, 40);
      return true;
    });
    await assert.rejects(readPathsAsContext(['single.txt'], { cwd: dir, maxTotalBytes: 5 }), ContextTooLargeError);
  });

  it('names a missing path, and an input with nothing readable', async () => {
    await assert.rejects(readPathsAsContext(['nope'], { cwd: dir }), (e: unknown) => e instanceof PathNotFoundError && /nope: no such file/.test(e.message));
    mkdirSync(join(dir, 'empty'), { recursive: true });
    await assert.rejects(readPathsAsContext(['empty'], { cwd: dir }), NoReadableFilesError);
  });
});

describe('readPathsAsContext and nested .gitignore files', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-gitignore-walk-'));
    const files: Record<string, string> = {
      'tree/.gitignore': '*.log\nlogs/\n',
      'tree/sub/.gitignore': '!keep.log\n',
      'tree/sub/keep.log': 'kept by the deeper negation',
      'tree/sub/other.log': 'ignored from the root',
      'tree/logs/.gitignore': '!keep.txt\n',
      'tree/logs/keep.txt': 'inside an ignored folder: never read',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lets a deeper negation re-include a file, but never anything in an ignored folder', async () => {
    const { source, target } = await readPathsAsContext(['tree'], { cwd: dir });
    assert.equal(source.kind, 'files');
    if (source.kind !== 'files') return;
    assert.deepEqual(source.files.map((f) => f.path), ['tree/.gitignore', 'tree/sub/.gitignore', 'tree/sub/keep.log']);
    assert.deepEqual(target.skipped.map((s) => `${s.path}: ${s.reason}`).sort(), ['tree/logs: excluded', 'tree/sub/other.log: excluded']);
  });
});
