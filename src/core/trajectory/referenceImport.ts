// Maps the log of the Python reference implementation (`rlm` on PyPI) onto our events, so that its
// files open in the same tree, summary and exports. That format writes one line per iteration with the
// whole prompt history, code blocks and their sub-calls; fields come and go between its versions, so
// every field is optional here. Nested rlm_calls that carry their own iterations become child runs.
import type { TokenUsage } from '../models/modelTypes';
import type { RunEvent } from './events';
import { createRedactor } from './redaction';
import { RunTallies } from './runTally';
import { isPlainObject } from './trajectoryFormat';
import type { BuildableRecord, ImportedRunStarted } from './treeBuilder';

type Obj = Record<string, unknown>;

const REFERENCE_FORMAT = 'rlm-python-jsonl';

/** What the reference file says about its run, in place of our header. */
export interface ImportedHeader {
  format: typeof REFERENCE_FORMAT;
  rootModel?: string;
  backend?: string;
  environmentType?: string;
  maxDepth?: number;
  maxIterations?: number;
  startedAt?: string;
  question?: string;
  /** The metadata line as written, with credentials removed. */
  metadata: Obj;
  runContext?: Obj;
}

/** Nested trajectories deeper than this are summarised as plain sub-calls. */
const MAX_NESTING = 8;

type ImportOutcome = 'used' | 'unknown';

export class ReferenceImporter {
  readonly header: ImportedHeader = { format: REFERENCE_FORMAT, metadata: {} };
  private readonly redactor = createRedactor();
  private readonly tallies = new RunTallies();
  private readonly rootRunId = 'ref-root';
  private rootStarted = false;
  private rootFinished = false;
  private seq = 0;
  private clock = 0;
  private turns = 0;

  constructor(private readonly emit: (record: BuildableRecord) => void) {}

  /** Takes one parsed line; returns 'unknown' for entry types this importer does not know. */
  accept(entry: Obj): ImportOutcome {
    switch (entry.type) {
      case 'metadata': {
        const meta = this.redactor.scrubValue(entry);
        Object.assign(this.header, {
          metadata: meta,
          ...optional('rootModel', str(meta.root_model)),
          ...optional('backend', str(meta.backend)),
          ...optional('environmentType', str(meta.environment_type)),
          ...optional('maxDepth', num(meta.max_depth)),
          ...optional('maxIterations', num(meta.max_iterations)),
          ...optional('startedAt', str(meta.timestamp)),
        });
        const start = Date.parse(str(meta.timestamp) ?? '');
        if (Number.isFinite(start)) this.clock = Math.max(this.clock, start);
        return 'used';
      }
      case 'run_context': {
        const ctx = this.redactor.scrubValue(entry);
        this.header.runContext = ctx;
        const question = str(ctx.root_prompt) ?? str(ctx.question) ?? str(ctx.query) ?? str(ctx.prompt);
        if (question !== undefined) this.header.question = question;
        return 'used';
      }
      case 'iteration':
        this.startRoot();
        this.turns++;
        this.iteration(this.rootRunId, entry, num(entry.iteration) ?? this.turns, 0);
        if (entry.final_answer !== undefined && entry.final_answer !== null && !this.rootFinished) {
          this.finishRun(this.rootRunId, text(entry.final_answer));
          this.rootFinished = true;
        }
        return 'used';
      default:
        return 'unknown';
    }
  }

  private startRoot(): void {
    if (this.rootStarted) return;
    this.rootStarted = true;
    this.push({ type: 'run.started', runId: this.rootRunId, depth: 0, question: this.header.question ?? '' });
  }

