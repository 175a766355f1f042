// `--batch` end to end (dist/cli.js, the real REPL and SDK, a fake OpenAI server with batch endpoints):
// a run killed while it waits for its provider batch (as a crash or a closed window would end it) is
// taken up by `rlm continue <trajectory>` with no question, which polls the recorded batch and answers
// from it: the server sees one batch created, never two. Ctrl-C cancels the batch and says what was billed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrajectory } from '../../../src/core/trajectory/trajectoryReader';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';
import { assertCliBuilt, runCli } from './cliProcess';

const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');
const turnOf = (r: FakeModelRequest): number => r.messages.filter((m) => m.role === 'assistant').length;
const CELL = '```repl\nout = "\\n".join(llm_query_batched([f"line {i}: " + l for i, l in enumerate(context.splitlines()[:25])]))\nprint(out)\n```';

function respond(r: FakeModelRequest): string {
  if (!isRoot(r)) return `summary of ${(r.messages.at(-1)?.content ?? '').split(':')[0]}`;
  return turnOf(r) === 0 ? CELL : '```repl\nFINAL_VAR("out")\n```';
}

describe('rlm --batch: a killed run resumed from its record, and Ctrl-C (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  // The server's clock: a batch stays in progress until the test moves it on.
  let clock = 1_000_000;
  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-batch-cli-'));
    writeFileSync(join(dir, 'data.txt'), `${Array.from({ length: 30 }, (_, i) => `record ${i}`).join('\n')}\n`);
    server = await startFakeModelServer({ protocol: 'openai', respond, now: () => clock, batches: { processingMs: 60_000 } });
  });
  after(async () => {
    await server.close();
  });

  it('rlm continue polls the recorded batch instead of sending it again', async () => {
    const record = join(dir, 'killed.rlm.jsonl');
    const first = await runCli(['ask', 'data.txt', '-q', 'Summarise each line', '--base-url', server.baseUrl, '--model', 'fake', '--batch', 'always', '--verbose', '--trajectory', record], dir, {}, (stderr, child) => {
      // Killed the moment the batch is on its way: nothing of the run gets to end cleanly.
      if (stderr.includes('waiting for it') && !child.killed) child.kill('SIGKILL');
    });
    assert.equal(first.code, null, `killed, not exited: ${first.stderr}`);
    assert.equal(server.batchStore.creations, 1);
    const recorded = await readTrajectory(record);
    const batches = recorded.tree!.turns.flatMap((t) => t.cells.flatMap((c) => c.providerBatches ?? []));
    assert.equal(batches.length, 1);
    assert.equal(batches[0]!.providerBatchId, server.batchStore.batches[0]!.id);
    assert.equal(batches[0]!.items.length, 25);

    clock += 3_600_000; // the provider finishes the batch meanwhile
    const resumed = join(dir, 'resumed.rlm.jsonl');
    const second = await runCli(['continue', record, '--base-url', server.baseUrl, '--model', 'fake', '--trajectory', resumed], dir);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /waiting for a provider batch at turn 1; its results are read from the provider/);
    assert.deepEqual(second.stdout.trim().split('\n'), Array.from({ length: 25 }, (_, i) => `summary of line ${i}`));
    assert.equal(server.batchStore.creations, 1, 'nothing was sent, or billed, twice');
    assert.equal(server.completionRequests.filter((r) => !isRoot(r.parsed!)).length, 0, 'no ordinary sub-call either');
    const again = await readTrajectory(resumed);
    const taken = again.tree!.turns.flatMap((t) => t.cells.flatMap((c) => c.providerBatches ?? []));
    assert.equal(taken[0]?.resumed, true);
    assert.equal(taken[0]?.ended, true);
  });

  it('Ctrl-C cancels the provider batch and says what was already billed', async () => {
    const record = join(dir, 'cancelled.rlm.jsonl');
    const before = server.batchStore.creations;
    let stopped = false;
    const out = await runCli(['ask', 'data.txt', '-q', 'Summarise each line', '--base-url', server.baseUrl, '--model', 'fake', '--batch', 'always', '--verbose', '--trajectory', record], dir, {}, (stderr, child) => {
      if (stderr.includes('waiting for it') && !stopped) {
        stopped = true;
        clock += 12_000; // a fifth of the requests have run when the user stops
        child.kill('SIGINT');
      }
    });
    assert.equal(out.code, 130, out.stderr);
    assert.equal(server.batchStore.creations, before + 1);
    assert.ok(server.requests.some((r) => r.method === 'POST' && r.path.endsWith('/cancel')));
    assert.match(out.stderr, /cancelled after .*; \d+ already run and billed at the batch price/);
  });

  it("a batch that fails as a whole is said once on stderr with the provider's reason, even without --verbose", async () => {
    const failing = await startFakeModelServer({ protocol: 'openai', respond, batches: { failWith: [{ code: 'invalid_request', message: 'this model has no batch access', line: 1 }] } });
    try {
      const out = await runCli(['ask', 'data.txt', '-q', 'Summarise each line', '--base-url', failing.baseUrl, '--model', 'fake', '--batch', 'always'], dir);
      const said = out.stderr.split('\n').filter((l) => /ended \(failed\) after .*: invalid_request: this model has no batch access \(line 1\)/.test(l));
      assert.equal(said.length, 1, out.stderr);
      // Each item carries the reason too: the root saw it in the cell's output.
      assert.match(out.stdout, /\[ERROR\] batch_errored: provider batch \S+ failed \(failed\): invalid_request: this model has no batch access/);
    } finally {
      await failing.close();
    }
  });
});
