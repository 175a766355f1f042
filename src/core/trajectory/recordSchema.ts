// The shape of every field of every .rlm.jsonl line, checked before anything reads it: a trajectory is
// a file anyone can edit or hand over, so a field of the wrong type must become a reported problem on
// its line, never a crash in `rlm show`, an export or the view. The rules are derived from the one
// declaration of each event (eventSchemas.ts), read leniently where files legitimately differ from what
// RLM writes today: fields older files lack may be absent, a word from a closed set may be any string
// (a newer writer may add one), and fields a newer writer adds are allowed and left alone.
import * as z from 'zod';
import { mayBeAbsentInOlderFiles } from '../recordFields';
import { EVENT_SHAPES, headerShape } from './eventSchemas';
import type { EventTypeName } from './eventSchemas';

/** The reading form of a written schema (see the file's comment). */
function readable(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional) return readable(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return readable(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodObject) return z.object(readableShape(schema.shape as Record<string, z.ZodType>));
  if (schema instanceof z.ZodArray) return z.array(readable(schema.element as z.ZodType));
  // [start, end] pairs were read as lists of numbers before they were declared as pairs.
  if (schema instanceof z.ZodTuple) return z.array(z.union((schema.def.items as z.ZodType[]).map(readable)));
  if (schema instanceof z.ZodEnum) return z.string();
  if (schema instanceof z.ZodLiteral) return typeof schema.value === 'boolean' ? z.boolean() : z.string();
  return schema;
}

function readableShape(shape: Readonly<Record<string, z.ZodType>>): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(shape)) {
    const read = readable(field as z.ZodType);
    out[name] = mayBeAbsentInOlderFiles(field as z.ZodType) && !(read instanceof z.ZodOptional) ? read.optional() : read;
  }
  return out;
}

/**
 * Every event type's fields, as read (`type`, `runId`, `seq` and `ts` are checked by checkEvent). Each
 * reader is derived on first use: a process that loads the reader but reads no file (the extension at
 * activation) does not pay for building them.
 */
const EVENT_READERS = new Map<string, z.ZodType>();

function eventReader(type: EventTypeName): z.ZodType {
  let reader = EVENT_READERS.get(type);
  if (!reader) {
    reader = z.object(readableShape(EVENT_SHAPES[type] as Record<string, z.ZodType>));
    EVENT_READERS.set(type, reader);
  }
  return reader;
}

export const EVENT_TYPES: readonly EventTypeName[] = Object.keys(EVENT_SHAPES) as EventTypeName[];

/** The file header's fields: each is optional, and a damaged one is dropped, not the file. Built on first use. */
let headerReaders: ReadonlyMap<string, z.ZodType> | undefined;

function headerReadersOnce(): ReadonlyMap<string, z.ZodType> {
  headerReaders ??= new Map(Object.entries(readableShape(headerShape)).map(([name, schema]) => [name, schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema]));
  return headerReaders;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
};

/** The first issue zod found, in the words of the reader's problems: "run.finished.answer should be a string, not an array". */
function firstProblem(error: z.ZodError, value: unknown, path: string): string {
  const issue = error.issues[0]!;
  let at: unknown = value;
  let where = path;
  for (const key of issue.path) {
    at = typeof at === 'object' && at !== null && Object.hasOwn(at, key) ? (at as Record<PropertyKey, unknown>)[key] : undefined;
    where += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  if (issue.code === 'invalid_type' && at === undefined) return `${where} is missing`;
  if (issue.code === 'invalid_type') return `${where} should be ${EXPECTED[issue.expected] ?? issue.expected}, not ${describe(at)}`;
  if (issue.code === 'invalid_union') return `${where} should be a number, not ${describe(at)}`;
  return `${where}: ${issue.message}`;
}

/** Why the fields of an event of a known `type` do not match its schema (naming the path), or undefined. */
export function checkEventFields(value: Record<string, unknown>, type: EventTypeName): string | undefined {
  const result = eventReader(type).safeParse(value);
  return result.success ? undefined : firstProblem(result.error, value, type);
}

/**
 * The header with every field that has the wrong shape removed, and what was removed: a damaged header
 * must not stop the events after it from being read.
 */
export function sanitizeHeader(header: Record<string, unknown>): { header: Record<string, unknown>; problems: string[] } {
  const clean: Record<string, unknown> = { ...header };
  const problems: string[] = [];
  for (const [name, schema] of headerReadersOnce()) {
    if (clean[name] === undefined) continue;
    const result = schema.safeParse(clean[name]);
    if (!result.success) {
      problems.push(firstProblem(result.error, clean[name], `header.${name}`));
      delete clean[name];
    }
  }
  return { header: clean, problems };
}
