// The shape of every field of every .rlm.jsonl line, checked before anything reads it: a trajectory is
// a file anyone can edit or hand over, so a field of the wrong type must become a reported problem on
// its line, never a crash in `rlm show`, an export or the view. Fields a newer writer adds are allowed.
import { isPlainObject } from './trajectoryFormat';

type Schema =
  | 'string'
  | 'number'
  | 'boolean'
  | 'any'
  /** A number, or null (an unknown cost). */
  | 'numberOrNull'
  | { object: Fields }
  | { arrayOf: Schema };

type Fields = Record<string, Schema | { optional: Schema }>;

const opt = (schema: Schema): { optional: Schema } => ({ optional: schema });

const MODEL_REF: Schema = { object: { provider: 'string', model: 'string', baseUrl: opt('string') } };
const USAGE: Schema = {
  object: { inputTokens: 'number', outputTokens: 'number', costUsd: opt('numberOrNull'), cacheReadTokens: opt('number'), cacheWriteTokens: opt('number'), savedUsd: opt('number'), fromCache: opt('boolean'), includedInPlan: opt('boolean'), batchPrice: opt('boolean') },
};
const TOTALS: Schema = {
  object: {
    inputTokens: 'number',
    outputTokens: 'number',
    costUsd: opt('numberOrNull'),
    costUnknown: opt('boolean'),
    includedInPlan: opt('boolean'),
    subCalls: opt('number'),
    iterations: opt('number'),
    wallTimeMs: opt('number'),
    cacheReadTokens: opt('number'),
    cacheWriteTokens: opt('number'),
    savedUsd: opt('number'),
    cachedSubCalls: opt('number'),
  },
};
const BATCH_COUNTS: Schema = { object: { total: 'number', succeeded: 'number', errored: 'number', expired: 'number', canceled: 'number', processing: 'number' } };
const ERROR: Schema = { object: { kind: 'string', message: 'string', limit: opt('string') } };
const CELL_ERROR: Schema = { object: { type: 'string', message: 'string', traceback: opt('string') } };
const CONTEXT: Schema = {
  object: {
    type: 'string',
    totalChars: 'number',
    totalBytes: opt('number'),
    fileCount: 'number',
    prefix: opt('string'),
    files: opt({ arrayOf: { object: { path: 'string', chars: 'number' } } }),
    filesOmitted: opt('number'),
    invalidUtf8Replacements: opt('number'),
    approximate: opt('boolean'),
    leftOut: opt({ arrayOf: { object: { path: 'string', reason: 'string', bytes: opt('number'), detail: opt('string') } } }),
    format: opt({ object: { compression: opt('string'), compressedFiles: opt('number'), logSets: opt({ arrayOf: { object: { log: 'string', parts: 'number' } } }), logSetsOmitted: opt('number') } }),
  },
};
const TARGET: Schema = {
  object: {
    kind: 'string',
    paths: { arrayOf: 'string' },
    totalBytes: 'number',
    fileCount: 'number',
    skipped: opt({ arrayOf: { object: { path: 'string', reason: 'string', bytes: opt('number'), detail: opt('string') } } }),
  },
};
const CONFIG: Schema = {
  object: {
    root: MODEL_REF,
    sub: MODEL_REF,
    maxIterations: opt('number'),
    maxDepth: opt('number'),
    maxSubCalls: opt('number'),
    maxTotalTokens: opt('number'),
    maxCostUsd: opt('number'),
    maxWallTimeMs: opt('number'),
    maxConsecutiveErrors: opt('number'),
    cellTimeoutMs: opt('number'),
    subCallTimeoutMs: opt('number'),
    subCallMaxTokens: opt('number'),
    subCallConcurrency: opt('number'),
    observationMaxChars: opt('number'),
    outputCaptureMaxChars: opt('number'),
  },
};

