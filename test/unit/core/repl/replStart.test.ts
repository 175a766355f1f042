import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReplSession } from '../../../../src/core/repl/replSession';
import { ReplStartError } from '../../../../src/core/repl/replErrors';

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
