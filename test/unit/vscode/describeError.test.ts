import { mapLanguageModelError } from '../../../src/vscode/models/lmErrors';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetExceededError } from '../../../src/core/loop/loopErrors';
import { AuthError, NetworkError } from '../../../src/core/models/modelErrors';
import { describeError, describeRunError } from '../../../src/vscode/errors/describeError';
import { MissingApiKeyError, NoModelConfiguredError, RunBusyError, TargetRefusedError, UntrustedWorkspaceError } from '../../../src/vscode/errors/extensionErrors';

const info = { provider: 'openai' as const, endpoint: 'http://127.0.0.1:4000/v1', model: 'gpt-x', status: 401 };

test('a refused key names the server and offers Set API key...', () => {
  const m = describeError(new AuthError('invalid api key', info));
  assert.match(m.text, /The model server at http:\/\/127\.0\.0\.1:4000\/v1 \(model gpt-x\) refused the key/);
  assert.deepEqual(m.steps, ['setApiKey', 'configureModels']);
  assert.doesNotMatch(m.text, /sk-/);
});

test('an unreachable server asks whether it runs and offers Test connection', () => {
  const m = describeError(new NetworkError('connect ECONNREFUSED', { ...info, status: undefined }));
  assert.match(m.text, /Could not reach the model server at http:\/\/127\.0\.0\.1:4000\/v1/);
  assert.ok(m.steps.includes('testConnection'));
});

test('first use, missing key, untrusted workspace, refused target and busy target each get their sentence', () => {
  assert.deepEqual(describeError(new NoModelConfiguredError()).steps, ['configureModels']);
  assert.match(describeError(new MissingApiKeyError({ provider: 'anthropic', baseUrl: '', model: 'c' })).text, /No API key is set for anthropic at its official endpoint/);
  const untrusted = describeError(new UntrustedWorkspaceError());
  assert.match(untrusted.text, /not trusted/);
  assert.deepEqual(untrusted.steps, ['manageTrust']);
  assert.match(describeError(new TargetRefusedError('a.png', 'binary', 'a.png is a binary file; RLM reads text.')).text, /binary/);
  assert.deepEqual(describeError(new RunBusyError('k', 'first')).steps, ['stop']);
});

test('limits point at the setting to raise; unknown errors at the log', () => {
  const limit = describeError(new BudgetExceededError('iterations', 30, 30));
  assert.match(limit.text, /Raise rlm\.maxIterations/);
  assert.match(describeRunError({ kind: 'limit', message: 'cost', limit: 'costUsd' }).text, /rlm\.maxCostUsd/);
  assert.deepEqual(describeError(new Error('weird')).steps, ['showLog']);
  assert.equal(describeRunError({ kind: 'RunCancelledError', message: 'x' }).severity, 'info');
});

test('a recorded run error of a model kind keeps its message and next step', () => {
  const m = describeRunError({ kind: 'auth', message: 'OpenAI-compatible model "m" at http://x/v1 (HTTP 401): bad key' });
  assert.equal(m.text, 'The model server refused the key: OpenAI-compatible model "m" at http://x/v1 (HTTP 401): bad key. Set the API key for it.');
  assert.deepEqual(m.steps, ['setApiKey', 'configureModels']);
});

test('VS Code language model errors speak of consent, quota and models, never of keys or servers', () => {
  const info = { provider: 'vscode' as const, endpoint: 'vscode.lm (copilot)', model: 'gpt-4o' };
  const consent = describeError(mapLanguageModelError(Object.assign(new Error('no consent'), { code: 'NoPermissions' }), info, false));
  assert.match(consent.text, /^The VS Code language model gpt-4o: VS Code did not let RLM use this model/);
  assert.doesNotMatch(consent.text, /key|server/i);
  assert.deepEqual(consent.steps, ['configureModels']);
  const quota = describeError(mapLanguageModelError(Object.assign(new Error('quota'), { code: 'Blocked' }), info, false));
  assert.match(quota.text, /quota or rate limit/);
  assert.deepEqual(quota.steps, ['openSettings']);
  assert.equal(describeError(mapLanguageModelError(new Error('x'), info, true)).severity, 'info');
});

test('no internal names reach a person: "fetch failed", error codes and class names are put in words', async () => {
  const { plainDetail } = await import('../../../src/vscode/errors/describeError');
  const refused = describeError(new NetworkError('could not connect: Connection error. (ECONNREFUSED). Is the server running and the base URL right?', { ...info, status: undefined }));
  assert.match(refused.text, /the connection was refused/);
  assert.doesNotMatch(refused.text, /ECONNREFUSED|Connection error|fetch failed|\?\./);
  assert.equal(plainDetail('the connection was dropped before the response was complete (fetch failed)'), 'the connection was dropped before the response was complete');
  assert.doesNotMatch(describeRunError({ kind: 'connection', message: 'could not connect: fetch failed. Is the server running?' }).text, /fetch failed|\?\./);
  assert.doesNotMatch(describeError(new Error('weird')).text, /RLM failed/);
});

test('a limit says which limit, its figures, and the setting to raise', () => {
  const m = describeRunError({ kind: 'limit', message: 'Iteration limit reached: 30 of 30', limit: 'iterations' });
  assert.equal(m.text, 'The run reached the turn limit (30 of 30). Raise rlm.maxIterations to let runs go further.');
  assert.equal(m.severity, 'warning');
});

test('an error from the engine bundle (another copy of the classes) is still described by its kind, never "Something went wrong"', () => {
  // What instanceof cannot see: a ModelError-shaped object from dist/engine.js.
  const foreign = Object.assign(new Error('OpenAI-compatible model "m" at http://h/v1: no API key is configured'), { name: 'Zh', kind: 'config', errorKind: 'config', endpoint: 'http://h/v1', model: 'm', detail: 'no API key is configured for this endpoint' });
  const m = describeError(foreign);
  assert.match(m.text, /^The model configuration cannot work: no API key is configured/);
  assert.doesNotMatch(m.text, /Something went wrong|Zh/);
  const cancelled = Object.assign(new Error('Run cancelled: stopped by the user'), { errorKind: 'cancelled' });
  assert.equal(describeError(cancelled).severity, 'info');
});

test('a sandbox violation is said plainly, as a possible escape attempt, thrown or recorded', () => {
  const recorded = describeRunError({ kind: 'sandbox_violation', message: 'the REPL process broke the host\'s protocol on its channel (x)' });
  assert.match(recorded.text, /may have tried to get out/);
  assert.equal(recorded.severity, 'error');
  const thrown = describeError(Object.assign(new Error('broke the protocol'), { errorKind: 'sandbox_violation' }));
  assert.equal(thrown.text, recorded.text);
});

test('a sandbox weaker than two layers is shown as its own sentence, with the settings to accept it', async () => {
  const { WeakSandboxError } = await import('../../../src/core/repl/sandboxStrength');
  const error = new WeakSandboxError(['for the network only layer 2 (the REPL runtime lockdown) holds (layer 3 is not in force)']);
  const shown = describeError(error);
  assert.equal(shown.text, error.message);
  assert.match(shown.text, /rlm\.sandbox\.allowWeaker/);
  assert.deepEqual(shown.steps, ['openSettings']);
  assert.equal(shown.severity, 'warning');
  // As the engine bundle's own copy of the class: recognised by name and kind, not instanceof.
  const copy = Object.assign(new Error(error.message), { name: 'WeakSandboxError', errorKind: 'sandbox' });
  assert.equal(describeError(copy).text, error.message);
});
