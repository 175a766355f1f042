// Every trajectory event, declared once. The TypeScript types of events.ts are inferred from these
// schemas, and the check every .rlm.jsonl line passes before anything reads it (recordSchema.ts) is
// derived from them, so a field added here is typed, checked and (docs test) documented at once.
//
// These are the shapes as RLM writes them today. Files are read more leniently, by rules declared here
// too: `olderFiles(schema)` marks a field that files written by earlier versions may lack, and words
// from a closed set (a kind, a status) are read as any string, since a newer writer may add one and a
// reader shows it as text. Everything else is checked as declared: a wrong type is a problem on its line.
import * as z from 'zod';
import { contextMetadataSchema, targetSchema } from '../context/contextSchemas';
import { ERROR_KINDS } from '../errorKind';
import { num, olderFiles } from '../recordFields';
import type { ProviderKind } from '../models/modelTypes';
import { tokenUsageSchema } from '../models/tokenUsageSchema';
import { cellResultSchema } from '../repl/cellResultSchema';
import type { SandboxProtections } from '../repl/replTypes';

// ---- Shapes declared elsewhere in core (their modules own the types; these check them) ----------------

/**
 * Two versions exist (version 2's probed layers, version 1's flat booleans); readProtections reads
 * either and anything else as "not recorded", so the reader lets any value through here.
 */
const protectionsSchema = z.custom<SandboxProtections>(() => true);

// ---- Records of the trajectory itself ------------------------------------------------------------------

const PROVIDER_KINDS = ['openai', 'anthropic', 'vscode', 'mcp'] as const;

export const modelRefSchema = z.object({
  provider: z.enum(PROVIDER_KINDS),
  model: z.string(),
  /** Endpoint without credentials. */
  baseUrl: z.string().optional(),
});

/** Configuration as recorded: limits and models, never keys. */
export const runConfigSchema = z.object({
  root: modelRefSchema,
  sub: modelRefSchema,
  maxIterations: olderFiles(num()),
  maxDepth: olderFiles(num()),
  maxSubCalls: olderFiles(num()),
  maxTotalTokens: num().optional(),
  maxCostUsd: num().optional(),
  maxWallTimeMs: num().optional(),
  maxConsecutiveErrors: olderFiles(num()),
  cellTimeoutMs: olderFiles(num()),
  subCallTimeoutMs: olderFiles(num()),
  subCallMaxTokens: olderFiles(num()),
  subCallConcurrency: olderFiles(num()),
  /** Characters of a cell's output the root sees (head + tail). */
  observationMaxChars: olderFiles(num()),
  /** Characters of a cell's output that are captured and recorded. */
  outputCaptureMaxChars: olderFiles(num()),
});

/** A `path:line` (or `path:start-end`) citation of the answer, found in the bound context. */
export const referenceSchema = z.object({
  /** The context's own path of the file (for a single text, the name it was bound under). */
  path: z.string(),
  /** 1-based. */
  line: num(),
  /** Inclusive end of a range. */
  endLine: num().optional(),
  /** The cited line(s) as they read when the run ended, clipped; file text, shown as text only. */
  text: z.string(),
  /**
   * For a Jupyter notebook (read as its text form, whose lines `line`/`endLine` count): the cell cited,
   * 1-based, and `line`/`endLine` within its source when the lines are source lines; `endCell` when the
   * range ends in a later cell. Shown as `analysis.ipynb#cell=3:2`.
   */
  notebookCell: z.object({ cell: num(), line: num().optional(), endLine: num().optional(), endCell: num().optional() }).optional(),
});

/** A citation of the answer that could not be found in the context: listed, never dropped. */
export const unresolvedCitationSchema = z.object({
  /** As written in the answer. */
  citation: z.string(),
  path: z.string(),
  line: num(),
  endLine: num().optional(),
  reason: z.enum(['unknown-path', 'ambiguous-path', 'line-out-of-range', 'bad-range', 'unreadable']),
  detail: olderFiles(z.string()),
});

/**
 * The recorded run a run was continued or forked from. `continue`: every recorded turn was replayed and a
 * new question asked; `fork`: turns 1..fromTurn-1 were replayed and the root took over at fromTurn;
 * `session`: only replayed, so the user can run their own cells in it; no question was asked.
 */
