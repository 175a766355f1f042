// Checks that a parsed line is an event every reader can use safely: every field of its type is
// checked against the event's schema (recordSchema.ts), so a wrong type is a problem on that line,
// never a crash later. Unknown event types are not errors here: they are reported separately and
// kept, since a newer writer may add them.
import type { RunEventType } from './events';
import { checkEventFields, EVENT_TYPES } from './recordSchema';
import { isPlainObject } from './trajectoryFormat';

type EventCheck =
  | { ok: true; type: RunEventType }
  | { ok: false; unknownType: string }
  | { ok: false; invalid: string };

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

function isKnownEventType(type: string): type is RunEventType {
  return KNOWN_TYPES.has(type);
}

export function checkEvent(value: unknown): EventCheck {
  if (!isPlainObject(value)) return { ok: false, invalid: 'the line is not a JSON object' };
  if (typeof value.type !== 'string') return { ok: false, invalid: 'the record has no "type"' };
  if (typeof value.seq !== 'number' || !Number.isFinite(value.seq)) return { ok: false, invalid: `${value.type} has no numeric "seq"` };
  if (typeof value.ts !== 'number' || !Number.isFinite(value.ts)) return { ok: false, invalid: `${value.type} has no numeric "ts"` };
  if (!isKnownEventType(value.type)) return { ok: false, unknownType: value.type };
  if (typeof value.runId !== 'string') return { ok: false, invalid: `${value.type}.runId is missing or not a string` };
  const problem = checkEventFields(value, value.type);
  return problem ? { ok: false, invalid: problem } : { ok: true, type: value.type };
}
