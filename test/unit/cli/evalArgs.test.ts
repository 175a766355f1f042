import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEvalArgs } from '../../../src/cli/eval/evalArgs';
import { UsageError } from '../../../src/cli/support/modelArgs';
import { runEval } from '../../../src/cli/commands/evalCommand';

test('defaults: all suites at 32k in rlm mode, one task each', () => {
  const a = parseEvalArgs(['--scripted']);
  assert.deepEqual(a.suites, ['niah', 'oolong', 'pairs', 'code']);
  assert.deepEqual(a.lengths, [32_000]);
  assert.deepEqual(a.modes, ['rlm']);
  assert.equal(a.tasksPerLength, 1);
  assert.equal(a.root, undefined);
});

test('a real endpoint needs only a base URL and a model; sub options default to the root', () => {
  const a = parseEvalArgs(['--suite', 'niah', '--lengths', '32k,1m', '--base-url', 'https://api.example.com/v1', '--model', 'm1', '--modes', 'rlm,direct']);
  assert.deepEqual(a.lengths, [32_000, 1_000_000]);
  assert.deepEqual(a.root, { provider: 'openai', baseUrl: 'https://api.example.com/v1', model: 'm1', keyEnv: 'OPENAI_API_KEY' });
  assert.deepEqual(a.sub, a.root);
  const b = parseEvalArgs(['--provider', 'anthropic', '--model', 'big', '--sub-model', 'small', '--context-window', '200000']);
  assert.equal(b.sub?.model, 'small');
  assert.equal(b.sub?.keyEnv, 'ANTHROPIC_API_KEY');
  assert.equal(b.sub?.contextWindowTokens, undefined);
  assert.equal(b.root?.contextWindowTokens, 200_000);
});

test('bad arguments are usage errors that say what to do', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--suite', 'haystack', '--scripted'], /unknown suite "haystack"/],
    [['--lengths', '5', '--scripted'], /below the minimum/],
    [['--modes', 'fast', '--scripted'], /unknown mode "fast"/],
    [[], /missing --model .* --scripted/],
    [['--scripted', '--model', 'x'], /cannot be combined/],
    [['--scripted', '--tasks', '0'], /--tasks must be a whole number above 0/],
  ];
  for (const [argv, message] of cases) assert.throws(() => parseEvalArgs(argv), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
});

test('a remote endpoint without a key in the environment fails before any task runs', async () => {
  let err = '';
  const code = await runEval(['--base-url', 'https://api.example.com/v1', '--model', 'm1', '--out', '/nonexistent/never-created'], {
    stdout: { write: () => true },
    stderr: { write: (t: string) => ((err += t), true) },
    env: {},
    distDir: '/nonexistent',
  });
  assert.equal(code, 2);
  assert.match(err, /set the OPENAI_API_KEY environment variable/);
});