export const continuedFromSchema = z.object({
  mode: z.enum(['continue', 'fork', 'session']),
  /** The parent trajectory, as the user named it. */
  trajectory: z.string().optional(),
  runId: z.string(),
  question: z.string(),
  fromTurn: num().optional(),
  allowDivergence: olderFiles(z.boolean()),
});

const RUN_STATUSES = ['completed', 'forced', 'cancelled', 'limit', 'error'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);

const LIMIT_KINDS = ['iterations', 'depth', 'subCalls', 'totalTokens', 'costUsd', 'wallTime', 'consecutiveErrors'] as const;
export const limitKindSchema = z.enum(LIMIT_KINDS);

/** Why a run or a sub-call failed: a stable word (errorKind.ts), what happened, and the limit reached. */
export const runErrorSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  /** Set when a limit stopped the run. */
  limit: limitKindSchema.optional(),
});

export const usageTotalsSchema = z.object({
  inputTokens: num(),
  outputTokens: num(),
  /** null when any contributing model has an unknown price. */
  costUsd: olderFiles(num().nullable()),
  /** True when some part of the cost is unknown (it is then a lower bound or null). */
  costUnknown: olderFiles(z.boolean()),
  /** Some call was paid by the user's plan (a VS Code language model): cost 0, read "included in your plan". */
  includedInPlan: z.boolean().optional(),
  subCalls: olderFiles(num()),
  iterations: olderFiles(num()),
  wallTimeMs: olderFiles(num()),
  /** Prompt tokens the providers read from their prompt caches (billed at their cache rate). */
  cacheReadTokens: num().optional(),
  cacheWriteTokens: num().optional(),
  /** What prompt caching and the sub-call cache saved against full price (known prices only). */
  savedUsd: num().optional(),
  /** Sub-calls answered from the sub-call cache, with no request sent. */
  cachedSubCalls: num().optional(),
});

/** A run's place in a conversation of runs sharing a REPL (recorded for imported reference logs). */
export const runSessionSchema = z.object({
  /** The reference's `session_mode`: the run was a chat turn whose root saw the session's earlier messages. */
  chat: z.boolean().optional(),
  /** The REPL variable the run's input was bound to (`context`, `completion_context`, `session_context_2`). */
  contextVariable: z.string().optional(),
  /** Whether the run found the REPL of the run before it ('shared') or a new one, as its namespace shows. */
  repl: z.enum(['shared', 'new', 'unknown']).optional(),
  /** Variables of earlier runs the run found in its REPL. */
  carriedOver: z.array(z.string()).optional(),
});

/** Which lines of the input a run saw and cited (citations/coverage.ts computes it). */
export const coverageSchema = z.object({
  totalLines: num(),
  /** The input in order (files one after another), cut into equal runs of lines. */
  buckets: z.array(z.object({ lines: num(), cell: num(), subcall: num(), cited: num() })),
  /** Where each file starts (1-based line of the whole input); at most 500 are listed. */
  files: z.array(z.object({ path: z.string(), firstLine: num(), lines: num() })),
  seenLines: num(),
  citedLines: num(),
});

// ---- The events ----------------------------------------------------------------------------------------

/** Where a provider batch's requests are (the same figures as core/models/batchTypes.ts BatchCounts). */
export const providerBatchCountsSchema = z.object({ total: num(), succeeded: num(), errored: num(), expired: num(), canceled: num(), processing: num() });

const PROTOCOL_NOTICE_KINDS = ['no-code-block', 'extra-code-blocks', 'python-block', 'bare-block', 'final-in-prose', 'final-var-missing', 'empty-final'] as const;

