// Inputs that are not plain files: a device, FIFO or socket named directly is refused at once (never
// opened in a way that blocks, never read without end); inside a folder they are skipped with the
// reason. Symlinks in a folder are not followed out of it, loops are reported, and every read stops at
// its limit even when the file's stat says less. Hostile layouts are built by the test itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPathsAsContext } from '../../../../src/core/context/readPaths';
import { nodeContextFs } from '../../../../src/core/context/contextPlan';
import { ContextTooLargeError, SpecialFileError } from '../../../../src/core/context/contextErrors';
import { readLocalFile, streamLocalFile } from '../../../../src/core/context/localFileRead';
import { judgeReachedPath } from '../../../../src/core/context/pathContainment';

const linux = process.platform === 'linux';

describe('special files and links as input', { skip: process.platform === 'win32' && 'FIFOs, sockets and /dev are POSIX' }, () => {
  let dir: string;
  let outside: string;
  let socketServer: Server;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-special-'));
    outside = mkdtempSync(join(tmpdir(), 'rlm-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET OUTSIDE THE FOLDER');
    mkdirSync(join(dir, 'proj/sub'), { recursive: true });
    writeFileSync(join(dir, 'proj/a.txt'), 'alpha');
    writeFileSync(join(dir, 'proj/sub/b.txt'), 'beta');
    execFileSync('mkfifo', [join(dir, 'proj/pipe')]);
    execFileSync('mkfifo', [join(dir, 'lonely.fifo')]);
    socketServer = createServer();
    await new Promise<void>((done) => socketServer.listen(join(dir, 'proj/sock'), done));
    symlinkSync('/dev/zero', join(dir, 'proj/zero'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'proj/leak.txt'));
    symlinkSync(outside, join(dir, 'proj/leakdir'));
    symlinkSync('..', join(dir, 'proj/sub/up'));
    symlinkSync('loop2', join(dir, 'proj/loop1'));
    symlinkSync('loop1', join(dir, 'proj/loop2'));
    symlinkSync('a.txt', join(dir, 'proj/alias.txt'));
    symlinkSync('missing.txt', join(dir, 'proj/dangling'));
  });
  after(async () => {
    await new Promise<void>((done) => socketServer.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('refuses a FIFO, a character device and a socket named directly, at once and by kind', async () => {
    const started = Date.now();
    await assert.rejects(readPathsAsContext(['lonely.fifo'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError && e.kind === 'FIFO' && /lonely\.fifo is a FIFO, not a regular file or folder/.test(e.message));
    await assert.rejects(readPathsAsContext(['/dev/zero'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError && e.kind === 'character device');
    await assert.rejects(readPathsAsContext(['proj/sock'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError && e.kind === 'socket');
    await assert.rejects(readPathsAsContext(['proj/zero'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError && e.kind === 'character device', 'a link to a device is the device');
    await assert.rejects(readPathsAsContext(['proj/a.txt', 'lonely.fifo'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError, 'any bad path in a list refuses the list');
    assert.ok(Date.now() - started < 5000, 'nothing waited on a writer');
  });

  it('names a symlink loop given directly instead of calling it missing', async () => {
    await assert.rejects(readPathsAsContext(['proj/loop1'], { cwd: dir }), (e: unknown) => e instanceof SpecialFileError && /symlink loop/.test(e.message));
  });

  it('in a folder, reads the regular files and lists every other entry with its reason', async () => {
    const { source, target } = await readPathsAsContext(['proj'], { cwd: dir });
    assert.equal(source.kind, 'files');
    const read = source.kind === 'files' ? source.files.map((f) => f.path) : [];
    assert.deepEqual(read, ['proj/a.txt', 'proj/sub/b.txt']);
    const texts = source.kind === 'files' ? source.files.map((f) => new TextDecoder().decode(f.content as Uint8Array)).join('') : '';
    assert.ok(!texts.includes('SECRET'), 'nothing outside the folder was read');
    const skipped = Object.fromEntries(target.skipped.map((s) => [s.path, s.reason]));
    assert.deepEqual(skipped, {
      'proj/alias.txt': 'link',
      'proj/dangling': 'unreadable',
      'proj/leak.txt': 'link-outside',
      'proj/leakdir': 'link-outside',
      'proj/loop1': 'link-loop',
      'proj/loop2': 'link-loop',
      'proj/pipe': 'special',
      'proj/sock': 'special',
      'proj/sub/up': 'link-loop',
      'proj/zero': 'link-outside',
    });
    const detail = Object.fromEntries(target.skipped.map((s) => [s.path, s.detail]));
    assert.equal(detail['proj/pipe'], 'FIFO');
    assert.equal(detail['proj/sock'], 'socket');
    assert.match(detail['proj/leak.txt'] ?? '', /secret\.txt, outside the folder/);
    assert.match(detail['proj/sub/up'] ?? '', /link back to proj, a folder above it/);
    assert.match(detail['proj/alias.txt'] ?? '', /link to proj\/a\.txt, read at that path/);
  });

  it('a folder named through a symlink is walked as the folder it names', async () => {
    symlinkSync(join(dir, 'proj'), join(dir, 'proj-link'));
    const { source } = await readPathsAsContext(['proj-link'], { cwd: dir });
    assert.deepEqual(source.kind === 'files' && source.files.map((f) => f.path), ['proj-link/a.txt', 'proj-link/sub/b.txt']);
  });

  it('a path that turns into a FIFO after it was checked is refused, not waited on', async () => {
    // The stat says a small regular file; the open finds the FIFO. The open is non-blocking and its handle is checked.
    const racing = { ...nodeContextFs, stat: () => ({ size: 5, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false, isFIFO: () => false, isSocket: () => false, isCharacterDevice: () => false, isBlockDevice: () => false }) };
    await assert.rejects(readPathsAsContext(['lonely.fifo'], { cwd: dir, fs: racing }), (e: unknown) => e instanceof SpecialFileError && e.kind === 'FIFO');
    const zero = await readLocalFile('/dev/zero', { maxBytes: 1024 });
    assert.deepEqual(zero, { kind: 'special', special: 'character device' });
  });

  it('a file swapped for a link after the walk looked is not followed', async () => {
    const read = await readLocalFile(join(dir, 'proj/leak.txt'), { maxBytes: 1024, noFollow: true });
    assert.equal(read.kind, 'link');
  });

  it('stops reading at the limit when the stat says less than the file holds (/proc)', { skip: !linux && '/proc is Linux' }, async () => {
    const read = await readLocalFile('/proc/self/status', { maxBytes: 64 });
    assert.equal(read.kind, 'too-large');
    if (read.kind === 'too-large') {
      assert.equal(read.statBytes, 0, '/proc files say they are empty');
      assert.equal(read.bytesSeen, 65, 'reading stopped one byte past the limit');
    }
    await assert.rejects(readPathsAsContext(['/proc/self/status'], { cwd: dir, maxTotalBytes: 64 }), (e: unknown) => e instanceof ContextTooLargeError && e.atLeast && /holds more than/.test(e.message));
    const fine = await readLocalFile('/proc/self/status', { maxBytes: 1 << 20 });
    assert.ok(fine.kind === 'read' && new TextDecoder().decode(fine.bytes).includes('Name:'), 'read in full when under the limit');
  });

  it('streaming a file makes the same checks as reading it, and hands over at most the limit', { skip: !linux && '/proc is Linux' }, async () => {
    const chunks: number[] = [];
    const onChunk = (bytes: Uint8Array): void => void chunks.push(bytes.length);
    assert.deepEqual(await streamLocalFile('/dev/zero', { maxBytes: 1024 }, onChunk), { kind: 'special', special: 'character device' });
    assert.deepEqual(await streamLocalFile(join(dir, 'lonely.fifo'), { maxBytes: 1024 }, onChunk), { kind: 'special', special: 'FIFO' });
    assert.equal((await streamLocalFile(join(dir, 'proj/leak.txt'), { maxBytes: 1024, noFollow: true }, onChunk)).kind, 'link');
    assert.deepEqual(chunks, [], 'nothing handed over for a refused path');
    const proc = await streamLocalFile('/proc/self/status', { maxBytes: 64, chunkBytes: 16 }, onChunk);
    assert.equal(proc.kind, 'too-large');
    assert.equal(chunks.reduce((a, b) => a + b, 0), 64, 'exactly the limit was handed over before it stopped');
  });

  it('a big file is streamed through one small buffer, in order', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n');
    writeFileSync(join(dir, 'streamed.txt'), text);
    const parts: string[] = [];
    const views = new Set<ArrayBufferLike>();
    const streamed = await streamLocalFile(join(dir, 'streamed.txt'), { maxBytes: 1 << 20, chunkBytes: 4096 }, (bytes) => {
      assert.ok(bytes.length <= 4096);
      views.add(bytes.buffer);
      parts.push(new TextDecoder().decode(bytes));
    });
    assert.deepEqual(streamed, { kind: 'streamed', bytes: Buffer.byteLength(text) });
    assert.equal(parts.join(''), text);
    assert.ok(parts.length > 10);
    assert.equal(views.size, 1, 'every chunk is a view of the same buffer');
  });

  it('a file that grows past the limit while a folder is read is skipped as too large, with the size seen', async () => {
    const growing = {
      ...nodeContextFs,
      readInto: (path: string, into: Uint8Array, options?: { noFollow?: boolean; head?: boolean; plannedBytes?: number }) =>
        path.endsWith('a.txt') ? { kind: 'too-large' as const, bytesSeen: into.length, statBytes: 5 } : nodeContextFs.readInto(path, into, options),
    };
    const { target } = await readPathsAsContext(['proj'], { cwd: dir, fs: growing, maxFileBytes: 100 });
    const entry = target.skipped.find((s) => s.path === 'proj/a.txt');
    assert.deepEqual(entry, { path: 'proj/a.txt', reason: 'too-large', bytes: 101 });
  });
});

describe('judgeReachedPath (files a link-following search found)', { skip: process.platform === 'win32' && 'symlinks need privileges on Windows' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-reached-'));
    mkdirSync(join(dir, 'root/real'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'root/real/f.txt'), 'x');
    writeFileSync(join(dir, 'elsewhere/g.txt'), 'y');
    symlinkSync(join(dir, 'root/real'), join(dir, 'root/alias'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'root/out'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a plain file, skips one reached through an inside link, and one outside the folder', async () => {
    const root = join(dir, 'root');
    assert.equal(await judgeReachedPath(join(root, 'real/f.txt'), root, root), undefined);
    assert.deepEqual(await judgeReachedPath(join(root, 'alias/f.txt'), root, root), { reason: 'link', detail: 'reached through a link; read at real/f.txt' });
    assert.equal((await judgeReachedPath(join(root, 'out/g.txt'), root, root))?.reason, 'link-outside');
  });
});
