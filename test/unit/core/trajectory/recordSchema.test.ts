// The reading rules derived from the event schemas (eventSchemas.ts → recordSchema.ts): a recorded run
// is hostile input (docs/security.md), so every rule the hand-written check had is pinned here — wrong
// types and non-finite numbers refused with the field's path, fields a newer writer adds allowed and
// left alone, no length limit on text, prototype keys inert — plus what older and newer files may hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { mayBeAbsentInOlderFiles } from '../../../../src/core/recordFields';
import { checkEvent } from '../../../../src/core/trajectory/eventValidation';
import { EVENT_SHAPES } from '../../../../src/core/trajectory/eventSchemas';
import { EVENT_TYPES, sanitizeHeader } from '../../../../src/core/trajectory/recordSchema';
import { isLiveOnly } from '../../../../src/core/trajectory/trajectoryFormat';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { syntheticEvents } from '../../../fixtures/trajectories/generate';

const FIXTURES = resolve(__dirname, '../../../fixtures/trajectories');

/** One record of each type the generator writes, as the writer wrote it. */
function sampleRecords(): Map<string, Record<string, unknown>> {
  const byType = new Map<string, Record<string, unknown>>();
  const sample = readFileSync(resolve(FIXTURES, 'sample.rlm.jsonl'), 'utf8').trim().split('\n').slice(1);
  for (const line of sample) {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (!byType.has(record.type as string)) byType.set(record.type as string, record);
  }
  for (const record of syntheticEvents({ cells: 3, subCallsPerCell: 2, childEvery: 2, liveEvents: true })) {
    if (!byType.has(record.type)) byType.set(record.type, JSON.parse(JSON.stringify(record)) as Record<string, unknown>);
  }
  return byType;
}

const records = sampleRecords();
const record = (type: string): Record<string, unknown> => structuredClone(records.get(type)!) as Record<string, unknown>;
const invalid = (value: unknown): string => {
  const check = checkEvent(value);
  assert.ok(!check.ok && 'invalid' in check, `expected a problem, got ${JSON.stringify(check)}`);
  return check.invalid;
};

test('records as the writer writes them pass, for every event type the fixtures hold', () => {
  assert.ok(records.size >= 12, `only ${records.size} event types in the fixtures`);
  for (const [type, value] of records) assert.deepEqual(checkEvent(value), { ok: true, type }, type);
});

test('a wrong type anywhere is refused with the path of the field, one level down or deeper', () => {
  const output = record('model.output');
  (output.usage as Record<string, unknown>).inputTokens = '12';
  assert.equal(invalid(output), 'model.output.usage.inputTokens should be a number, not a string');

  const finished = record('run.finished');
  finished.answer = ['an', 'array'];
  assert.equal(invalid(finished), 'run.finished.answer should be a string, not an array');

  const cell = record('cell.finished');
  cell.newVariables = ['ok', 3];
  assert.equal(invalid(cell), 'cell.finished.newVariables[1] should be a string, not a number');

  const call = record('subcall.started');
  call.model = 'gpt';
  assert.equal(invalid(call), 'subcall.started.model should be an object, not a string');

  const turn = record('turn.started');
  turn.turn = null;
  assert.equal(invalid(turn), 'turn.started.turn should be a number, not null');

  const started = record('run.started');
  delete started.question;
  assert.equal(invalid(started), 'run.started.question is missing');
});

test('numbers must be finite: 1e999 parses to Infinity and is refused', () => {
  const line = JSON.stringify(record('turn.started')).replace(/"turn":\d+/, '"turn":1e999');
  assert.equal(invalid(JSON.parse(line)), 'turn.started.turn should be a number, not Infinity');
  assert.match(invalid({ ...record('turn.started'), seq: Number.NaN }), /no numeric "seq"/);
});

test('fields a newer writer adds are allowed at every level, and the record is kept as it came', () => {
  const output = record('model.output');
  output.reasoningTokens = 12;
  (output.usage as Record<string, unknown>).serviceTier = 'flex';
  const before = JSON.stringify(output);
  assert.deepEqual(checkEvent(output), { ok: true, type: 'model.output' });
  assert.equal(JSON.stringify(output), before, 'the check does not change the record');
});

test('text has no length limit: a 4 MB output is a valid record', () => {
  const cell = record('cell.finished');
  cell.stdout = 'x'.repeat(4 * 1024 * 1024);
  assert.deepEqual(checkEvent(cell), { ok: true, type: 'cell.finished' });
});