  private iteration(runId: string, it: Obj, turn: number, depth: number): void {
    const stamp = Date.parse(str(it.timestamp) ?? '');
    if (Number.isFinite(stamp)) this.clock = Math.max(this.clock, stamp);
    const start = this.clock;
    this.push({ type: 'turn.started', runId, turn });
    this.push({
      type: 'model.output',
      runId,
      turn,
      text: str(it.response) ?? '',
      usage: usageOf(it.usage_summary ?? it.usage),
      latencyMs: 0,
      finishReason: 'unknown',
      requestBytes: it.prompt === undefined ? 0 : Buffer.byteLength(JSON.stringify(it.prompt)),
    });
    const blocks = Array.isArray(it.code_blocks) ? it.code_blocks.filter(isPlainObject) : [];
    blocks.forEach((block, b) => this.codeBlock(runId, turn, b, block, depth));
    const iterationMs = seconds(it.iteration_time);
    if (iterationMs !== undefined) this.clock = Math.max(this.clock, start + iterationMs);
  }

  private codeBlock(runId: string, turn: number, index: number, block: Obj, depth: number): void {
    const cellId = `t${turn}c${index}`;
    const result = isPlainObject(block.result) ? block.result : {};
    const start = this.clock;
    this.push({ type: 'cell.started', runId, turn, cellId, code: str(block.code) ?? '' });
    const calls = Array.isArray(result.rlm_calls) ? result.rlm_calls.filter(isPlainObject) : [];
    calls.forEach((call, c) => this.subCall(runId, cellId, `${cellId}s${c}`, call, depth));
    const stdout = str(result.stdout) ?? '';
    const stderr = str(result.stderr) ?? '';
    const durationMs = seconds(result.execution_time) ?? 0;
    this.clock = Math.max(this.clock, start + durationMs);
    this.push({
      type: 'cell.finished',
      runId,
      cellId,
      stdout,
      stderr,
      stdoutChars: stdout.length,
      stderrChars: stderr.length,
      // The reference records the namespace after the block, not what the block added.
      newVariables: isPlainObject(result.locals) ? Object.keys(result.locals) : [],
      durationMs,
      outIndex: this.tallies.get(runId)?.cells ?? 0,
    });
  }

  private subCall(runId: string, cellId: string, callId: string, call: Obj, depth: number): void {
    const nested = nestedIterations(call);
    const start = this.clock;
    this.push({
      type: 'subcall.started',
      runId,
      callId,
      cellId,
      kind: nested && depth < MAX_NESTING ? 'rlm_query' : 'llm_query',
      depth: depth + 1,
      model: { provider: 'openai', model: str(call.root_model) ?? str(call.model) ?? this.header.rootModel ?? 'unknown' },
      prompt: promptText(call.prompt),
    });
    if (nested && depth < MAX_NESTING) {
      const childRunId = `${runId}/${callId}`;
      this.push({ type: 'child.started', runId, callId, childRunId });
      this.push({ type: 'run.started', runId: childRunId, parentRunId: runId, parentCellId: cellId, parentCallId: callId, depth: depth + 1, question: promptText(call.prompt) });
      nested.forEach((it, i) => this.iteration(childRunId, it, num(it.iteration) ?? i + 1, depth + 1));
      const final = nested.map((it) => it.final_answer).filter((a) => a !== undefined && a !== null).pop();
      const answer = final !== undefined ? text(final) : str(call.response);
      this.finishRun(childRunId, answer);
      this.push({ type: 'child.finished', runId, callId, childRunId, status: 'completed', ...optional('answer', answer) });
    }
    const ms = seconds(call.execution_time);
    if (ms !== undefined) this.clock = Math.max(this.clock, start + ms);
    this.push({
      type: 'subcall.finished',
      runId,
      callId,
      ...optional('response', str(call.response)),
      ...optional('error', callError(call)),
      usage: nested && depth < MAX_NESTING ? this.unrecordedUsage(`${runId}/${callId}`, usageOf(call.usage_summary, call)) : usageOf(call.usage_summary, call),
      latencyMs: ms ?? 0,
    });
  }

