import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAskArgs } from '../../../src/cli/commands/askArgs';
import { UsageError } from '../../../src/cli/support/modelArgs';
import { defaultTrajectoryPath } from '../../../src/cli/commands/askCommand';

describe('rlm ask arguments', () => {
  it('parses paths, the question, models and limits', () => {
    const args = parseAskArgs(['src', 'README.md', '-q', 'What does it do?', '--model', 'gpt-4.1-mini', '--max-iterations', '5', '--max-depth', '0', '--max-cost', '0.5', '--timeout', '90', '--cell-timeout', '2.5', '--json']);
    assert.deepEqual(args.paths, ['src', 'README.md']);
    assert.equal(args.question, 'What does it do?');
    assert.deepEqual(args.root, { provider: 'openai', model: 'gpt-4.1-mini', keyEnv: 'OPENAI_API_KEY' });
    assert.deepEqual(args.sub, args.root, 'each sub option defaults to the root one');
    assert.deepEqual(args.limits, { maxIterations: 5, maxDepth: 0, maxCostUsd: 0.5, maxWallTimeMs: 90_000, cellTimeoutMs: 2500 });
    assert.equal(args.json, true);
  });

  it('takes the REPL memory cap in MB, within what Pyodide can use', () => {
    assert.equal(parseAskArgs(['f', '-q', 'q', '--model', 'm', '--repl-memory-mb', '512']).input.replMemoryMb, 512);
    assert.equal(parseAskArgs(['f', '-q', 'q', '--model', 'm']).input.replMemoryMb, undefined);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--repl-memory-mb', '8192']), /--repl-memory-mb must be between 64 and 4096/);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--repl-memory-mb', '10']), UsageError);
  });

  it('gives the sub model its own provider, URL, model and key variable', () => {
    const args = parseAskArgs(['f', '-q', 'q', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--sub-provider', 'openai', '--sub-base-url', 'http://localhost:11434/v1', '--sub-model', 'llama3', '--api-key-env', 'MY_KEY']);
    assert.deepEqual(args.root, { provider: 'anthropic', model: 'claude-sonnet-4-5', keyEnv: 'MY_KEY' });
    assert.deepEqual(args.sub, { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3', keyEnv: 'OPENAI_API_KEY' });
  });

  it('refuses keys as flag values and other mistakes with a usage error', () => {
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--api-key', 'sk-secret']), (e: unknown) => e instanceof UsageError && /api-key/.test(e.message) && !/sk-secret/.test(e.message));
    assert.throws(() => parseAskArgs(['-q', 'q', '--model', 'm']), /at least one file/);
    assert.throws(() => parseAskArgs(['f', '--model', 'm']), /missing the question/);
    assert.throws(() => parseAskArgs(['f', '-q', 'q']), /missing --model/);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--provider', 'gemini']), /openai or anthropic/);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--max-iterations', 'lots']), /--max-iterations must be a whole number/);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', '--sub-provider', 'anthropic']), /--sub-model is needed/);
  });

  it('refuses the vscode provider, root or sub, with a sentence that says why and what to use', () => {
    for (const argv of [
      ['f', '-q', 'q', '--provider', 'vscode', '--model', 'gpt-4o'],
      ['f', '-q', 'q', '--model', 'gpt-4o', '--sub-provider', 'vscode', '--sub-model', 'gpt-4o'],
    ]) {
      assert.throws(
        () => parseAskArgs(argv),
        (e: unknown) => e instanceof UsageError && /cannot be used by the rlm command line/.test(e.message) && /only inside the VS Code extension/.test(e.message) && /"openai"/.test(e.message),
      );
    }
  });

  it('puts the default trajectory under .rlm/runs with a timestamp', () => {
    assert.match(defaultTrajectoryPath(Date.UTC(2026, 11, 2, 14, 5, 9)), /^\.rlm\/runs\/20261202T140509Z-[a-z0-9]+\.rlm\.jsonl$/);
  });
});