test('prototype keys are inert: __proto__ neither supplies a missing field nor pollutes Object.prototype', () => {
  const started = record('run.started');
  delete started.question;
  const line = JSON.stringify(started).replace(/^\{/, '{"__proto__":{"question":"from the prototype","polluted":true},');
  const parsed = JSON.parse(line) as Record<string, unknown>;
  assert.equal(invalid(parsed), 'run.started.question is missing');
  const nested = JSON.parse(JSON.stringify(record('model.output')).replace('"usage":{', '"usage":{"__proto__":{"inputTokens":"x"},"constructor":1,')) as Record<string, unknown>;
  assert.deepEqual(checkEvent(nested), { ok: true, type: 'model.output' });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).inputTokens, undefined);
});

test('fields older files lack may be absent; fields every file has may not', () => {
  const output = record('model.output');
  delete output.latencyMs;
  delete output.finishReason;
  delete output.requestBytes;
  assert.deepEqual(checkEvent(output), { ok: true, type: 'model.output' });
  const finished = record('run.finished');
  delete finished.totals;
  delete finished.forced;
  assert.deepEqual(checkEvent(finished), { ok: true, type: 'run.finished' });
  const call = record('subcall.finished');
  delete call.usage;
  assert.equal(invalid(call), 'subcall.finished.usage is missing');
});

test('a word from a closed set is read as any string (a newer writer may add one); its type is still checked', () => {
  const finished = record('run.finished');
  finished.status = 'paused';
  finished.error = { kind: 'BudgetExceededError', message: 'old class name', limit: 'someNewLimit' };
  assert.deepEqual(checkEvent(finished), { ok: true, type: 'run.finished' });
  finished.status = 3;
  assert.equal(invalid(finished), 'run.finished.status should be a string, not a number');
});

test('null is refused where a field is optional, and accepted only where null means something (an unknown cost)', () => {
  const output = record('model.output');
  output.forcedFinal = null;
  assert.equal(invalid(output), 'model.output.forcedFinal should be true or false, not null');
  const priced = record('model.output');
  (priced.usage as Record<string, unknown>).costUsd = null;
  assert.deepEqual(checkEvent(priced), { ok: true, type: 'model.output' });
});

test('unknown event types are kept apart, not checked; a record that is not an object is refused', () => {
  assert.deepEqual(checkEvent({ type: 'tool.called', runId: 'r', seq: 1, ts: 1 }), { ok: false, unknownType: 'tool.called' });
  assert.equal(invalid([1, 2]), 'the line is not a JSON object');
  assert.equal(invalid({ type: 'turn.started', seq: 1, ts: 1, turn: 1 }), 'turn.started.runId is missing or not a string');
});

test('a damaged header field is dropped with a problem, the rest of the header kept', () => {
  const header = JSON.parse(readFileSync(resolve(FIXTURES, 'sample.rlm.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
  const { header: clean, problems } = sanitizeHeader({ ...header, config: { ...(header.config as object), maxDepth: 'deep' }, extra: 1 });
  assert.deepEqual(problems, ['header.config.maxDepth should be a number, not a string']);
  assert.equal(clean.config, undefined);
  assert.equal(clean.question, header.question);
  assert.equal(clean.extra, 1);
});

test('every event type has a schema, and the live-only ones are the two the writer drops', () => {
  const written = new Set([...records.keys()]);
  for (const type of written) assert.ok(EVENT_TYPES.includes(type as never), `${type} has no schema`);
  const liveOnly = EVENT_TYPES.filter((type) => isLiveOnly({ type } as EventRecord));
  assert.deepEqual(liveOnly.sort(), ['cell.output', 'model.delta']);
});

test('docs/trajectory-format.md lists every persisted event type', () => {
  const doc = readFileSync(resolve(__dirname, '../../../../docs/trajectory-format.md'), 'utf8');
  const listed = doc.slice(doc.indexOf('The persisted types are these'), doc.indexOf('### References'));
  for (const type of EVENT_TYPES) {
    if (isLiveOnly({ type } as EventRecord)) assert.ok(doc.includes(`\`${type}\``), `${type} (live only) is not mentioned`);
    else assert.ok(listed.includes(`- \`${type}\``), `${type} is not in the list of persisted types`);
  }
});

test('docs/trajectory-format.md lists the fields of every event exactly as the schemas declare them', () => {
  const doc = readFileSync(resolve(__dirname, '../../../../docs/trajectory-format.md'), 'utf8');
  const start = doc.indexOf('### Fields of each event');
  assert.ok(start > 0, 'the section "Fields of each event" is missing');
  const section = doc.slice(start, doc.indexOf('\n### ', start + 1));
  const documented = section.split('\n').filter((line) => line.startsWith('- `'));
  const declared = Object.entries(EVENT_SHAPES).map(([type, shape]) => {
    const fields = Object.entries(shape as Record<string, z.ZodType>).map(([name, schema]) => `\`${name}\`${schema instanceof z.ZodOptional ? '?' : mayBeAbsentInOlderFiles(schema) ? '*' : ''}`);
    return `- \`${type}\`: ${fields.join(', ')}`;
  });
  assert.deepEqual(documented, declared);
});