/** Every event type and all its fields (`runId`, `seq`, `ts` and `type` are checked for all). */
export const EVENT_FIELDS: Record<string, Fields> = {
  'run.started': {
    parentRunId: opt('string'),
    parentCellId: opt('string'),
    parentCallId: opt('string'),
    depth: 'number',
    question: 'string',
    context: opt(CONTEXT),
    contextShown: opt(CONTEXT),
    target: opt(TARGET),
    config: opt(CONFIG),
    // Two versions exist; readProtections reads either and anything else as "not recorded".
    protections: opt('any'),
    priorTurns: opt({ arrayOf: { object: { question: 'string', answer: 'string' } } }),
    session: opt({ object: { chat: opt('boolean'), contextVariable: opt('string'), repl: opt('string'), carriedOver: opt({ arrayOf: 'string' }) } }),
    continuedFrom: opt({ object: { mode: 'string', trajectory: opt('string'), runId: 'string', question: 'string', fromTurn: opt('number'), allowDivergence: opt('boolean') } }),
  },
  'turn.started': { turn: 'number' },
  'model.delta': { turn: 'number', text: 'string' },
  'model.output': { turn: 'number', text: 'string', usage: USAGE, latencyMs: opt('number'), finishReason: opt('string'), requestBytes: opt('number'), forcedFinal: opt('boolean'), replayed: opt('boolean') },
  'protocol.notice': { turn: 'number', kind: 'string', message: 'string' },
  'cell.started': { turn: 'number', cellId: 'string', code: 'string', author: opt('string') },
  'cell.output': { cellId: 'string', stream: 'string', text: 'string' },
  'cell.finished': {
    cellId: 'string',
    stdout: 'string',
    stderr: 'string',
    stdoutChars: opt('number'),
    stderrChars: opt('number'),
    stdoutCutAt: opt('number'),
    stderrCutAt: opt('number'),
    outKept: opt({ object: { chars: 'number', ranges: { arrayOf: { arrayOf: 'number' } } } }),
    answerDraft: opt('string'),
    error: opt(CELL_ERROR),
    newVariables: opt({ arrayOf: 'string' }),
    durationMs: opt('number'),
    outIndex: opt('number'),
    final: opt({ object: { value: 'string', via: 'string' } }),
    timedOut: opt('boolean'),
    interrupted: opt('boolean'),
    restarted: opt({ object: { reason: 'string', detail: 'string' } }),
    contextReads: opt({ object: { files: 'number', bytes: 'number', paths: { arrayOf: 'string' }, searches: 'number', searchedBytes: 'number' } }),
  },
  'subcall.started': {
    callId: 'string',
    cellId: 'string',
    kind: 'string',
    batchId: opt('string'),
    batchIndex: opt('number'),
    batchSize: opt('number'),
    depth: opt('number'),
    model: MODEL_REF,
    prompt: 'string',
    slice: opt({ object: { start: 'number', end: 'number' } }),
    author: opt('string'),
  },
  'subcall.finished': { callId: 'string', response: opt('string'), error: opt(ERROR), usage: USAGE, latencyMs: opt('number'), fallback: opt('string'), cached: opt('boolean'), replayed: opt('boolean') },
  'replay.diverged': { turn: 'number', cellId: opt('string'), kind: 'string', detail: 'string', continued: opt('boolean') },
  'child.started': { callId: 'string', childRunId: 'string' },
  'child.finished': { callId: 'string', childRunId: 'string', status: 'string', answer: opt('string') },
  'limit.warning': { limit: 'string', value: 'number', max: 'number' },
  'batch.estimated': { cellId: 'string', batchId: 'string', prompts: 'number', chars: 'number', estimatedCostUsd: opt('numberOrNull'), refused: opt('boolean'), batchPrice: opt('boolean') },
  'batch.submitted': {
    cellId: 'string',
    batchId: 'string',
    provider: 'string',
    endpoint: 'string',
    model: 'string',
    providerBatchId: 'string',
    items: { arrayOf: { object: { customId: 'string', promptHash: 'string' } } },
    resumed: opt('boolean'),
  },
  'batch.progress': { batchId: 'string', providerBatchId: 'string', status: 'string', counts: BATCH_COUNTS, elapsedMs: 'number' },
  'batch.ended': { batchId: 'string', providerBatchId: 'string', status: 'string', counts: BATCH_COUNTS, elapsedMs: 'number', cancelled: opt('boolean') },
  fallback: { kind: 'string', detail: 'string' },
  answer: { text: 'string', forced: opt('boolean'), via: opt('string') },
  references: {
    references: { arrayOf: { object: { path: 'string', line: 'number', endLine: opt('number'), text: 'string' } } },
    unresolved: { arrayOf: { object: { citation: 'string', path: 'string', line: 'number', endLine: opt('number'), reason: 'string', detail: opt('string') } } },
  },
  coverage: {
    coverage: {
      object: {
        totalLines: 'number',
        buckets: { arrayOf: { object: { lines: 'number', cell: 'number', subcall: 'number', cited: 'number' } } },
        files: { arrayOf: { object: { path: 'string', firstLine: 'number', lines: 'number' } } },
        seenLines: 'number',
        citedLines: 'number',
      },
    },
  },
  'run.finished': { status: 'string', answer: opt('string'), forced: opt('boolean'), error: opt(ERROR), partial: opt('string'), totals: opt(TOTALS) },
};

