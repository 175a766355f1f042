// `rlm ask` over a folder larger than --context-limit-mb: bound lazily, the root told so, search() run
// on the host (with ripgrep from PATH, and without any), the answer found, and the reads recorded in
// the trajectory's cell.finished records.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

function script(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return "```repl\nhs = search(r'passphrase is (\\w+)')\nprint(context_meta()['mode'], hs)\n```";
  return "```repl\nFINAL(context[hs[0]['path']].splitlines()[hs[0]['line'] - 1].split()[-1])\n```";
}

describe('rlm ask over a folder past the eager limit', () => {
  let dir: string;
  const servers: FakeModelServer[] = [];
  before(() => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-lazy-cli-'));
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(dir, 'repo', `m${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(join(dir, 'repo', `m${d}`, `f${f}.ts`), `// module ${d}/${f}\n${'const x = 1;\n'.repeat(500)}`);
    }
    writeFileSync(join(dir, 'repo', 'm7', 'f3.ts'), `${'let y = 2;\n'.repeat(100)}// the passphrase is OCTARINE\n`);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const withRg of [true, false]) {
    it(`finds the needle by search() ${withRg ? 'with ripgrep on PATH' : 'with no ripgrep (host scan)'}`, async () => {
      const server = await startFakeModelServer({ protocol: 'openai', respond: script });
      servers.push(server);
      const trajectory = join(dir, `lazy-${withRg}.rlm.jsonl`);
      const out = await runCli(
        ['ask', 'repo', '-q', 'What is the passphrase?', '--base-url', server.baseUrl, '--model', 'fake-model', '--context-limit-mb', '1', '--trajectory', trajectory],
        dir,
        { PATH: withRg ? `/usr/bin:${process.env.PATH ?? ''}` : '/nonexistent' },
      );
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout.trim(), 'OCTARINE');
      assert.match(out.stderr, withRg ? /search\(\) runs on the host \(ripgrep: / : /a streamed scan/);
      const root = server.completionRequests.find((r) => r.parsed?.system)?.rawBody ?? '';
      assert.match(root, /Mode: lazy/);
      const cells = readFileSync(trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.type === 'cell.finished');
      assert.match(String(cells[0]?.stdout), /^lazy \[\{'path': 'repo\/m7\/f3.ts', 'line': 101,/);
      const first = cells[0]?.contextReads as { files: number; searches: number; searchedBytes: number };
      assert.deepEqual([first.files, first.searches], [0, 1]);
      assert.ok(first.searchedBytes > 2_000_000, String(first.searchedBytes));
      assert.deepEqual((cells[1]?.contextReads as { paths: string[] }).paths, ['repo/m7/f3.ts']);
    });
  }
});
