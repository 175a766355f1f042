// --stall-timeout and --max-response-mb on `rlm ask` and `rlm eval`: parsed for the root and the
// sub model alike, validated with usage errors, passed into each ModelConfig, and documented with
// the defaults the core really uses (as are the VS Code settings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAskArgs } from '../../../src/cli/commands/askArgs';
import { ASK_HELP } from '../../../src/cli/support/cliHelp';
import { EVAL_HELP } from '../../../src/cli/commands/evalCommand';
import { parseEvalArgs } from '../../../src/cli/eval/evalArgs';
import { modelConfig, UsageError } from '../../../src/cli/support/modelArgs';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RESPONSE_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS } from '../../../src/core/models/responseGuard';
import { readRlmSettings } from '../../../src/vscode/settings/rlmSettings';

const MB = 1024 * 1024;

test('rlm ask: both flags reach the root and the sub model, and their ModelConfigs', () => {
  const args = parseAskArgs(['f', '-q', 'q', '--model', 'm', '--sub-model', 's', '--base-url', 'http://127.0.0.1:1/v1', '--stall-timeout', '2.5', '--max-response-mb', '0.5', '--response-timeout', '90']);
  for (const choice of [args.root, args.sub]) {
    assert.equal(choice.stallTimeoutMs, 2500);
    assert.equal(modelConfig(choice, {}, '--api-key-env').responseTimeoutMs, 90_000);
    assert.equal(choice.maxResponseBytes, MB / 2);
    const config = modelConfig(choice, {}, '--api-key-env');
    assert.equal(config.stallTimeoutMs, 2500);
    assert.equal(config.maxResponseBytes, MB / 2);
  }
  const plain = parseAskArgs(['f', '-q', 'q', '--model', 'm']);
  assert.equal(plain.root.stallTimeoutMs, undefined, 'absent flags leave the core defaults');
  assert.equal(modelConfig({ ...plain.root, baseUrl: 'http://localhost:1/v1' }, {}, '--api-key-env').maxResponseBytes, undefined);
});

test('rlm eval: the same flags, and refused with --scripted (where they would do nothing)', () => {
  const args = parseEvalArgs(['--model', 'm', '--stall-timeout', '90', '--max-response-mb', '8']);
  assert.equal(args.root?.stallTimeoutMs, 90_000);
  assert.equal(args.sub?.maxResponseBytes, 8 * MB);
  assert.throws(() => parseEvalArgs(['--scripted', '--stall-timeout', '5']), (e: unknown) => e instanceof UsageError && /--scripted/.test(e.message));
});

test('values that are not positive numbers are usage errors naming the flag', () => {
  for (const [flag, value] of [
    ['--stall-timeout', '0'],
    ['--response-timeout', '0'],
    ['--stall-timeout', '-3'],
    ['--stall-timeout', 'soon'],
    ['--stall-timeout', ''],
    ['--max-response-mb', '0'],
    ['--max-response-mb', 'Infinity'],
    ['--max-response-mb', 'big'],
  ] as const) {
    const expected = new RegExp(`${flag} must be a positive number, got "${value}"`);
    assert.throws(() => parseAskArgs(['f', '-q', 'q', '--model', 'm', `${flag}=${value}`]), (e: unknown) => e instanceof UsageError && expected.test(e.message), `${flag} ${value}`);
    assert.throws(() => parseEvalArgs(['--model', 'm', `${flag}=${value}`]), (e: unknown) => e instanceof UsageError && expected.test(e.message), `eval ${flag} ${value}`);
  }
});

test('help texts, settings and the settings and CLI pages name both, with the defaults the core uses', () => {
  const seconds = DEFAULT_STALL_TIMEOUT_MS / 1000;
  const mb = DEFAULT_MAX_RESPONSE_BYTES / MB;
  assert.match(ASK_HELP, new RegExp(`--stall-timeout SECONDS[^]*default\\s+${seconds}`));
  assert.match(ASK_HELP, new RegExp(`--max-response-mb MB[^]*default ${mb}\\)`));
  assert.match(EVAL_HELP, /--stall-timeout SECONDS, --max-response-mb MB/);
  const root = join(__dirname, '../../..');
  const properties = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } }).contributes.configuration.properties;
  assert.equal(properties['rlm.modelStallTimeoutSeconds']?.default, seconds);
  assert.equal(properties['rlm.maxResponseMb']?.default, mb);
  const defaults = readRlmSettings(() => undefined).responseLimits;
  assert.deepEqual(defaults, { stallTimeoutMs: DEFAULT_STALL_TIMEOUT_MS, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES, responseTimeoutMs: DEFAULT_RESPONSE_TIMEOUT_MS });
  // The overall bound on one call.
  assert.match(ASK_HELP, new RegExp(`--response-timeout SECONDS[^]*default ${DEFAULT_RESPONSE_TIMEOUT_MS / 1000}\\)`));
  assert.match(EVAL_HELP, /--response-timeout SECONDS/);
  assert.equal(properties['rlm.modelResponseTimeoutSeconds']?.default, DEFAULT_RESPONSE_TIMEOUT_MS / 1000);
  const settingsPage = readFileSync(join(root, 'docs', 'settings.md'), 'utf8');
  const cliPage = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
  for (const name of ['rlm.modelStallTimeoutSeconds', 'rlm.maxResponseMb', 'rlm.modelResponseTimeoutSeconds', '--stall-timeout', '--max-response-mb', '--response-timeout']) assert.ok(settingsPage.includes(name), `docs/settings.md lists ${name}`);
  for (const name of ['--stall-timeout SECONDS', '--max-response-mb MB', '--response-timeout SECONDS']) assert.ok(cliPage.includes(name), `docs/cli.md lists ${name}`);
});
