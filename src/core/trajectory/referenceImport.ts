// Maps the log of the Python reference implementation (`rlm` on PyPI) onto our events, so that its
// files open in the same tree, summary and exports. That format writes one line per iteration with the
// whole prompt history, code blocks and their sub-calls; fields come and go between its versions, so
// every field is optional here. Nested rlm_calls that carry their own iterations become child runs.
//
// One logger can serve several completions (a persistent REPL, or an RLMSession's chat): each begins
// with a `run_context` line, and the log's iteration numbers run on across them. Each becomes its own
// top-level run, as our own follow-ups are: the conversation is the file's runs in order.
import type { RecordedEvent, RunEvent, RunSessionInfo } from './events';
import { NamespaceTracker } from './referenceNamespace';
import { callError, callModel, nestedIterations, num, optional, payloadMetadata, promptMessages, promptText, seconds, str, text, usageOf } from './referenceValues';
import type { Obj } from './referenceValues';
import { createRedactor } from './redaction';
import { RunTallies } from './runTally';
import { isPlainObject } from './trajectoryFormat';
import type { BuildableRecord, ImportedRunStarted } from './treeBuilder';
import type { TokenUsage } from '../models/modelTypes';

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
  /** The first run's question. */
  question?: string;
  /** The metadata line as written, with credentials removed. */
  metadata: Obj;
  /** The latest run_context line as written, with credentials removed. */
  runContext?: Obj;
}

/** Nested trajectories deeper than this are summarised as plain sub-calls. */
const MAX_NESTING = 8;

type ImportOutcome = 'used' | 'unknown';

/** A top-level run whose run.started waits for its first code block, which tells about its REPL. */
interface PendingRun {
  runId: string;
  question: string;
  context: Obj | undefined;
  sessionMode: boolean | undefined;
  /** Each waiting iteration with its line, so what it yields is placed on that line. */
  iterations: Array<{ entry: Obj; line: number }>;
}

export class ReferenceImporter {
  readonly header: ImportedHeader = { format: REFERENCE_FORMAT, metadata: {} };
  private readonly redactor = createRedactor();
  private readonly tallies = new RunTallies();
  private readonly namespace = new NamespaceTracker();
  /** Names after each run's latest block, to tell what a block added. */
  private readonly names = new Map<string, Set<string>>();
  /** Variables each top-level run found from earlier runs. */
  private readonly carried = new Map<string, string[]>();
  /** Top-level runs in order, with what their roots were told of the earlier ones. */
  private readonly runs: Array<{ runId: string; question: string; answer?: string; chat?: boolean }> = [];
  private current: { runId: string; finished: boolean; turns: number; promptLength?: number } | undefined;
  private pending: PendingRun | undefined;
  private metadataSeen = false;
  private seq = 0;
  private clock = 0;
  /** The line being imported, given to every record and problem. */
  private line = 0;

  constructor(
    private readonly emitAt: (record: BuildableRecord, line: number) => void,
    /** A line this importer read but could not use as a whole; what was kept is said in the message. */
    private readonly reportAt: (message: string, line: number) => void = () => undefined,
  ) {}

  private report(message: string): void {
    this.reportAt(message, this.line);
  }

  /** Takes one parsed line; returns 'unknown' for entry types this importer does not know. */
  accept(entry: Obj, line = this.line + 1): ImportOutcome {
    this.line = line;
    switch (entry.type) {
      case 'metadata':
        this.metadata(entry);
        return 'used';
      case 'run_context':
        this.runContext(entry);
        return 'used';
      case 'iteration':
        this.iterationLine(entry);
        return 'used';
      default:
        return 'unknown';
    }
  }

  /** The file has ended: a run still waiting for its first code block starts now. */
  finish(): void {
    this.flushPending(undefined);
  }

  private metadata(entry: Obj): void {
    const meta = this.redactor.scrubValue(entry);
    this.advanceClock(meta.timestamp);
    if (this.metadataSeen) {
      // The reference writes metadata once per logger; a second one means logs were joined or the
      // configuration changed. The header keeps the first.
      const model = str(meta.root_model);
      if (model !== this.header.rootModel) this.report(`a second metadata line (root model ${model ?? 'not named'}); the header shows the first one's (${this.header.rootModel ?? 'not named'}), later runs may have used this one's`);
      return;
    }
    this.metadataSeen = true;
    Object.assign(this.header, {
      metadata: meta,
      ...optional('rootModel', str(meta.root_model)),
      ...optional('backend', str(meta.backend)),
      ...optional('environmentType', str(meta.environment_type)),
      ...optional('maxDepth', num(meta.max_depth)),
      ...optional('maxIterations', num(meta.max_iterations)),
      ...optional('startedAt', str(meta.timestamp)),
    });
  }

