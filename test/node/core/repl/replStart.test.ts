import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReplSession } from '../../../../src/core/repl/replSession';
import { ReplStartError } from '../../../../src/core/repl/replErrors';
import { replChildPids, repoRoot, startSession } from './replTestKit';

test('a missing REPL bundle is a ReplStartError that says how to fix it, and nothing is forked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-nodist-'));
  try {
    await assert.rejects(
      createReplSession({ distDir: dir, bridge: async () => [] }),
      (err: unknown) => err instanceof ReplStartError && err.message.includes(join(dir, 'replProcess.js')) && /npm run build/.test(err.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a start that times out is retried with the relay before the session gives up, and says so', async () => {
  const logs: string[] = [];
  // 1 ms: no start can make it, so every fallback is tried and the last error is the timeout.
  await assert.rejects(
    createReplSession({ distDir: join(repoRoot, 'dist'), bridge: async () => [], startTimeoutMs: 1, log: (m) => logs.push(m) }),
    (err: unknown) => err instanceof ReplStartError && err.timedOut && /did not become ready within 1 ms/.test(err.message),
  );
  assert.ok(logs.some((m) => /retrying with sub-calls relayed/.test(m)), logs.join('\n'));
});

test('the REPL process runs V8 without helper threads (--single-threaded), through whatever wrapper starts it, and runs cells', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const others = new Set(replChildPids());
  const session = await startSession();
  try {
    const pid = replChildPids().find((p) => !others.has(p));
    assert.ok(pid, 'no REPL process found');
    // The command line of the process itself, not the plan: a wrapper (unshare, sh -c) must pass it on.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const script = args.findIndex((a) => a.endsWith('replProcess.js'));
    assert.ok(script > 0, args.join(' '));
    assert.ok(args.slice(0, script).includes('--single-threaded'), args.join(' '));
    const r = await session.execute('x = sum(range(1000))\nprint(x)');
    assert.equal(r.stdout, '499500\n');
  } finally {
    await session.close();
  }
});

test('a start signal that outlives the starts (a pool\'s) keeps no listener once each process is ready', async () => {
  const pool = new AbortController();
  const sessions = [];
  try {
    for (let i = 0; i < 3; i++) {
      sessions.push(await startSession({ startSignal: pool.signal }));
      // Each start listened for the abort while it was under way; a listener left behind held its process.
      assert.equal(getEventListeners(pool.signal, 'abort').length, 0, `after start ${i + 1}`);
    }
    assert.equal((await sessions[2]!.execute('print(1 + 1)')).stdout, '2\n');
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
});
