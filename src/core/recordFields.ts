// What the record schemas of several core folders share (context/contextSchemas.ts,
// models/tokenUsageSchema.ts, trajectory/eventSchemas.ts): the mark for a field that files written by
// earlier versions may lack, and the number rule. Here, in core/ itself, so that each folder declares
// its own shapes without importing the trajectory's.
import * as z from 'zod';

const MAY_BE_ABSENT_IN_OLDER_FILES = new WeakSet<z.ZodType>();

/** A field every event written now has, but files written by earlier versions may lack. */
export function olderFiles<T extends z.ZodType>(schema: T): T {
  MAY_BE_ABSENT_IN_OLDER_FILES.add(schema);
  return schema;
}

export function mayBeAbsentInOlderFiles(schema: z.ZodType): boolean {
  return MAY_BE_ABSENT_IN_OLDER_FILES.has(schema);
}

/** Counts and sizes: finite numbers (JSON's 1e999 parses to Infinity and is refused). */
export const num = (): z.ZodNumber => z.number();
