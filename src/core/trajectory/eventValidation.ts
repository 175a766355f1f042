// Checks that a parsed line is an event the tree builder can use safely. Only the fields the builder
// relies on are checked; optional fields are left to the event types. Unknown event types are not
// errors here: they are reported separately and kept, since a newer writer may add them.
import type { RunEventType } from './events';
import { isPlainObject } from './trajectoryFormat';

type FieldKind = 'string' | 'number' | 'object' | 'usage';

const REQUIRED: Record<RunEventType, Record<string, FieldKind>> = {
  'run.started': { runId: 'string', depth: 'number', question: 'string' },
  'turn.started': { runId: 'string', turn: 'number' },
  'model.delta': { runId: 'string', turn: 'number', text: 'string' },
  'model.output': { runId: 'string', turn: 'number', text: 'string', usage: 'usage' },
  'protocol.notice': { runId: 'string', turn: 'number', kind: 'string', message: 'string' },
  'cell.started': { runId: 'string', turn: 'number', cellId: 'string', code: 'string' },
  'cell.output': { runId: 'string', cellId: 'string', stream: 'string', text: 'string' },
  'cell.finished': { runId: 'string', cellId: 'string', stdout: 'string', stderr: 'string' },
  'subcall.started': { runId: 'string', callId: 'string', cellId: 'string', kind: 'string', prompt: 'string', model: 'object' },
  'subcall.finished': { runId: 'string', callId: 'string', usage: 'usage' },
  'child.started': { runId: 'string', callId: 'string', childRunId: 'string' },
  'child.finished': { runId: 'string', callId: 'string', childRunId: 'string', status: 'string' },
  'limit.warning': { runId: 'string', limit: 'string', value: 'number', max: 'number' },
  fallback: { runId: 'string', kind: 'string', detail: 'string' },
  answer: { runId: 'string', text: 'string' },
  'run.finished': { runId: 'string', status: 'string' },
};

export type EventCheck =
  | { ok: true; type: RunEventType }
  | { ok: false; unknownType: string }
  | { ok: false; invalid: string };

const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.keys(REQUIRED));
const REQUIRED_ENTRIES = new Map(Object.entries(REQUIRED).map(([type, fields]) => [type, Object.entries(fields)]));

export function isKnownEventType(type: string): type is RunEventType {
  return KNOWN_TYPES.has(type);
}

export function checkEvent(value: unknown): EventCheck {
  if (!isPlainObject(value)) return { ok: false, invalid: 'the line is not a JSON object' };
  if (typeof value.type !== 'string') return { ok: false, invalid: 'the record has no "type"' };
  if (typeof value.seq !== 'number' || !Number.isFinite(value.seq)) return { ok: false, invalid: `${value.type} has no numeric "seq"` };
  if (typeof value.ts !== 'number' || !Number.isFinite(value.ts)) return { ok: false, invalid: `${value.type} has no numeric "ts"` };
  if (!isKnownEventType(value.type)) return { ok: false, unknownType: value.type };
  for (const [field, kind] of REQUIRED_ENTRIES.get(value.type) ?? []) {
    const problem = checkField(value[field], kind);
    if (problem) return { ok: false, invalid: `${value.type}.${field} ${problem}` };
  }
  return { ok: true, type: value.type };
}

function checkField(v: unknown, kind: FieldKind): string | undefined {
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? undefined : 'is missing or not a string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'is missing or not a number';
    case 'object':
      return isPlainObject(v) ? undefined : 'is missing or not an object';
    case 'usage':
      if (!isPlainObject(v)) return 'is missing or not an object';
      if (typeof v.inputTokens !== 'number' || typeof v.outputTokens !== 'number') return 'lacks numeric inputTokens/outputTokens';
      return v.costUsd === null || typeof v.costUsd === 'number' ? undefined : 'costUsd must be a number or null';
  }
}
