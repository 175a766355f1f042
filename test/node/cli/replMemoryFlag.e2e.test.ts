// `rlm ask --repl-memory-mb` end to end: the built dist/cli.js against a fake server whose model
// allocates 300 MB in a cell. Under a 128 MB cap the cell fails with MemoryError and the run goes on to
// its answer; the control without the flag (the 2048 MB default) lets the same cell allocate.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

function script(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return '```repl\ntry:\n    x = bytearray(300 * 1024**2)\n    outcome = "allocated"\nexcept MemoryError:\n    outcome = "MemoryError"\nprint(outcome)\n```';
  return '```repl\nFINAL(outcome)\n```';
}

describe('rlm ask --repl-memory-mb (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-mem-'));
    writeFileSync(join(dir, 'notes.txt'), 'a small file\n');
    server = await startFakeModelServer({ protocol: 'openai', respond: script });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (extra: string[]) => runCli(['ask', 'notes.txt', '-q', 'q', '--base-url', server.baseUrl, '--model', 'fake-model', '--json', ...extra], dir, {});

  it('a cell past the cap gets MemoryError, and the run completes', async () => {
    const out = await ask(['--repl-memory-mb', '128']);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout) as { answer: string; status: string };
    assert.deepEqual([json.answer, json.status], ['MemoryError', 'completed']);
  });

  it('control: under the default cap the same cell allocates', async () => {
    const out = await ask([]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as { answer: string }).answer, 'allocated');
  });

  it('refuses a cap wasm cannot give', async () => {
    const out = await ask(['--repl-memory-mb', '9000']);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /--repl-memory-mb must be between 64 and 4096/);
  });
});