/** The fields of every event, by type; `type` and `runId` are added to each, `seq` and `ts` to records. */
export const EVENT_SHAPES = {
  'run.started': {
    /** Set for child runs started by rlm_query. */
    parentRunId: z.string().optional(),
    parentCellId: z.string().optional(),
    parentCallId: z.string().optional(),
    depth: num(),
    question: z.string(),
    /** `context` as bound: exact sizes. */
    context: olderFiles(contextMetadataSchema),
    /** What the root's first request was told of `context` when that was a preview sent before binding finished. */
    contextShown: contextMetadataSchema.optional(),
    target: targetSchema.optional(),
    config: olderFiles(runConfigSchema),
    protections: olderFiles(protectionsSchema),
    /** Prior questions and answers of the same conversation given to the root. */
    priorTurns: z.array(z.object({ question: z.string(), answer: z.string() })).optional(),
    /** How the run stood to the earlier runs of its conversation, where the source recorded it. */
    session: runSessionSchema.optional(),
    /** This run re-ran a recorded run's cells first (`rlm continue`): which, and how. */
    continuedFrom: continuedFromSchema.optional(),
  },
  'turn.started': { turn: num() },
  /** Streamed model text; the writer does not persist deltas (model.output carries the whole text). */
  'model.delta': { turn: num(), text: z.string() },
  'model.output': {
    turn: num(),
    text: z.string(),
    usage: tokenUsageSchema,
    latencyMs: olderFiles(num()),
    finishReason: olderFiles(z.string()),
    /** Size in bytes of the request sent to the root, to show the window stays flat. */
    requestBytes: olderFiles(num()),
    /** This is the extra "give your best answer" call at the iteration limit. */
    forcedFinal: z.boolean().optional(),
    /** The recorded reply of a replayed turn: not sent, not billed. */
    replayed: z.literal(true).optional(),
  },
  'protocol.notice': {
    turn: num(),
    kind: z.enum(PROTOCOL_NOTICE_KINDS),
    /** The corrective text appended to the root's history. */
    message: z.string(),
  },
  /** `author: 'user'`: a cell the user ran in the run's REPL themselves, in a turn of its own after the root's. */
  'cell.started': { turn: num(), cellId: z.string(), code: z.string(), author: z.literal('user').optional() },
  /** Streamed output; persisted only through cell.finished. */
  'cell.output': { cellId: z.string(), stream: z.enum(['stdout', 'stderr']), text: z.string() },
  /** The cell's CellResult as the REPL reported it. */
  'cell.finished': { cellId: z.string(), ...cellResultSchema.shape },
  'subcall.started': {
    callId: z.string(),
    cellId: z.string(),
    kind: z.enum(['llm_query', 'rlm_query']),
    /** Shared by the items of one batched call. */
    batchId: z.string().optional(),
    batchIndex: num().optional(),
    batchSize: num().optional(),
    depth: olderFiles(num()),
    model: modelRefSchema,
    /** The whole text sent to the sub model. */
    prompt: z.string(),
    /** sub_query(prompt, slice): where the slice lies in `prompt`, [start, end) in UTF-16 units. */
    slice: z.object({ start: num(), end: num() }).optional(),
    /** Made by a user's cell: the user's own sub-call, billed like any other. */
    author: z.literal('user').optional(),
  },
  'subcall.finished': {
    callId: z.string(),
    response: z.string().optional(),
    error: runErrorSchema.optional(),
    usage: tokenUsageSchema,
    latencyMs: olderFiles(num()),
    /** The call was answered by a plain llm_query because max depth was reached. */
    fallback: z.literal('depth-limit').optional(),
    /** Answered from the sub-call cache: no request was sent, nothing was paid. */
    cached: z.literal(true).optional(),
    /** Answered from the record being replayed: no request was sent, nothing was paid. */
    replayed: z.literal(true).optional(),
  },
  /** A replayed cell (or the bound context) did not match the record. `cellId` is absent for `context`. */
  'replay.diverged': {
    turn: num(),
    cellId: z.string().optional(),
    kind: z.enum(['context', 'output', 'error', 'subcall']),
    detail: z.string(),
    continued: olderFiles(z.boolean()),
  },
  'child.started': { callId: z.string(), childRunId: z.string() },
  'child.finished': { callId: z.string(), childRunId: z.string(), status: runStatusSchema, answer: z.string().optional() },
  'limit.warning': { limit: limitKindSchema, value: num(), max: num() },
  /** A large llm_query_batched, estimated before it was sent; `refused` when it would pass the cost limit. */
  'batch.estimated': {
    cellId: z.string(),
    batchId: z.string(),
    prompts: num(),
    chars: num(),
    estimatedCostUsd: olderFiles(num().nullable()),
    refused: z.literal(true).optional(),
    /** The estimate is at the provider's batch price (the run sends llm_query_batched as a provider batch). */
    batchPrice: z.literal(true).optional(),
  },
  /**
   * A provider batch (OpenAI Batch API, Anthropic Message Batches) was created for an llm_query_batched,
   * or a recorded one was taken up again (`resumed`): written before any wait, so a run interrupted while
   * waiting can poll it instead of sending it again. `items` pair each request's custom id with the hash
   * of the request it carries (providerBatchItemHash); `endpoint` is only compared, never contacted.
   */
  'batch.submitted': {
    cellId: z.string(),
    batchId: z.string(),
    provider: z.enum(['openai', 'anthropic']),
    endpoint: z.string(),
    model: z.string(),
    providerBatchId: z.string(),
    items: z.array(z.object({ customId: z.string(), promptHash: z.string() })),
    resumed: z.literal(true).optional(),
  },
  /** A poll of a provider batch whose status or counts changed. */
  'batch.progress': { batchId: z.string(), providerBatchId: z.string(), status: z.string(), counts: providerBatchCountsSchema, elapsedMs: num() },
  /**
   * A provider batch ended (its results were read), or was cancelled when the run was stopped
   * (`cancelled`: `counts.succeeded` requests had already run and are billed). `failure`: the
   * provider's own words when the batch failed as a whole (OpenAI's `errors.data`, e.g. validation).
   */
  'batch.ended': { batchId: z.string(), providerBatchId: z.string(), status: z.string(), counts: providerBatchCountsSchema, elapsedMs: num(), cancelled: z.literal(true).optional(), failure: z.string().optional() },
  /** `kind` is open: a newer loop may fall back in a way this one does not name. */
  fallback: { kind: z.string(), detail: z.string() },
  /**
   * via: how the answer was given. 'forced': in the last turn a limit allowed; 'draft': a limit left no
   * turn, and this is the answer["content"] the cells had assembled. ('partial' appears only in files
   * written before the RLM contract v1.)
   */
  answer: { text: z.string(), forced: olderFiles(z.boolean()), via: olderFiles(z.enum(['FINAL', 'FINAL_VAR', 'answer', 'forced', 'draft', 'partial'])) },
  /** Which lines of the input the run saw and cited: an estimate, for the coverage strip. */
  coverage: { coverage: coverageSchema },
  /** The answer's citations resolved against `context`, right after the answer. */
  references: { references: z.array(referenceSchema), unresolved: z.array(unresolvedCitationSchema) },
  'run.finished': {
    status: runStatusSchema,
    answer: z.string().optional(),
    forced: olderFiles(z.boolean()),
    error: runErrorSchema.optional(),
    /** A run that ended without an answer: its last output, kept as partial findings, never as the answer. */
    partial: z.string().optional(),
    totals: olderFiles(usageTotalsSchema),
  },
} satisfies Record<string, z.ZodRawShape>;

type EventShapes = typeof EVENT_SHAPES;
export type EventTypeName = keyof EventShapes;

/** One event as the loop emits it. */
export type EventOfShape<T extends EventTypeName> = { type: T; runId: string } & z.infer<z.ZodObject<EventShapes[T]>>;

/** The file header's fields that readers use, with the same rules. */
export const headerShape = {
  toolVersion: z.string(),
  startedAt: z.string(),
  question: z.string(),
  target: targetSchema.optional(),
  context: contextMetadataSchema,
  config: runConfigSchema,
  models: z.object({ root: modelRefSchema, sub: modelRefSchema }),
  protections: protectionsSchema,
  runId: z.string().optional(),
  conversationId: z.string().optional(),
  askedBy: z.object({ kind: z.literal('agent'), via: z.enum(['vscode-tool', 'mcp']), client: z.string().optional() }).optional(),
};

// ---- The types owned by other modules must agree with their schemas (checked by tsc) ------------------

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agree<T extends true> = T;
type _SchemasAgree = [
  Agree<Same<(typeof PROVIDER_KINDS)[number], ProviderKind>>,
];