  /**
   * A nested call's usage_summary covers its whole child run, but the child's iterations record only
   * their sub-calls, not the child's own root-model usage. The call keeps the difference, so totals
   * match the reference's accounting without counting the sub-calls twice.
   */
  private unrecordedUsage(childRunId: string, reported: TokenUsage): TokenUsage {
    const child = this.tallies.get(childRunId)?.totals;
    if (!child) return reported;
    // The child's unknown costs are exactly its unrecorded root turns, which this remainder stands for.
    return {
      inputTokens: Math.max(0, reported.inputTokens - child.inputTokens),
      outputTokens: Math.max(0, reported.outputTokens - child.outputTokens),
      costUsd: reported.costUsd === null ? null : Math.max(0, reported.costUsd - (child.costUsd ?? 0)),
    };
  }

  private finishRun(runId: string, answer: string | undefined): void {
    if (answer !== undefined) this.push({ type: 'answer', runId, text: answer, forced: false, via: 'FINAL' });
    const totals = this.tallies.get(runId)?.totals;
    if (!totals) return;
    this.push({ type: 'run.finished', runId, status: 'completed', ...optional('answer', answer), forced: false, totals: { ...totals } });
  }

  private push(event: Exclude<RunEvent, { type: 'run.started' }> | ImportedRunStarted): void {
    const record = { ...event, seq: ++this.seq, ts: this.clock } as BuildableRecord;
    this.tallies.apply(record);
    this.emit(record);
  }
}

/** A failed call: newer reference logs add `error`, `error_type` and `status_code` to the call. */
function callError(call: Obj): { kind: string; message: string } | undefined {
  const message = str(call.error);
  if (message === undefined) return undefined;
  const status = num(call.status_code);
  return { kind: str(call.error_type) ?? 'error', message: status !== undefined ? `${message} (HTTP ${status})` : message };
}

function nestedIterations(call: Obj): Obj[] | undefined {
  const holders = [call.metadata, call.trajectory, call];
  for (const holder of holders) {
    if (isPlainObject(holder) && Array.isArray(holder.iterations)) {
      const its = holder.iterations.filter(isPlainObject);
      if (its.length) return its;
    }
  }
  return undefined;
}

/** The reference's usage_summary: {model_usage_summaries: {model: {total_input_tokens, ...}}}, or older flat fields. */
function usageOf(summary: unknown, flat?: Obj): TokenUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | null = null;
  let sawCost = true;
  const perModel = isPlainObject(summary) && isPlainObject(summary.model_usage_summaries) ? Object.values(summary.model_usage_summaries) : [];
  for (const m of perModel.filter(isPlainObject)) {
    inputTokens += num(m.total_input_tokens) ?? num(m.input_tokens) ?? 0;
    outputTokens += num(m.total_output_tokens) ?? num(m.output_tokens) ?? 0;
    const c = num(m.total_cost) ?? num(m.cost);
    if (c === undefined) sawCost = false;
    else cost = (cost ?? 0) + c;
  }
  if (perModel.length === 0) {
    const source = isPlainObject(summary) ? summary : flat ?? {};
    inputTokens = num(source.prompt_tokens) ?? num(source.input_tokens) ?? num(flat?.prompt_tokens) ?? 0;
    outputTokens = num(source.completion_tokens) ?? num(source.output_tokens) ?? num(flat?.completion_tokens) ?? 0;
    cost = num(source.cost) ?? num(source.total_cost) ?? null;
  }
  return { inputTokens, outputTokens, costUsd: sawCost ? cost : null };
}

function promptText(prompt: unknown): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) {
    return prompt.map((m) => (isPlainObject(m) && typeof m.content === 'string' ? `${str(m.role) ?? 'user'}: ${m.content}` : JSON.stringify(m))).join('\n\n');
  }
  return prompt === undefined || prompt === null ? '' : JSON.stringify(prompt);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
function seconds(value: unknown): number | undefined {
  const s = num(value);
  return s === undefined ? undefined : Math.round(s * 1000);
}
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
