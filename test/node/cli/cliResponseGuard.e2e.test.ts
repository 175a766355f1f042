// `rlm ask` (dist/cli.js) against model servers that never finish, without --timeout: the run ends
// soon after the stall or size limit set on the command line, with exit 1, the error on stderr and
// in --json, and the trajectory closed with it. Bad values are usage errors (exit 2).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startHostileServer } from '../../fakes/fakeHostileServer';
import type { HostileBehaviour, HostileServer } from '../../fakes/fakeHostileServer';

describe('rlm ask against endless model servers (dist/cli.js)', () => {
  let dir: string;
  const servers: HostileServer[] = [];
  before(() => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-guard-'));
    writeFileSync(join(dir, 'notes.txt'), 'Some notes.\n');
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function ask(behaviour: HostileBehaviour, flags: string[], name: string) {
    const server = await startHostileServer('openai', behaviour);
    servers.push(server);
    const trajectory = join(dir, `${name}.rlm.jsonl`);
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', '--base-url', server.baseUrl, '--model', 'm', '--json', '--trajectory', trajectory, ...flags], dir, {}, undefined, 30_000);
    const last = JSON.parse(readFileSync(trajectory, 'utf8').trim().split('\n').at(-1)!) as { type: string; status: string; error?: { kind: string; message: string } };
    return { out, last, server, json: JSON.parse(out.stdout) as { status: string; error?: { kind: string; message: string } } };
  }

  it('a root model that goes silent ends the run after --stall-timeout (exit 1, kind timeout)', async () => {
    const { out, last, json } = await ask({ kind: 'silent-after-start' }, ['--stall-timeout', '0.5'], 'stall');
    assert.equal(out.code, 1, out.stderr);
    assert.equal(json.status, 'error');
    assert.equal(json.error?.kind, 'timeout');
    assert.match(out.stderr, /no bytes arrived for 0\.5 s.*--stall-timeout/);
    assert.equal(last.type, 'run.finished');
    assert.equal(last.error?.kind, 'timeout');
    // REPL start included; the point is that it ends at all, where before it waited forever.
    assert.ok(out.ms < 20_000, `took ${out.ms} ms`);
  });

  it('a root model that streams forever is cut at --max-response-mb (exit 1, kind bad_response)', async () => {
    const { out, last, json, server } = await ask({ kind: 'endless', intervalMs: 20, deltaChars: 16_384 }, ['--max-response-mb', '0.25'], 'endless');
    assert.equal(out.code, 1, out.stderr);
    assert.equal(json.error?.kind, 'bad_response');
    assert.match(out.stderr, /passed the 0\.25 MB limit.*--max-response-mb/);
    assert.equal(last.error?.kind, 'bad_response');
    assert.equal(server.requests.length, 1, 'not retried');
  });

  it('refuses values that are not positive numbers (exit 2)', async () => {
    for (const flags of [['--stall-timeout', '0'], ['--max-response-mb', 'lots']]) {
      const out = await runCli(['ask', 'notes.txt', '-q', 'q', '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', ...flags], dir, {});
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, new RegExp(`${flags[0]} must be a positive number`));
    }
  });
});
