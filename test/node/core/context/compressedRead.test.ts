// Reading compressed files as the text they hold: every format decodes to the same text, a head or a
// sample stops early, the limits hold for the decompressed bytes, a bomb is stopped by its ratio, and
// the read-time checks (no link at the last step, regular files only, magic bytes) hold as for plain files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readCompressed } from '../../../../src/core/context/compressedRead';
import type { Compression } from '../../../../src/core/context/compressedFormats';
import { compressionOf } from '../../../../src/core/context/compressedFormats';

const TEXT = Array.from({ length: 20000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}\n`).join('');
const TOOLS: Array<[Compression, string, string]> = [['bzip2', 'bzip2', 'bz2'], ['xz', 'xz', 'xz'], ['zstd', 'zstd', 'zst']];
const hasTool = (tool: string): boolean => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;

async function decodeAll(path: string, format: Compression, options: Parameters<typeof readCompressed>[2]): Promise<{ read: Awaited<ReturnType<typeof readCompressed>>; text: string }> {
  const pieces: Buffer[] = [];
  const read = await readCompressed(path, format, options, (piece) => {
    pieces.push(Buffer.from(piece));
  });
  return { read, text: Buffer.concat(pieces).toString('utf8') };
}

describe('compressed files', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-compressed-'));
    writeFileSync(join(dir, 'a.log'), TEXT);
    writeFileSync(join(dir, 'a.log.gz'), gzipSync(TEXT));
    for (const [, tool] of TOOLS) if (hasTool(tool)) execFileSync(tool, ['-k', '-q', '-f', join(dir, 'a.log')]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names: .gz/.bz2/.xz/.zst are texts, archives are not', () => {
    assert.equal(compressionOf('logs/app.log.2.gz'), 'gzip');
    assert.equal(compressionOf('a.BZ2'), 'bzip2');
    assert.equal(compressionOf('a.xz'), 'xz');
    assert.equal(compressionOf('a.zst'), 'zstd');
    assert.equal(compressionOf('src.tar.gz'), undefined);
    assert.equal(compressionOf('a.log'), undefined);
    assert.equal(compressionOf('.gz'), undefined);
  });

  for (const [format, tool, ext] of [['gzip', undefined, 'gz'], ...TOOLS] as Array<[Compression, string | undefined, string]>) {
    it(`${format}: decodes whole, stops at a head, and refuses past the limit`, { skip: tool !== undefined && !hasTool(tool) && `${tool} is not installed` }, async () => {
      const path = join(dir, `a.log.${ext}`);
      const whole = await decodeAll(path, format, { maxBytes: 10 * 1024 * 1024 });
      assert.equal(whole.read.kind, 'done');
      assert.equal(whole.text, TEXT);
      const head = await decodeAll(path, format, { maxBytes: 10 * 1024 * 1024, stopAfterBytes: 100 });
      assert.equal(head.read.kind, 'stopped');
      assert.equal(head.text, TEXT.slice(0, 100));
      const limited = await decodeAll(path, format, { maxBytes: 50_000 });
      assert.equal(limited.read.kind, 'too-large');
      assert.equal(limited.text, TEXT.slice(0, 50_000), 'no more than the limit is handed over');
    });
  }

  it('stops a bomb by its ratio as soon as it passes, handing over no more than it decoded', async () => {
    const path = join(dir, 'bomb.gz');
    writeFileSync(path, gzipSync(Buffer.alloc(8 * 1024 * 1024, 'A'), { level: 9 }));
    let handed = 0;
    const read = await readCompressed(path, 'gzip', { maxBytes: 64 * 1024 * 1024, maxRatio: 100, ratioFloorBytes: 1024 * 1024 }, (piece) => {
      handed += piece.byteLength;
    });
    assert.equal(read.kind, 'bomb');
    assert.ok(read.kind === 'bomb' && read.bytesSeen > 1024 * 1024 && read.bytesSeen < 8 * 1024 * 1024, `stopped early: ${JSON.stringify(read)}`);
    assert.ok(handed <= (read.kind === 'bomb' ? read.bytesSeen : 0));
  });

  it('a sample of the compressed bytes gives the ratio for an estimate', async () => {
    const read = await readCompressed(join(dir, 'a.log.gz'), 'gzip', { maxBytes: 10 * 1024 * 1024, sampleStoredBytes: 20_000 }, () => undefined);
    assert.equal(read.kind, 'stopped');
    assert.ok(read.kind === 'stopped' && read.takenBytes >= 20_000 && read.bytes > read.takenBytes);
  });

  it('refuses a file that is not what its name says, an empty one, a link at the last step and a FIFO', { skip: process.platform === 'win32' && 'FIFOs are POSIX' }, async () => {
    writeFileSync(join(dir, 'plain.gz'), 'not gzip at all');
    const plain = await readCompressed(join(dir, 'plain.gz'), 'gzip', { maxBytes: 1000 }, () => undefined);
    assert.deepEqual(plain, { kind: 'corrupt', detail: 'not valid gzip data (it does not start as gzip data does)' });
    writeFileSync(join(dir, 'empty.gz'), '');
    assert.equal((await readCompressed(join(dir, 'empty.gz'), 'gzip', { maxBytes: 1000 }, () => undefined)).kind, 'corrupt');
    const truncated = gzipSync(TEXT).subarray(0, 2000);
    writeFileSync(join(dir, 'cut.gz'), truncated);
    assert.equal((await readCompressed(join(dir, 'cut.gz'), 'gzip', { maxBytes: 10_000_000 }, () => undefined)).kind, 'corrupt');
    symlinkSync(join(dir, 'a.log.gz'), join(dir, 'link.gz'));
    assert.equal((await readCompressed(join(dir, 'link.gz'), 'gzip', { maxBytes: 10_000_000, noFollow: true }, () => undefined)).kind, 'link');
    execFileSync('mkfifo', [join(dir, 'pipe.gz')]);
    assert.deepEqual(await readCompressed(join(dir, 'pipe.gz'), 'gzip', { maxBytes: 1000 }, () => undefined), { kind: 'special', special: 'FIFO' });
    const outside = await readCompressed(join(dir, 'a.log.gz'), 'gzip', { maxBytes: 10_000_000, within: ['/nonexistent-root'] }, () => undefined);
    assert.equal(outside.kind, 'outside');
  });
});
