// `rlm ask` on logs as people have them: compressed (.gz, .bz2, .xz, .zst), rotated in a folder, and a
// gzip bomb, asked through the built CLI against the fake model server. The inputs are made here: gzip
// with Node's zlib, the others with the system's bzip2, xz and zstd when installed (skipped if not).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip, gzipSync } from 'node:zlib';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const LOG = Array.from({ length: 5000 }, (_, i) => `2026-12-05T06:${String(i % 60).padStart(2, '0')}:00Z ${i % 97 === 0 ? 'ERROR disk full on /var' : 'INFO request served'} id=${i}\n`).join('');

function hasTool(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A gzip file of `mb` MB of one letter: tiny on disk, huge when decoded. Written in pieces, never whole in memory. */
async function gzipBomb(path: string, mb: number): Promise<void> {
  const gzip = createGzip({ level: 9 });
  const out = createWriteStream(path);
  gzip.pipe(out);
  const piece = Buffer.alloc(1024 * 1024, 'A');
  for (let i = 0; i < mb; i++) if (!gzip.write(piece)) await once(gzip, 'drain');
  gzip.end();
  await once(out, 'finish');
}

describe('rlm ask on compressed and rotated logs (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  /** The body of the root's first request: what the model was told about the input. */
  const firstRequest = (since: number): string => server.completionRequests[since]?.rawBody ?? '';

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-compressed-cli-'));
    writeFileSync(join(dir, 'app.log'), LOG);
    writeFileSync(join(dir, 'app.log.gz'), gzipSync(LOG));
    for (const tool of ['bzip2', 'xz', 'zstd']) if (hasTool(tool)) execFileSync(tool, ['-k', '-q', '-f', join(dir, 'app.log')]);
    // A rotated set: the newest part plain, the previous plain, older ones compressed.
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs/app.log'), 'newest line\n');
    writeFileSync(join(dir, 'logs/app.log.1'), 'previous line\n');
    writeFileSync(join(dir, 'logs/app.log.2.gz'), gzipSync('older line\n'));
    writeFileSync(join(dir, 'logs/app.log.10.gz'), gzipSync('oldest line\n'));
    writeFileSync(join(dir, 'logs/other.txt'), 'not a log\n');
    writeFileSync(join(dir, 'notgzip.log.gz'), 'this was never compressed\n');
    await gzipBomb(join(dir, 'bomb.log.gz'), 100);
    server = await startFakeModelServer({
      protocol: 'openai',
      // For a str: its length and where ERROR first is; for a dict: its keys in order and the texts joined.
      respond: () => "```repl\nif isinstance(context, str):\n    FINAL('%d|%d|%s' % (len(context), context.count('ERROR'), context[:24]))\nelse:\n    FINAL(repr(list(context)) + '|' + ''.join(context.values()).replace('\\n', ';'))\n```",
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [ext, tool] of [['gz', undefined], ['bz2', 'bzip2'], ['xz', 'xz'], ['zst', 'zstd']] as const) {
    it(`reads app.log.${ext} as the text it holds, and tells the model it was ${ext}-compressed`, { skip: tool !== undefined && !hasTool(tool) && `${tool} is not installed` }, async () => {
      const since = server.completionRequests.length;
      const out = await runCli(['ask', `app.log.${ext}`, '-q', 'how many errors?', ...model()], dir, {}, undefined, 60_000);
      assert.equal(out.code, 0, out.stderr);
      const errors = LOG.split('ERROR').length - 1;
      assert.equal(out.stdout.trim(), `${LOG.length}|${errors}|${LOG.slice(0, 24)}`);
      const told = firstRequest(since);
      assert.match(told, /read decompressed from a (gzip|bzip2|xz|zstd)-compressed file/);
      assert.ok(told.includes('2026-12-05T06:00:00Z ERROR disk full on /var id=0'), 'the prefix shown is the decompressed text');
      assert.doesNotMatch(out.stderr, /Warning/, "no decoder's warning reaches the terminal");
    });
  }

  it('reads a rotated set oldest first, decompressing the old parts, and says it is one log in several parts', async () => {
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'logs', '-q', 'what happened?', ...model(), '--trajectory', 'rotated.rlm.jsonl'], dir, {}, undefined, 60_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "['logs/app.log.10.gz', 'logs/app.log.2.gz', 'logs/app.log.1', 'logs/app.log', 'logs/other.txt']|oldest line;older line;previous line;newest line;not a log;");
    const told = firstRequest(since);
    assert.match(told, /Rotated logs: each of these is one log in several parts/);
    assert.match(told, /logs\/app\.log: 4 parts/);
    assert.match(told, /2 of the files were read decompressed/);
    const shown = await runCli(['show', 'rotated.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Input: +dict, [\d,]+ characters in 5 files, 2 files read decompressed; rotated logs read oldest first: logs\/app\.log \(4 parts\)/);
  });

  it('refuses a gzip bomb past the limit with one sentence, before any model is asked', async () => {
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'bomb.log.gz', '-q', 'what?', ...model(), '--context-limit-mb', '16'], dir, {}, undefined, 60_000);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /bomb\.log\.gz expands to more than the 16\.0 MB limit \(over 16\.\d MB from \d+(\.\d)? KB compressed\), so it was refused before anything was sent/);
    assert.equal(server.completionRequests.length, since, 'no model was asked');
  });

  it('says a .gz that is not gzip cannot be decompressed, and what to do', async () => {
    const out = await runCli(['ask', 'notgzip.log.gz', '-q', 'what?', ...model()], dir, {}, undefined, 30_000);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /notgzip\.log\.gz cannot be decompressed: not valid gzip data \(it does not start as gzip data does\)\. Check the file/);
  });
});
