// The REPL warms the first cell's hot paths (a regex over `context`, its lines) in steps while it waits
// (cell_runner.py, hot_path_steps; replWorker.ts). The warm-up must never be seen: a cell that arrives in the
// middle of it still stops at its soft timeout, the namespace and the cell numbers are as without it,
// and a bind that comes first is not held up by it. Its speed-up is a bench figure ("a run's first
// regex over a 50 MB context").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSession } from './replTestKit';

const NAMES = 'print(sorted(k for k in globals() if not k.startswith("__")), _ if "_" in globals() else None)';

describe('hot-path warm-up in a fresh REPL', () => {
  it('a cell sent while the warm-up runs still stops at its soft timeout, interrupted, never killed', async () => {
    // Sent at once and a few ms apart, so the cell lands before, in and after warm-up steps.
    for (const delay of [0, 3, 9, 20]) {
      const session = await startSession();
      try {
        await new Promise((resolve) => setTimeout(resolve, delay));
        const r = await session.execute('kept = 1\nwhile True:\n    pass', { timeoutMs: 400 });
        assert.equal(r.timedOut, true, `delay ${delay} ms: ${JSON.stringify(r.error)}`);
        assert.equal(r.restarted, undefined, `delay ${delay} ms: the cell was killed, not interrupted`);
        assert.equal((await session.execute('kept')).stdout, '1\n', 'the variables before the interrupt are kept');
      } finally {
        await session.close();
      }
    }
  });

  it('leaves no name, output or cell number behind, whether it finished or was cut short', async () => {
    const seen: string[] = [];
    for (const wait of [0, 1500]) {
      const session = await startSession();
      try {
        await new Promise((resolve) => setTimeout(resolve, wait));
        const r = await session.execute(NAMES);
        assert.equal(r.stderr, '');
        assert.equal(r.outIndex, 1, 'the first cell is cell 1');
        seen.push(r.stdout);
      } finally {
        await session.close();
      }
    }
    assert.equal(seen[0], seen[1], 'the same namespace with and without a finished warm-up');
  });

  it('pauses for a bind, and the bound context is whole', async () => {
    const session = await startSession();
    try {
      const text = `${'the secret is elsewhere, the key is 123\n'.repeat(100_000)}the secret key is 4242\n`;
      await session.bindContext({ kind: 'text', text: Buffer.from(text) });
      const r = await session.execute('import re\nprint(len(context), re.findall(r"secret key is (\\d+)", context))');
      assert.equal(r.stdout, `${text.length} ['4242']\n`);
    } finally {
      await session.close();
    }
  });
});