  private runContext(entry: Obj, written = true): void {
    const ctx = this.redactor.scrubValue(entry);
    this.flushPending(undefined);
    this.closeUnfinished();
    this.advanceClock(ctx.timestamp);
    if (written) this.header.runContext = ctx;
    // `prompt` is the payload bound in the REPL; `root_prompt` is what the root was asked, when given.
    const question = str(ctx.root_prompt) ?? str(ctx.question) ?? str(ctx.query) ?? str(ctx.prompt) ?? (ctx.prompt !== undefined && ctx.prompt !== null ? JSON.stringify(ctx.prompt) : '');
    if (this.header.question === undefined && question !== '') this.header.question = question;
    if (ctx.session_mode !== undefined && typeof ctx.session_mode !== 'boolean' && ctx.session_mode !== null) {
      this.report(`session_mode ${JSON.stringify(ctx.session_mode)} is not true or false; ignored`);
    }
    const runId = `ref-${this.runs.length + 1}`;
    this.runs.push({ runId, question, ...(typeof ctx.session_mode === 'boolean' && { chat: ctx.session_mode }) });
    this.namespace.startRun();
    this.current = { runId, finished: false, turns: 0 };
    this.pending = { runId, question, context: ctx, sessionMode: typeof ctx.session_mode === 'boolean' ? ctx.session_mode : undefined, iterations: [] };
  }

  private iterationLine(entry: Obj): void {
    const restarted = num(entry.iteration) === 1 && (this.current?.turns ?? 0) > 0;
    if (!this.current || this.current.finished || restarted) {
      // Logs without run_context lines (older versions, and the current logger): a new completion
      // shows as an iteration after a final answer, or as the count starting again at 1.
      this.runContext({ type: 'run_context', ...optional('root_prompt', questionFromPrompt(entry.prompt)) }, false);
    }
    const pending = this.pending;
    if (pending) {
      pending.iterations.push({ entry, line: this.line });
      const first = firstBlock(entry);
      if (!first && (entry.final_answer === undefined || entry.final_answer === null)) return;
      this.flushPending(first);
      return;
    }
    this.rootIteration(entry);
  }

