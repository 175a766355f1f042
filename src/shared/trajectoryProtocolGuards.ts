// What a trajectory webview may post, declared once: the host checks every message against these
// schemas before it acts on it, and the WebviewToHost type (trajectoryProtocol.ts) is inferred from
// them. A webview is our own code, but its messages arrive as `unknown`; a malformed one gets a typed
// error naming what was wrong. Only the host imports this file (the webview imports types alone), so
// zod stays out of the webview bundles.
import * as z from 'zod';

export class InvalidViewMessageError extends Error {
  constructor(
    readonly reason: string,
    readonly received: unknown,
  ) {
    super(`Invalid trajectory view message: ${reason}`);
    this.name = 'InvalidViewMessageError';
  }
}

/** Longest cell the user can send from the view (a paste of a whole file is not a cell). */
const USER_CELL_MAX_CHARS = 200_000;

// Each schema carries the words of its rule; the field's name is put in front (`requestId` must be ...).
const text = () => z.string({ error: 'a string' });
const count = () => z.number({ error: 'a non-negative integer' }).int({ error: 'a non-negative integer' }).min(0, { error: 'a non-negative integer' });
const countUpTo = (max: number) => count().max(max, { error: `an integer from 0 to ${max}` });
const flag = () => z.boolean({ error: 'true or false' });

const RUN_TEXTS = ['question', 'answer'] as const;
const CELL_TEXTS = ['code', 'stdout', 'stderr', 'traceback'] as const;
const CALL_TEXTS = ['prompt', 'response'] as const;

/** Addresses one piece of (possibly long) text the host holds, so the webview can page it. */
export const textRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(RUN_TEXTS), runId: text() }),
  z.object({ kind: z.literal('reasoning'), runId: text(), turnIndex: count() }),
  z.object({ kind: z.enum(CELL_TEXTS), runId: text(), cellId: text() }),
  z.object({ kind: z.enum(CALL_TEXTS), runId: text(), callId: text() }),
]);

export const searchFiltersSchema = z.object({
  errorsOnly: z.boolean({ error: 'a boolean' }),
  /** Only hits in sub-calls of this model (and cells that made such calls). */
  model: text().optional(),
  /** Only sub-calls at this depth. */
  depth: count().optional(),
});

export const exportFormatSchema = z.enum(['ipynb', 'markdown'], { error: '"ipynb" or "markdown"' });

const paging = (max: number) => ({ requestId: count(), runId: text(), from: count(), count: countUpTo(max) });

export const webviewToHostSchema = z.discriminatedUnion('type', [
  /**
   * Handshake: the first message of every (re-)created webview; the host answers with `state`.
   * `embedded` is the stamp of the state the page's HTML carried and the webview already rendered:
   * the host then sends `state` only if the run changed since.
   */
  z.object({ type: z.literal('ready'), protocolVersion: z.number({ error: 'a number' }), embedded: count().optional() }),
  z.object({ type: z.literal('requestTurns'), ...paging(200) }),
  z.object({ type: z.literal('requestOutline'), ...paging(5000) }),
  /** Header and outline of a child run (rlm_query), to render it nested. */
  z.object({ type: z.literal('requestRun'), requestId: count(), runId: text() }),
  /** One cell with every sub-call (when its page view left some out). */
  z.object({ type: z.literal('requestCell'), requestId: count(), runId: text(), cellId: text() }),
  z.object({ type: z.literal('requestText'), requestId: count(), ref: textRefSchema, offset: count(), length: count().min(1, { error: 'a positive integer' }) }),
  z.object({ type: z.literal('search'), requestId: count(), query: text(), filters: searchFiltersSchema }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('export'), format: exportFormatSchema }),
  z.object({ type: z.literal('copy'), ref: textRefSchema }),
  /** Put the run's question in the chat's box, to ask it again (a stopped, limited or failed run). */
  z.object({ type: z.literal('askAgain') }),
  /** Let the user set a price for one of `header.pricing.unpriced`. */
  z.object({ type: z.literal('setPrice'), model: text().optional() }),
  /** Open an rlm.* setting (e.g. the limit that stopped the run). */
  z.object({ type: z.literal('openSetting'), setting: z.string({ error: 'the name of an rlm.* setting' }).regex(/^rlm\.[A-Za-z.]+$/, { error: 'the name of an rlm.* setting' }) }),
  /** Opens the run's `index`-th reference in the editor (the host looks the path up: the view names no path). */
  z.object({ type: z.literal('openReference'), runId: text(), index: count() }),
  /** Opens the run this one continued or forked (the host looks its file up: the view names no path). */
  z.object({ type: z.literal('openParent') }),
  /** Continue this run (a follow-up after replaying it) or fork it at a turn the host asks for. */
  z.object({ type: z.literal('continueRun'), fork: flag() }),
  /** Runs the user's own Python in the run's REPL (or, when it is gone, replays the run first). */
  z.object({ type: z.literal('runUserCell'), code: text().max(USER_CELL_MAX_CHARS, { error: `a string of at most ${USER_CELL_MAX_CHARS} characters` }) }),
  z.object({ type: z.literal('stopUserCell') }),
]);

const MESSAGE_TYPES: ReadonlySet<unknown> = new Set(webviewToHostSchema.options.map((option) => option.shape.type.value));
const TEXT_KINDS: ReadonlySet<unknown> = new Set([...RUN_TEXTS, 'reasoning', ...CELL_TEXTS, ...CALL_TEXTS]);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The reason for the first issue, naming the field: "`ref.cellId` must be a string". */
function reasonOf(error: z.ZodError, raw: Record<string, unknown>): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  const ref = issue.path[0] === 'ref' ? raw.ref : undefined;
  if (issue.path[0] === 'ref' && isObj(ref) && !TEXT_KINDS.has(ref.kind)) return `unknown text kind ${JSON.stringify(ref.kind)}`;
  if (issue.path[0] === 'ref' && !isObj(ref)) return '`ref` must be an object';
  if (issue.path.length > 1 && issue.code === 'invalid_type' && issue.expected === 'object') return `\`${path}\` must be an object`;
  return `\`${path}\` must be ${issue.message}`;
}

type WebviewToHostMessage = z.infer<typeof webviewToHostSchema>;

/** Returns the message typed, or throws InvalidViewMessageError saying which field is wrong. */
export function parseWebviewMessage(raw: unknown): WebviewToHostMessage {
  if (!isObj(raw)) throw new InvalidViewMessageError('a message must be an object', raw);
  if (!MESSAGE_TYPES.has(raw.type)) throw new InvalidViewMessageError(`unknown message type ${JSON.stringify(raw.type)}`, raw);
  const result = webviewToHostSchema.safeParse(raw);
  if (!result.success) throw new InvalidViewMessageError(reasonOf(result.error, raw), raw);
  // The message as it came (zod's copy drops fields a newer webview adds; the host ignores them anyway).
  return raw as WebviewToHostMessage;
}
