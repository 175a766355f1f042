// Runs recorded in a project's default ./.rlm/runs hold earlier questions and answers: a later `rlm ask`
// about the whole folder must not read them (nor must git see them). The built CLI, twice, on one folder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

describe('rlm ask on a folder holding its own recorded runs', () => {
  let dir: string;
  let server: FakeModelServer;
  // HOME elsewhere: the REPL's snapshot cache lives under it and is no part of the project.
  let home: string;
  before(async () => {
    assertCliBuilt();
    home = mkdtempSync(join(tmpdir(), 'rlm-runs-home-'));
    dir = mkdtempSync(join(tmpdir(), 'rlm-runs-out-'));
    writeFileSync(join(dir, 'notes.txt'), 'the secret plan is in the notes\n');
    // The root lists the files it was given; the answer is that list.
    server = await startFakeModelServer({ protocol: 'openai', respond: () => '```repl\nFINAL(", ".join(sorted(context.keys())))\n```' });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('records the first run in .rlm/runs with a .gitignore, and the second run reads only the project', async () => {
    const ask = (question: string) => runCli(['ask', '.', '-q', question, '--base-url', server.baseUrl, '--model', 'fake-model', '--quiet'], dir, { HOME: home });
    const first = await ask('Which files are there?');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'notes.txt');
    assert.equal(readdirSync(join(dir, '.rlm', 'runs')).filter((f) => f.endsWith('.rlm.jsonl')).length, 1, 'the first run was recorded in ./.rlm/runs');
    assert.match(readFileSync(join(dir, '.rlm', '.gitignore'), 'utf8'), /^\*$/m);

    const second = await ask('Which files are there now?');
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), 'notes.txt', 'the earlier run\'s record is not part of the folder');
  });

  it('leaves a .rlm folder that already exists as the user keeps it (no .gitignore written into it)', async () => {
    const other = mkdtempSync(join(tmpdir(), 'rlm-runs-kept-'));
    try {
      writeFileSync(join(other, 'a.txt'), 'a\n');
      const runs = join(other, '.rlm');
      // A user who deleted the .gitignore to keep runs in git: the folder exists, the file does not.
      mkdirSync(runs);
      const out = await runCli(['ask', '.', '-q', 'q', '--base-url', server.baseUrl, '--model', 'fake-model', '--quiet'], other, { HOME: home });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(existsSync(join(runs, '.gitignore')), false);
      assert.equal(readdirSync(join(runs, 'runs')).length, 1);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
