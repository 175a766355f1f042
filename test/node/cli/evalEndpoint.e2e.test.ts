// `rlm eval` against an endpoint given only by a base URL, a model and a key in the environment (as a
// real one would be), here a fake OpenAI-compatible server that insists on the key and answers with the
// scripted policy. The results are labelled as model results, and the key is written nowhere.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runEval } from '../../../src/cli/commands/evalCommand';
import type { EvalResultsFile } from '../../../src/cli/eval/evalTypes';
import { scriptedRootRespond } from '../../../src/eval/scripted/scriptedServers';
import { answerSubPrompt, UNRECOGNISED_REPLY } from '../../../src/eval/scripted/scriptedSubModel';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const repo = resolve(__dirname, '../../../');
const KEY = 'sk-test-eval-key-0123456789';
let server: FakeModelServer;
let out: string;

before(async () => {
  if (!existsSync(join(repo, 'dist', 'replProcess.js'))) throw new Error('dist/ is missing: run `npm run build` before this test');
  out = mkdtempSync(join(tmpdir(), 'rlm-eval-endpoint-'));
  // One model plays root and sub: a sub-call prompt gets the rule-based answer, anything else the root's.
  server = await startFakeModelServer({
    protocol: 'openai',
    requireApiKey: KEY,
    respond: (request) => {
      const last = request.messages[request.messages.length - 1]?.content ?? '';
      const sub = answerSubPrompt(last);
      return sub !== UNRECOGNISED_REPLY ? sub : scriptedRootRespond(request);
    },
  });
});
after(async () => {
  await server.close();
  rmSync(out, { recursive: true, force: true });
});

test('a base URL, a model and OPENAI_API_KEY are all it needs; the key reaches the server and no file', async () => {
  let stderr = '';
  let stdout = '';
  const code = await runEval(['--base-url', server.baseUrl, '--model', 'some-model', '--suite', 'niah,pairs', '--lengths', '8k', '--modes', 'rlm,direct', '--out', out], {
    stdout: { write: (t: string) => ((stdout += t), true) },
    stderr: { write: (t: string) => ((stderr += t), true) },
    env: { OPENAI_API_KEY: KEY },
    cwd: repo,
    distDir: join(repo, 'dist'),
    snapshotCacheDir: join(tmpdir(), 'rlm-repl-test-snapshots'),
  });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /root some-model, sub some-model/);
  assert.doesNotMatch(stdout + stderr, /scripted/);
  const data = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as EvalResultsFile;
  assert.equal(data.label, 'model');
  assert.deepEqual(data.results.map((r) => [r.id, r.mode, r.score, r.scripted]), [
    ['niah-8k-0', 'rlm', 1, false],
    ['niah-8k-0', 'direct', 1, false],
    ['pairs-8k-0', 'rlm', 1, false],
    ['pairs-8k-0', 'direct', 1, false],
  ]);
  assert.ok(server.completionRequests.length > 0);
  for (const r of server.completionRequests) assert.equal(r.headers.authorization, `Bearer ${KEY}`);
  const files = [join(out, 'results.json'), join(out, 'results.md'), ...readdirSync(join(out, 'trajectories')).map((f) => join(out, 'trajectories', f))];
  for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(KEY), `${f} contains the key`);
});
