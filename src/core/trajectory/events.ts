// The one typed event stream of a run. The loop emits these; the trajectory writer appends them to
// the .rlm.jsonl file, the webview renders them live, the reader rebuilds the same tree from the
// file, and the CLI prints them. Content is carried once: a turn event holds only what is new.
// Every shape is declared once, as a schema in eventSchemas.ts; the types here are inferred from it.
import type { z } from 'zod';
import type {
  continuedFromSchema,
  coverageSchema,
  EventOfShape,
  EventTypeName,
  limitKindSchema,
  modelRefSchema,
  providerBatchCountsSchema,
  referenceSchema,
  runConfigSchema,
  runErrorSchema,
  runSessionSchema,
  runStatusSchema,
  unresolvedCitationSchema,
  usageTotalsSchema,
} from './eventSchemas';

export type ModelRef = z.infer<typeof modelRefSchema>;

/** Configuration as recorded: limits and models, never keys. */
export type RunConfigRecord = z.infer<typeof runConfigSchema>;

/** A `path:line` (or `path:start-end`) citation of the answer, found in the bound context. */
export type Reference = z.infer<typeof referenceSchema>;

/** A citation of the answer that could not be found in the context: listed, never dropped. */
export type UnresolvedCitation = z.infer<typeof unresolvedCitationSchema>;

/** The recorded run a run was continued or forked from. */
export type ContinuedFrom = z.infer<typeof continuedFromSchema>;

export type RunStatus = z.infer<typeof runStatusSchema>;

export type LimitKind = z.infer<typeof limitKindSchema>;

/** Where a provider batch's requests are. */
export type ProviderBatchCounts = z.infer<typeof providerBatchCountsSchema>;

/** Why a run or a sub-call failed, as RLM writes it: `kind` is a stable ErrorKind. */
export type RunError = z.infer<typeof runErrorSchema>;

/**
 * A failure as a file records it: files written before the stable error kinds carry class names
 * ('BudgetExceededError'), the Python reference's logs its own words; readers show the kind as text.
 */
export type RecordedRunError = Omit<RunError, 'kind'> & { kind: string };

export type UsageTotals = z.infer<typeof usageTotalsSchema>;

/** A run's place in a conversation of runs sharing a REPL (recorded for imported reference logs). */
export type RunSessionInfo = z.infer<typeof runSessionSchema>;

/** Which lines of the input a run saw and cited: the coverage strip's record. */
export type CoverageRecord = z.infer<typeof coverageSchema>;

export type RunEvent = { [T in EventTypeName]: EventOfShape<T> }[EventTypeName];

export type RunEventType = RunEvent['type'];

/** An event as it travels and is stored: numbered and timestamped by the run's emitter. */
export type EventRecord = RunEvent & {
  /** Monotonically increasing across the whole stream, child runs included. */
  seq: number;
  /** Milliseconds since the epoch. */
  ts: number;
};

/** An event as a file may hold it: a failure's kind is the word the file recorded (RecordedRunError). */
export type RecordedEvent<E extends RunEvent = RunEvent> = E extends { error?: RunError } ? Omit<E, 'error'> & { error?: RecordedRunError } : E;

/** Narrow a record to one event type. */
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
