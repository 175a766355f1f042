// The CLI's sub-call cache as a user meets it: a second identical `rlm ask` sends no sub-call again,
// --no-cache and --refresh-cache send them, --cache-dir moves the cache, another working directory
// has its own, and `rlm cache info|clear` report and empty it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const SUB = 'Digest in one word:';

describe('rlm ask with the sub-call cache (dist/cli.js)', () => {
  let dir: string;
  let cacheRoot: string;
  let server: FakeModelServer;
  let answers = 0;
  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-cache-e2e-'));
    cacheRoot = join(dir, 'cache-root');
    mkdirSync(join(dir, 'project'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'project', 'notes.txt'), 'alpha\n');
    writeFileSync(join(dir, 'other', 'notes.txt'), 'alpha\n');
    server = await startFakeModelServer({
      protocol: 'openai',
      respond: (r) => {
        const last = r.messages.at(-1)?.content ?? '';
        if (last.startsWith(SUB)) return `digest-${++answers}`;
        if (r.messages.some((m) => m.role === 'assistant')) return '```repl\nFINAL_VAR("out")\n```';
        return '```repl\nout = llm_query("' + SUB + ' " + context)\nprint(out)\n```';
      },
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const subRequests = (): number => server.completionRequests.filter((r) => r.parsed?.messages.at(-1)?.content.startsWith(SUB)).length;
  const ask = async (cwd: string, ...flags: string[]) => {
    const out = await runCli(['ask', 'notes.txt', '-q', 'Digest?', '--base-url', server.baseUrl, '--model', 'fake', '--json', '--quiet', ...flags], cwd, { RLM_CACHE_DIR: cacheRoot });
    assert.equal(out.code, 0, out.stderr);
    return JSON.parse(out.stdout) as { answer: string; usage: { cachedSubCalls?: number; savedUsd?: number } };
  };

  it('answers a repeated sub-call from disk, per working directory, unless told not to', async () => {
    const project = join(dir, 'project');
    assert.equal((await ask(project)).answer, 'digest-1');
    const again = await ask(project);
    assert.equal(again.answer, 'digest-1');
    const shown = await runCli(['show', (again as unknown as { trajectory: string }).trajectory], project);
    assert.match(shown.stdout, /^Cache: +1 sub-call answered from the sub-call cache$/m, shown.stdout);
    assert.equal(subRequests(), 1, 'the second ask sent no sub-call');
    assert.equal(again.usage.cachedSubCalls, 1);

    assert.equal((await ask(join(dir, 'other'))).answer, 'digest-2', 'another folder has its own cache');
    assert.equal((await ask(project, '--no-cache')).answer, 'digest-3', '--no-cache sends');
    assert.equal((await ask(project)).answer, 'digest-1', '--no-cache stored nothing');
    assert.equal((await ask(project, '--refresh-cache')).answer, 'digest-4', '--refresh-cache sends');
    assert.equal((await ask(project)).answer, 'digest-4', 'and stores the fresh answer');
    assert.equal(subRequests(), 4);

    const elsewhere = join(dir, 'elsewhere-cache');
    assert.equal((await ask(project, '--cache-dir', elsewhere)).answer, 'digest-5', 'a new cache folder starts empty');
    assert.equal((await ask(project, '--cache-dir', elsewhere)).answer, 'digest-5');

    const info = await runCli(['cache', 'info'], project, { RLM_CACHE_DIR: cacheRoot });
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, /^.*cache-root.*\n1 cached answer, /);
    const cleared = await runCli(['cache', 'clear'], project, { RLM_CACHE_DIR: cacheRoot });
    assert.match(cleared.stdout, /cleared 1 cached answer/);
    assert.equal((await ask(project)).answer, 'digest-6', 'cleared: sent again');
    assert.equal((await ask(join(dir, 'other'))).answer, 'digest-2', 'clearing one folder kept the other');
  });

  it('refuses contradictory or empty cache flags with a usage error', async () => {
    const both = await runCli(['ask', 'notes.txt', '-q', 'x', '--model', 'm', '--no-cache', '--refresh-cache'], join(dir, 'project'));
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--no-cache and --refresh-cache cannot be used together/);
    const bad = await runCli(['cache', 'purge'], join(dir, 'project'));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown action "purge"/);
  });
});