  /** Starts the pending run, with what its first code block tells about its REPL, and replays its iterations. */
  private flushPending(first: Obj | undefined): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    const result = first && isPlainObject(first.result) ? first.result : undefined;
    const names = result && isPlainObject(result.locals) ? Object.keys(result.locals) : undefined;
    const session = this.namespace.sessionOf(names, str(first?.code) ?? '', pending.sessionMode);
    const now = this.line;
    this.line = pending.iterations[0]?.line ?? now;
    this.startTopRun(pending, session);
    for (const it of pending.iterations) {
      this.line = it.line;
      this.rootIteration(it.entry);
    }
    this.line = now;
  }

  private startTopRun(pending: PendingRun, session: RunSessionInfo): void {
    const index = this.runs.findIndex((r) => r.runId === pending.runId);
    // A chat turn's root saw the session's earlier turns; a completion's root saw nothing earlier.
    const prior: Array<{ question: string; answer: string }> = [];
    if (pending.sessionMode) {
      for (let i = index - 1; i >= 0 && this.runs[i]!.chat === true; i--) {
        const r = this.runs[i]!;
        if (r.answer !== undefined) prior.unshift({ question: r.question, answer: r.answer });
      }
    }
    const context = payloadMetadata(pending.context?.prompt);
    this.push({
      type: 'run.started',
      runId: pending.runId,
      depth: 0,
      question: pending.question,
      ...(context && { context }),
      ...(prior.length > 0 && { priorTurns: prior }),
      ...(Object.keys(session).length > 0 && { session }),
    });
  }

  private rootIteration(entry: Obj): void {
    const run = this.current!;
    if (run.finished) return;
    run.turns++;
    const messages = promptMessages(entry.prompt);
    if (messages && run.promptLength !== undefined && messages.length < run.promptLength) this.noteCompaction(run, messages);
    if (messages) run.promptLength = messages.length;
    this.iteration(run.runId, entry, run.turns, 0);
    if (entry.final_answer !== undefined && entry.final_answer !== null) {
      const answer = text(entry.final_answer);
      const forced = this.header.maxIterations !== undefined && run.turns > this.header.maxIterations;
      this.finishRun(run.runId, answer, forced);
      run.finished = true;
      const record = this.runs.find((r) => r.runId === run.runId);
      if (record) record.answer = answer;
    }
  }

  /**
   * The reference compacts a long root history into a summary and starts the prompt again from it;
   * its log shows this only as a shorter prompt. The summary is the message after the first two.
   */
  private noteCompaction(run: { runId: string; turns: number; promptLength?: number }, messages: Obj[]): void {
    const summary = str(messages[2]?.content);
    const clipped = summary === undefined ? '' : `: ${summary.length > 600 ? `${summary.slice(0, 600)}…` : summary}`;
    this.push({ type: 'fallback', runId: run.runId, kind: 'compaction', detail: `before turn ${run.turns} the root's history was compacted (${run.promptLength} messages to ${messages.length})${clipped}` });
  }

  /** A run that a new run_context interrupts before its final answer stays without an end (reported as incomplete). */
  private closeUnfinished(): void {
    const run = this.current;
    if (run && !run.finished) {
      const index = this.runs.findIndex((r) => r.runId === run.runId);
      this.report(`question ${index + 1} has no final answer before the next run_context; it is shown as incomplete`);
    }
  }

  private iteration(runId: string, it: Obj, turn: number, depth: number): void {
    this.advanceClock(it.timestamp);
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
    if (it.code_blocks !== undefined && it.code_blocks !== null && !Array.isArray(it.code_blocks)) {
      this.report(`code_blocks of iteration ${turn} is not a list; its code is not shown`);
    }
    const raw = Array.isArray(it.code_blocks) ? it.code_blocks : [];
    raw.forEach((block, b) => {
      if (isPlainObject(block)) this.codeBlock(runId, turn, b, block, depth);
      else this.report(`code block ${b + 1} of turn ${turn} is not an object; skipped`);
    });
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
      newVariables: this.newVariables(runId, result.locals, depth),
      durationMs,
      outIndex: this.tallies.get(runId)?.cells ?? 0,
    });
  }

  /** The reference records the namespace after the block; a cell shows what the block added to it. */
  private newVariables(runId: string, locals: unknown, depth: number): string[] {
    if (!isPlainObject(locals)) return [];
    const names = Object.keys(locals);
    const before = this.names.get(runId);
    this.names.set(runId, new Set(names));
    if (depth === 0) this.namespace.observe(names);
    if (before) return names.filter((n) => !before.has(n));
    // A run's first block: what it found from earlier runs is not new.
    const carried = new Set(this.carried.get(runId) ?? []);
    return names.filter((n) => !carried.has(n));
  }

  private subCall(runId: string, cellId: string, callId: string, call: Obj, depth: number): void {
    const nested = nestedIterations(call);
    const child = nested !== undefined && depth < MAX_NESTING;
    const start = this.clock;
    this.push({
      type: 'subcall.started',
      runId,
      callId,
      cellId,
      kind: child ? 'rlm_query' : 'llm_query',
      depth: depth + 1,
      model: { provider: 'openai', model: callModel(call) ?? this.header.rootModel ?? 'unknown' },
      prompt: promptText(call.prompt),
    });
    if (child) {
      const childRunId = `${runId}/${callId}`;
      this.push({ type: 'child.started', runId, callId, childRunId });
      this.push({ type: 'run.started', runId: childRunId, parentRunId: runId, parentCellId: cellId, parentCallId: callId, depth: depth + 1, question: promptText(call.prompt) });
      // A child's logger starts its count at 1, so its turns are numbered by position.
      nested.forEach((it, i) => this.iteration(childRunId, it, i + 1, depth + 1));
      const final = nested.map((it) => it.final_answer).filter((a) => a !== undefined && a !== null).pop();
      const answer = final !== undefined ? text(final) : str(call.response);
      this.finishRun(childRunId, answer, false);
      this.push({ type: 'child.finished', runId, callId, childRunId, status: 'completed', ...optional('answer', answer) });
    }
    const ms = seconds(call.execution_time);
    if (ms !== undefined) this.clock = Math.max(this.clock, start + ms);
    const reported = usageOf(call.usage_summary, call);
    this.push({
      type: 'subcall.finished',
      runId,
      callId,
      ...optional('response', str(call.response)),
      ...optional('error', callError(call)),
      usage: child ? this.unrecordedUsage(`${runId}/${callId}`, reported) : reported,
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

  private finishRun(runId: string, answer: string | undefined, forced: boolean): void {
    if (answer !== undefined) this.push({ type: 'answer', runId, text: answer, forced, via: 'FINAL' });
    const totals = this.tallies.get(runId)?.totals;
    if (!totals) return;
    this.push({ type: 'run.finished', runId, status: forced ? 'forced' : 'completed', ...optional('answer', answer), forced, totals: { ...totals } });
  }

  private advanceClock(timestamp: unknown): void {
    const at = Date.parse(str(timestamp) ?? '');
    if (Number.isFinite(at)) this.clock = Math.max(this.clock, at);
  }

  private push(event: RecordedEvent<Exclude<RunEvent, { type: 'run.started' }>> | ImportedRunStarted): void {
    if (event.type === 'run.started' && event.session?.carriedOver) this.carried.set(event.runId, event.session.carriedOver);
    const record = { ...event, seq: ++this.seq, ts: this.clock } as BuildableRecord;
    this.tallies.apply(record);
    this.emitAt(record, this.line);
  }
}

/**
 * The question of a run logged without run_context: the reference tells the root "Answer the
 * following: <root_prompt>" in its first user message when a root_prompt was given.
 */
function questionFromPrompt(prompt: unknown): string | undefined {
  for (const m of promptMessages(prompt) ?? []) {
    const content = str(m.content);
    const match = content === undefined ? null : /^Answer the following: ([\s\S]*?)(\n\n|$)/.exec(content);
    if (match) return match[1];
  }
  return undefined;
}

/** The first code block of an iteration, if it has one. */
function firstBlock(it: Obj): Obj | undefined {
  return Array.isArray(it.code_blocks) ? it.code_blocks.find(isPlainObject) : undefined;
}
