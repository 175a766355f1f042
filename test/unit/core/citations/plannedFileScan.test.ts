import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { lookupForSource } from '../../../../src/core/citations/citationResolve';
import { plannedFileScanner } from '../../../../src/core/citations/plannedFileScan';
import { planPaths } from '../../../../src/core/context/contextPlan';

async function scanned(scan: (onChunk: (bytes: Uint8Array) => void) => Promise<boolean>): Promise<{ ok: boolean; text: string; largest: number }> {
  const parts: Buffer[] = [];
  let largest = 0;
  const ok = await scan((bytes) => {
    largest = Math.max(largest, bytes.length);
    parts.push(Buffer.from(bytes)); // copied: the view is reused
  });
  return { ok, text: Buffer.concat(parts).toString('utf8'), largest };
}

test('planned files are scanned again with the checks of binding: a link swapped in is refused, a file that grew is streamed whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-planned-scan-'));
  try {
    mkdirSync(join(dir, 'proj'));
    writeFileSync(join(dir, 'proj', 'small.txt'), 'alpha\nbeta\n');
    writeFileSync(join(dir, 'proj', 'grows.txt'), 'short\n');
    writeFileSync(join(dir, 'proj', 'swapped.txt'), 'was a file\n');
    writeFileSync(join(dir, 'secret.txt'), 'SECRET OUTSIDE\n');
    const plan = await planPaths(['proj'], { cwd: dir });
    // After the walk: one file grows past the 1 MiB read buffer, another becomes a link out of the folder.
    const grown = `${'0123456789abcdef'.repeat(4096)}\n`.repeat(40);
    appendFileSync(join(dir, 'proj', 'grows.txt'), grown);
    rmSync(join(dir, 'proj', 'swapped.txt'));
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'proj', 'swapped.txt'));
    const lookup = lookupForSource({ kind: 'plan', plan: { ...plan, maxFileBytes: 8 * 1024 * 1024 } }, plannedFileScanner());
    assert.deepEqual(await scanned((onChunk) => lookup.scan('proj/small.txt', onChunk)), { ok: true, text: 'alpha\nbeta\n', largest: 11 });
    const big = await scanned((onChunk) => lookup.scan('proj/grows.txt', onChunk));
    assert.equal(big.ok, true);
    assert.equal(big.text, `short\n${grown}`);
    assert.ok(big.largest <= 1024 * 1024, 'streamed in chunks of at most 1 MiB');
    const link = await scanned((onChunk) => lookup.scan('proj/swapped.txt', onChunk));
    assert.equal(link.ok, false);
    assert.equal(link.text, '', 'nothing read through the link');
    assert.equal((await scanned((onChunk) => lookup.scan('proj/absent.txt', onChunk))).ok, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
