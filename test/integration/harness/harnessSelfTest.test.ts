// Fast checks of the harness itself (no browser, no code-server): process-group cleanup, clear
// errors when code-server is missing, URL building, and the generated log's answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CodeServerError, findFreePort, startCodeServer } from '../../../scripts/codeServer/launch.mjs';
import { groupAlive, stopProcessGroup, trackProcessGroup } from '../../../scripts/codeServer/processGroups.mjs';
import { generateServiceLog } from './generatedLog.mjs';
import { workbenchUrl } from './openWorkbench';

test('stopProcessGroup kills a detached child and the grandchild it forked', async () => {
  // The shell forks a long sleep (a grandchild) and then waits: like code-server and its extension host.
  const child = spawn('bash', ['-c', 'sleep 300 & wait'], { detached: true, stdio: 'ignore' });
  const pid = child.pid ?? 0;
  trackProcessGroup(pid);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(groupAlive(pid), true);
  await stopProcessGroup(pid, { graceMs: 500 });
  assert.equal(groupAlive(pid), false);
});

test('startCodeServer says how to prepare code-server when the cache is empty', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'rlm-no-code-server-'));
  const previous = process.env.RLM_CODE_SERVER_CACHE;
  process.env.RLM_CODE_SERVER_CACHE = empty;
  try {
    await assert.rejects(
      startCodeServer({ userDataDir: join(empty, 'u'), extensionsDir: join(empty, 'e'), logFile: join(empty, 'log') }),
      (err: unknown) => err instanceof CodeServerError && /scripts\/codeServer\/prepare\.mjs/.test(err.message),
    );
  } finally {
    if (previous === undefined) delete process.env.RLM_CODE_SERVER_CACHE;
    else process.env.RLM_CODE_SERVER_CACHE = previous;
    await rm(empty, { recursive: true, force: true });
  }
});

test('findFreePort returns a port that can be bound on 127.0.0.1, and a fresh one each time a port is taken', async () => {
  const port = await findFreePort();
  assert.ok(port > 1024 && port < 65536, `port ${port}`);
  // Bind it, as code-server will: the port must really be free on 127.0.0.1.
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  try {
    const address = server.address();
    assert.equal(typeof address === 'object' && address ? address.port : undefined, port);
    // While it is held, findFreePort must not hand it out again.
    const another = await findFreePort();
    assert.notEqual(another, port);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('workbenchUrl encodes the folder and the payload as query parameters', () => {
  const url = new URL(workbenchUrl('http://127.0.0.1:1234/', '/tmp/a b', [['extensionTestsPath', 'vscode-remote://127.0.0.1:1234/x/index.js']]));
  assert.equal(url.searchParams.get('folder'), '/tmp/a b');
  assert.deepEqual(JSON.parse(url.searchParams.get('payload') ?? 'null'), [['extensionTestsPath', 'vscode-remote://127.0.0.1:1234/x/index.js']]);
});

test('generateServiceLog is deterministic and its answer matches an independent count', () => {
  const first = generateServiceLog({ lines: 5000, seed: 7 });
  assert.equal(generateServiceLog({ lines: 5000, seed: 7 }).text, first.text);
  assert.notEqual(generateServiceLog({ lines: 5000, seed: 8 }).text, first.text);
  const lines = first.text.trimEnd().split('\n');
  assert.equal(lines.length, 5000);
  const counted = lines.filter((l) => /^\S+ ERROR \[payments\] card declined status=402 /.test(l)).length;
  assert.equal(first.answer, counted);
  assert.ok(counted > 0, 'the question should have a non-zero answer at this size');
  assert.throws(() => generateServiceLog({ lines: 0 }), RangeError);
});

test('the sample workspace log is the generator output with the answer its README states', async () => {
  const { readFile } = await import('node:fs/promises');
  const { sampleWorkspaceDir } = await import('./outputPaths');
  const onDisk = await readFile(join(sampleWorkspaceDir(), 'logs', 'service.log'), 'utf8');
  const generated = generateServiceLog({ lines: 8000 });
  assert.equal(onDisk, generated.text);
  const readme = await readFile(join(sampleWorkspaceDir(), 'README.md'), 'utf8');
  assert.match(readme, new RegExp(`the answer is ${generated.answer}\\b`));
});
