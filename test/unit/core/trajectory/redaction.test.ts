import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REDACTED, createRedactor } from '../../../../src/core/trajectory/redaction';
import { generateTrajectory, syntheticHeader } from '../../../fixtures/trajectories/generate';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import { tempDir } from './tempDir';

const dir = tempDir('traj-redact');

test('a recorded file never contains the configured key, wherever it leaked', () => {
  const key = 'my-local-gateway-key-0f3a9c';
  const path = join(dir, 'leak.rlm.jsonl');
  const header = syntheticHeader({ cells: 1 });
  const writer = openTrajectoryWriter(path, { ...header, question: `use ${key} please` }, { secrets: [key, undefined] });
  writer.close();
  generateTrajectory(join(dir, 'leak2.rlm.jsonl'), { cells: 4, subCallsPerCell: 2, leakSecret: key }, { secrets: [key] });
  for (const file of [path, join(dir, 'leak2.rlm.jsonl')]) {
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(key), `${file} contains the key`);
    assert.ok(text.includes(REDACTED), `${file} shows where a secret was removed`);
    for (const line of text.trim().split('\n')) JSON.parse(line);
  }
});

test('common key and auth-header shapes are scrubbed even when not configured', () => {
  const r = createRedactor();
  const openai = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234';
  const anthropic = 'sk-ant-api03-AbCdEfGhIjKlMnOp_qrstu-vwxyz';
  const text = `keys ${openai} and ${anthropic}; Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload; x-api-key: abcdef123456789`;
  const out = r.scrubText(text);
  for (const secret of [openai, anthropic, 'eyJhbGciOiJIUzI1NiJ9.payload', 'abcdef123456789']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
  assert.match(out, /x-api-key: \[REDACTED\]/);
  assert.equal(r.scrubText('the sk-ip list and a Bearer of news'), 'the sk-ip list and a Bearer of news');
});

test('credential-named keys are replaced whatever their value, other values are scrubbed deeply', () => {
  const r = createRedactor(['s3cr3t-value']);
  const value = { backend_kwargs: { api_key: 'short', apiKey: 'x1', model_name: 'gpt-5' }, headers: { Authorization: 'Basic abc' }, list: ['a s3cr3t-value b'], n: 3, none: null };
  assert.deepEqual(r.scrubValue(value), {
    backend_kwargs: { api_key: REDACTED, apiKey: REDACTED, model_name: 'gpt-5' },
    headers: { Authorization: REDACTED },
    list: [`a ${REDACTED} b`],
    n: 3,
    none: null,
  });
  assert.equal(createRedactor(['', 'abc', undefined]).secretCount, 0, 'too-short secrets would shred ordinary text');
});

test('scrubbing never changes its input: a secret deep in an array or object is replaced in the result only', () => {
  const key = 'gateway-key-7d1e0b';
  const r = createRedactor([key]);
  const value = { type: 'cell.finished', kept: { text: 'plain', list: [1, 'x'] }, out: ['ok', { line: `leaked ${key}` }], auth: { apiKey: 'a-long-value-here' } };
  const before = structuredClone(value);
  const scrubbed = r.scrubValue(value);
  assert.deepEqual(value, before, 'the input was modified');
  assert.deepEqual(scrubbed, { type: 'cell.finished', kept: { text: 'plain', list: [1, 'x'] }, out: ['ok', { line: `leaked ${REDACTED}` }], auth: { apiKey: REDACTED } });
});
