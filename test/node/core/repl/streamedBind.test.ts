// Binding through the real REPL process as a stream of frames: entries that span the relay's 1 MB pieces,
// multi-byte characters cut at a piece's edge, many small files in one piece, empty files, a folder read
// from disk while it streams, and an aborted bind (a file that shrank) after which the session binds again.
// Closing a session while it binds ends the bind at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import { ContextChangedError } from '../../../../src/core/repl/contextStream';
import { ReplClosedError } from '../../../../src/core/repl/replErrors';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { recordingBridge, replChildPids, startSession } from './replTestKit';

describe('REPL session: streamed binding', () => {
  let session: ReplSession;
  let dir: string;
  before(async () => {
    session = await startSession({ bridge: recordingBridge().handler });
    dir = mkdtempSync(join(tmpdir(), 'rlm-streamed-'));
  });
  after(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a text of several MB with multi-byte characters at every piece edge arrives whole', async () => {
    // 3-byte characters: the 1 MB pieces cut through them again and again.
    const text = `${'€'.repeat(1_500_000)}END`;
    const meta = await session.bindContext({ kind: 'text', text });
    assert.equal(meta.totalChars, 1_500_003);
    assert.equal(meta.invalidUtf8Replacements, 0);
    const r = await session.execute("print(len(context), context[-3:], context.count('€'))");
    assert.equal(r.stdout, '1500003 END 1500000\n');
  });

  it('thousands of small files, empty ones and one larger than a piece bind as a dict in order', async () => {
    const files = Array.from({ length: 3000 }, (_, i) => ({ path: `src/f${String(i).padStart(4, '0')}.txt`, content: i % 500 === 0 ? '' : `file ${i}\n` }));
    files.push({ path: 'zz/large.txt', content: 'L'.repeat(2_500_000) });
    const meta = await session.bindContext({ kind: 'files', files });
    assert.equal(meta.fileCount, 3001);
    const r = await session.execute("ks = list(context)\nprint(len(ks), ks[0], ks[-1], repr(context['src/f0000.txt']), context['src/f0001.txt'].strip(), len(context['zz/large.txt']))");
    assert.equal(r.stdout, "3001 src/f0000.txt zz/large.txt '' file 1 2500000\n");
  });

  it('a folder on disk is read while it streams; a binary by content is left out and reported', async () => {
    mkdirSync(join(dir, 'proj'));
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, 'proj', `n${i}.txt`), `note ${i}\n`);
    writeFileSync(join(dir, 'proj', 'x.bin.txt'), Buffer.from([1, 0, 2]));
    const plan = await planPaths(['proj'], { cwd: dir });
    const meta = await session.bindContext({ kind: 'plan', plan });
    assert.equal(meta.fileCount, 200);
    assert.deepEqual(meta.leftOut, [{ path: 'proj/x.bin.txt', reason: 'binary', bytes: 3 }]);
    const r = await session.execute("print(context['proj/n7.txt'], end='')");
    assert.equal(r.stdout, 'note 7\n');
  });

  it('a file that shrank while read is an error, nothing stale stays bound, and the next bind works', async () => {
    const path = join(dir, 'shrinks.log');
    writeFileSync(path, 'q'.repeat(3 * 1024 * 1024));
    const plan = await planPaths([path], { cwd: dir });
    truncateSync(path, 100);
    await assert.rejects(session.bindContext({ kind: 'plan', plan }), ContextChangedError);
    await session.bindContext({ kind: 'text', text: 'fresh' });
    const r = await session.execute('print(context)');
    assert.equal(r.stdout, 'fresh\n');
  });

  it('closing the session ends a bind that waits for the REPL\'s reply at once (its 30 s timer would hold the process)', async () => {
    const others = new Set(replChildPids());
    const closing = await startSession({ bridge: recordingBridge().handler });
    const pid = replChildPids().find((p) => !others.has(p));
    assert.ok(pid, 'no REPL process found');
    // Stopped, the REPL takes the bytes (the pipe holds them) but never answers: the bind is left
    // waiting for Python's reply, as a slow decode leaves it on a loaded machine.
    process.kill(pid, 'SIGSTOP');
    const started = performance.now();
    const binding = closing.bindContext({ kind: 'text', text: 'a small context\n' });
    binding.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    await closing.close();
    await assert.rejects(binding, ReplClosedError);
    const ms = performance.now() - started;
    // Before, the bind waited for its hung-bind timer: 30 s.
    assert.ok(ms < 10_000, `the bind ended ${Math.round(ms)} ms after it began`);
  });
});
