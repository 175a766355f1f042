// `rlm ask` on inputs that are not plain files, as a user would type it: a FIFO or a device is refused
// at once with exit 2 (before any model is asked), and a folder holding them says what it skipped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

describe('rlm ask refuses special files (dist/cli.js)', { skip: process.platform === 'win32' && 'FIFOs and /dev are POSIX' }, () => {
  let dir: string;
  let outside: string;
  let server: FakeModelServer;
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-special-cli-'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs/app.log'), 'ERROR disk full\n');
    execFileSync('mkfifo', [join(dir, 'logs/live.fifo')]);
    outside = mkdtempSync(join(tmpdir(), 'rlm-special-outside-'));
    writeFileSync(join(outside, 'secret'), 'not yours');
    symlinkSync(join(outside, 'secret'), join(dir, 'logs/host'));
    server = await startFakeModelServer({ protocol: 'openai', respond: () => '```repl\nFINAL(str(sorted(context)))\n```' });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  for (const [name, path, kind] of [['a FIFO', 'pipe', 'FIFO'], ['/dev/zero', '/dev/zero', 'character device'], ['/dev/urandom', '/dev/urandom', 'character device']] as const) {
    it(`refuses ${name} at once with exit 2 and says what it is`, async () => {
      const out = await runCli(['ask', path, '-q', 'what is in it?', ...model()], dir, {}, undefined, 15_000);
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, new RegExp(`is a ${kind}, not a regular file or folder`));
      assert.equal(server.requests.length, 0, 'no model was asked');
      assert.ok(out.ms < 10_000, `took ${out.ms} ms`);
    });
  }

  it('--context-limit-mb is enforced before anything is read or sent, and --max-file-kb skips large files in a folder', async () => {
    writeFileSync(join(dir, 'two-mb.log'), 'x'.repeat(2 * 1024 * 1024));
    const refused = await runCli(['ask', 'two-mb.log', '-q', 'what?', ...model(), '--context-limit-mb', '1'], dir, {}, undefined, 15_000);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /holds 2\.0 MB, over the 1\.0 MB limit/);
    assert.equal(server.requests.length, 0, 'no model was asked');
    const bad = await runCli(['ask', 'two-mb.log', '-q', 'what?', ...model(), '--context-limit-mb', 'lots'], dir, {}, undefined, 15_000);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--context-limit-mb must be a positive number/);
    mkdirSync(join(dir, 'mixed'));
    writeFileSync(join(dir, 'mixed/small.txt'), 'small');
    writeFileSync(join(dir, 'mixed/large.txt'), 'y'.repeat(4096));
    const out = await runCli(['ask', 'mixed', '-q', 'which files?', ...model(), '--max-file-kb', '2', '-v', '--trajectory', 'm.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "['mixed/small.txt']");
    assert.match(out.stderr, /skipped mixed\/large\.txt \(too-large, 4096 bytes\)/);
  });

  it('reads a folder holding a FIFO and a link out of it, reads only the log, and says what it skipped', async () => {
    const out = await runCli(['ask', 'logs', '-q', 'which files?', ...model(), '--trajectory', 't.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "['logs/app.log']");
    assert.match(out.stderr, /skipped 1 device, FIFO or socket, 1 symlink leading out of the folder \(--verbose lists them\)/);
    const verbose = await runCli(['ask', 'logs', '-q', 'which files?', ...model(), '-v', '--trajectory', 'v.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.match(verbose.stderr, /skipped logs\/live\.fifo \(special: FIFO\)/);
    assert.match(verbose.stderr, /skipped logs\/host \(link-outside: link to .*secret, outside the folder\)/);
  });
});