/** The file header: what `rlm show` and the view read from it. */
const HEADER_FIELDS: Fields = {
  toolVersion: opt('string'),
  startedAt: opt('string'),
  question: opt('string'),
  target: opt(TARGET),
  context: opt(CONTEXT),
  config: opt(CONFIG),
  models: opt({ object: { root: MODEL_REF, sub: MODEL_REF } }),
  protections: opt('any'),
  runId: opt('string'),
  conversationId: opt('string'),
  askedBy: opt({ object: { kind: 'string', via: 'string', client: opt('string') } }),
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Why `value` does not match `schema` (naming the path), or undefined when it does. */
function checkSchema(value: unknown, schema: Schema, path: string): string | undefined {
  if (schema === 'any') return undefined;
  if (schema === 'string') return typeof value === 'string' ? undefined : `${path} should be a string, not ${describe(value)}`;
  if (schema === 'boolean') return typeof value === 'boolean' ? undefined : `${path} should be true or false, not ${describe(value)}`;
  if (schema === 'number' || schema === 'numberOrNull') {
    if (schema === 'numberOrNull' && value === null) return undefined;
    return typeof value === 'number' && Number.isFinite(value) ? undefined : `${path} should be a number, not ${describe(value)}`;
  }
  if ('arrayOf' in schema) {
    if (!Array.isArray(value)) return `${path} should be a list, not ${describe(value)}`;
    for (let i = 0; i < value.length; i++) {
      const problem = checkSchema(value[i], schema.arrayOf, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return `${path} should be an object, not ${describe(value)}`;
  return checkFields(value, schema.object, path);
}

export function checkFields(value: Record<string, unknown>, fields: Fields, path: string): string | undefined {
  for (const [name, spec] of Object.entries(fields)) {
    const optional = typeof spec === 'object' && 'optional' in spec;
    const schema = optional ? spec.optional : (spec as Schema);
    const field = value[name];
    if (field === undefined) {
      if (optional) continue;
      return `${path}.${name} is missing`;
    }
    const problem = checkSchema(field, schema, `${path}.${name}`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The header with every field that has the wrong shape removed, and what was removed: a damaged header
 * must not stop the events after it from being read.
 */
export function sanitizeHeader(header: Record<string, unknown>): { header: Record<string, unknown>; problems: string[] } {
  const clean: Record<string, unknown> = { ...header };
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(HEADER_FIELDS)) {
    if (clean[name] === undefined) continue;
    const schema = typeof spec === 'object' && 'optional' in spec ? spec.optional : (spec as Schema);
    const problem = checkSchema(clean[name], schema, `header.${name}`);
    if (problem) {
      problems.push(problem);
      delete clean[name];
    }
  }
  return { header: clean, problems };
}
