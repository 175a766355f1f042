// One run of the RLM loop, root or child: bind `context`, then turn after turn call the root model,
// run the first code block, and feed back only the code and a truncated observation, until the REPL
// reports a final answer or a limit, an error or the signal ends the run.
import type { ContextMetadata } from '../context/contextTypes';
import type { ChatMessage, Completion } from '../models/modelTypes';
import type { BridgeHandler, CellResult, ReplSession } from '../repl/replTypes';
import { createBridgeRouter } from '../repl/replFactory';
import type { ChildRunInput } from './subCalls';
import type { EventOf, LimitKind } from '../trajectory/events';
import { CoverageTracker } from '../citations/coverage';
import { recordAnswerEvidence } from './answerEvidence';
import type { Cited } from './answerEvidence';
import { BudgetExceededError, errorKind, LoopError } from './loopErrors';
import type { RunResult, UserCellNote } from './loopTypes';
import { buildObservation, isErrorCell } from './observation';
import { parseReply } from './parseResponse';
import type { ProseFinal } from './parseResponse';
import * as prompts from './prompts';
import { Replayer } from './replayer';
import type { RunInput } from './runInput';
import { RunOpening } from './runOpening';
import type { OpenedRun } from './runOpening';
import { NO_PROTECTIONS, outcomeOf } from './endStatus';
import type { Outcome } from './endStatus';
import type { RunTree } from './runTree';
import { createSubCallHandler } from './subCallHandler';
import { callRootModel, finishRootCall, runReplCell, startRootCall } from './turnSteps';
import type { PendingRootCall } from './turnSteps';
import { ZERO_USAGE } from './usageMeter';

/** Longest output kept as the partial findings of a run that ends without an answer (never an answer). */
const PARTIAL_MAX_CHARS = 4000;
/** Prose-only replies are kept in the history, clipped, so the model sees what it said. */
const PROSE_HISTORY_MAX_CHARS = 1500;

type Answer = { text: string; via: EventOf<'answer'>['via'] };

/** Limits after which the root can still be asked once more: they spend nothing the final turn needs. */
const FINAL_TURN_LIMITS = new Set<LimitKind>(['iterations', 'subCalls', 'consecutiveErrors']);

/**
 * Starts a child run (rlm_query). When the parent's session can nest it now (its cell is blocked in
 * this rlm_query and no other child is nested: sequential children), the child runs in the parent's
 * interpreter in a namespace of its own, so no REPL process has to start first (issue 33); otherwise
 * (concurrent children of rlm_query_batched, the relay transport) in a session of its own, as before.
 * The nested session is closed before the child's answer goes back to the parent's cell.
 */
export async function startChildRun(tree: RunTree, parent: ReplSession | undefined, child: ChildRunInput): Promise<RunResult> {
  const router = createBridgeRouter();
  const nested = parent?.openNested?.(router.handler);
  if (!nested) return executeRun(tree, { ...child });
  try {
    return await executeRun(tree, { ...child, session: nested, sessionBridge: router });
  } finally {
    await nested.close();
  }
}

export async function executeRun(tree: RunTree, input: RunInput): Promise<RunResult> {
  return new RunDriver(tree, input).execute();
}

class RunDriver {
  private cellId = '';
  private history: ChatMessage[] = [];
  private partial?: string;
  /** The latest non-empty answer["content"] the cells left, offered when a limit ends the run. */
  private draft?: string;
  /** The first root request, sent before the run started; taken by turn 1. */
  private early?: PendingRootCall;
  /** Said once, with the first observation, when `context` turned out other than the root was first told. */
  private boundNote?: string;
  private replayer?: Replayer;
  /** The REPL session and the bound `context`, and run.started. */
  private readonly opening: RunOpening;
  /** The root's reading of the input, for the coverage strip (child runs read pieces, not the input). */
  private readonly coverage?: CoverageTracker;
  /** The first live turn: after the replayed ones. */
  private firstTurn = 1;
  /** Replayed turns not counted against maxIterations (a continued run has its own turns). */
  private turnOffset = 0;

  constructor(
    private readonly tree: RunTree,
    private readonly input: RunInput,
  ) {
    if (input.depth === 0) this.coverage = new CoverageTracker();
    this.opening = new RunOpening(tree, input, () => this.cellId);
  }

  async execute(): Promise<RunResult> {
    let answer: Answer | undefined;
    let outcome: Outcome;
    let forced = false;
    try {
      // The first request needs only the question and what is known of `context` without binding it,
      // so it goes out now, while a REPL is taken and `context` is read and bound (docs: speed).
      const preview = await this.opening.preview();
      this.history = prompts.initialMessages(this.promptFacts(), this.input.question, preview, this.input.priorTurns, this.input.userCells);
      // A replay decides the first request (what the cells left), so nothing goes out early then.
      if (this.input.replay) this.replayer = new Replayer(this.tree, this.input.runId, () => this.cellId, this.input.replay);
      else this.early = startRootCall(this.tree, this.input, this.history);
      let opened: OpenedRun;
      try {
        await this.opening.walked();
        opened = await this.opening.open(preview, this.bridgeHandler());
      } catch (error) {
        // A walk that failed after the first request left: the run is recorded as started, then failed.
        this.opening.emitStarted(preview, this.opening.session?.protections ?? NO_PROTECTIONS);
        await this.settleEarly();
        throw error;
      }
      this.opening.emitStarted(opened.metadata, opened.protections, preview);
      this.boundNote = prompts.boundNote(preview, opened.metadata);
      if (this.replayer) await this.replay(this.replayer, opened.metadata);
      // Replayed only to give the user the session: no question goes to the root.
      const ended = this.input.replay?.from.mode === 'session' ? {} : await this.turns();
      answer = ended.answer;
      if (!ended.limit) outcome = { status: 'completed' };
      else {
        // A limit ended the turns: answered in the last turn it allowed (forced), or not at all.
        forced = answer !== undefined;
        const error = { kind: errorKind(ended.limit), message: ended.limit.message, limit: ended.limit.limitKind };
        outcome = { status: answer ? 'forced' : 'limit', error };
      }
    } catch (error) {
      outcome = outcomeOf(error, this.input.signal);
      if (outcome.status === 'limit' && this.draft) {
        // No turn was possible (time, tokens, cost): the answer the cells were assembling, marked as such.
        answer = { text: this.draft, via: 'draft' };
        forced = true;
      }
    }
    const { runId } = this.input;
    // Printed output is never an answer: it is kept, labelled, as the run's partial findings.
    const partial = !answer && this.partial !== undefined ? { partial: this.partial } : {};
    let cited: Cited = {};
    // The REPL is not needed for what follows: it is released beside the bookkeeping, not after it.
    const closing = this.opening.close();
    closing.catch(() => undefined); // awaited below; not unhandled meanwhile
    if (answer) {
      if (this.opening.context) this.tree.events.emit({ type: 'answer', runId, text: answer.text, forced, via: answer.via });
      // The answer first: citations and the coverage strip read the input again, and only the
      // trajectory waits for them.
      try {
        this.input.onAnswer?.({ runId, status: outcome.status, text: answer.text, forced });
      } catch {
        // The caller's display failed; the run and its trajectory still end as they should.
      }
    }
    const bound = this.opening.context;
    if (answer && bound) cited = await recordAnswerEvidence(this.tree.events, runId, answer.text, bound, this.coverage);
    // A provider batch cancelled by the Stop records what was billed before the run's end (bounded).
    const cancelling = this.tree.batch?.cancelling;
    if (cancelling?.size) await Promise.allSettled([...cancelling]);
    const totals = this.input.meter.totals(this.tree.now());
    this.tree.events.emit({ type: 'run.finished', runId, status: outcome.status, ...(answer ? { answer: answer.text } : {}), forced, ...(outcome.error ? { error: outcome.error } : {}), ...partial, totals });
    await closing;
    return { runId, status: outcome.status, ...(answer ? { answer: answer.text } : {}), forced, ...(outcome.error ? { error: outcome.error } : {}), ...partial, ...cited, totals };
  }

  /**
   * The early request when the run could not start: aborted if still under way; if it had already
   * come back, its turn is recorded, so the tokens it cost are not lost from the totals.
   */
  private async settleEarly(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    if (!early) return;
    if (!early.settled) {
      early.abort();
      return;
    }
    try {
      this.tree.events.emit({ type: 'turn.started', runId: this.input.runId, turn: 1 });
      await finishRootCall(this.tree, this.input, early, 1, false);
    } catch {
      // It failed: nothing was spent that can be recorded.
    }
  }

  /** The run's bridge: its sub-calls (live, or from the record while a replay runs), noted for the coverage strip. */
  private bridgeHandler(): BridgeHandler {
    const { input, tree } = this;
    const live = createSubCallHandler({
      tree,
      runId: input.runId,
      depth: input.depth,
      meter: input.meter,
      runSignal: input.signal,
      cellId: () => this.cellId,
      startChild: (child) => startChildRun(tree, this.opening.session, child),
    });
    const replaying = this.replayer ? this.replayer.wrap(live) : live;
    const coverage = this.coverage;
    // What the root hands its sub-calls is part of what the answer rests on.
    return coverage
      ? (call, signal) => {
          for (const prompt of call.prompts) coverage.noteSubCallPrompt(prompt);
          if (call.kind === 'rlm_query') for (const context of call.contexts) if (typeof context === 'string') coverage.noteSubCallPrompt(context);
          return replaying(call, signal);
        }
      : replaying;
  }

  /**
   * Re-runs the recorded turns (their replies are recorded again, marked replayed and unbilled), then
   * writes the root's first message: a fork sees the replayed turns as its own history and goes on from
   * the next turn; a continued run gets the earlier question and answer, and the names the cells left.
   */
  private async replay(replayer: Replayer, bound: ContextMetadata): Promise<void> {
    const { input, tree } = this;
    const { plan, from } = replayer.input;
    replayer.checkContext(plan.turns[0]?.turn ?? 1, bound);
    const history: ChatMessage[] = [];
    // The user's own cells of the record: replayed as theirs, and shown to the root as theirs.
    const userCells: UserCellNote[] = [];
    try {
      for (const recorded of plan.turns) {
        const author = recorded.author;
        tree.events.emit({ type: 'turn.started', runId: input.runId, turn: recorded.turn });
        if (!author) tree.events.emit({ type: 'model.output', runId: input.runId, turn: recorded.turn, text: recorded.modelText ?? '', usage: ZERO_USAGE, latencyMs: 0, finishReason: 'replayed', requestBytes: 0, replayed: true });
        for (const cell of recorded.cells) {
          const result = await replayer.replayCell(recorded.turn, cell, (code) => this.runCell(recorded.turn, code, author), author);
          const observation = buildObservation(result, tree.limits.observationMaxChars);
          if (author) {
            userCells.push({ code: cell.code, observation });
            history.push({ role: 'user', content: prompts.userCellsNote([{ code: cell.code, observation }]) });
          } else history.push({ role: 'assistant', content: '```repl\n' + cell.code + '\n```' }, { role: 'user', content: buildObservation(result, tree.limits.observationMaxChars) });
        }
      }
    } finally {
      // Whatever the replayed cells printed or drafted belongs to the parent run, not to this one.
      this.partial = undefined;
      this.draft = undefined;
    }
    const last = plan.turns.at(-1)?.turn ?? 0;
    this.firstTurn = last + 1;
    if (from.mode === 'session') return;
    if (from.mode === 'fork') {
      this.history.push(...history);
      return;
    }
    this.turnOffset = last;
    const prior = [...(input.priorTurns ?? []), ...(plan.answer !== undefined ? [{ question: plan.question, answer: plan.answer }] : [])];
    this.history = prompts.initialMessages(this.promptFacts(), input.question, bound, prior, [...userCells, ...(input.userCells ?? [])]);
    const first = this.history.at(-1);
    if (first) first.content += `\n\n${prompts.replayNote(plan.turns.reduce((n, t) => n + t.cells.length, 0), [...replayer.variables])}`;
  }

  private promptFacts(): prompts.PromptFacts {
    const { limits, sub } = this.tree;
    return {
      maxIterations: limits.maxIterations,
      maxDepth: limits.maxDepth,
      depth: this.input.depth,
      subCallConcurrency: limits.subCallConcurrency,
      subWindowTokens: sub.contextWindowTokens,
      subMaxTokens: limits.subCallMaxTokens,
      observationMaxChars: limits.observationMaxChars,
    };
  }

  /**
   * The turns. Ends with the answer, or with the limit that stopped them; after a limit that leaves a
   * root call possible, the model gets one last turn told so (and its answer, if any, is the run's).
   */
  private async turns(): Promise<{ answer?: Answer; limit?: BudgetExceededError }> {
    const { limits } = this.tree;
    let errorTurns = 0;
    for (let turn = this.firstTurn; ; turn++) {
      const limit =
        turn - this.turnOffset > limits.maxIterations
          ? new BudgetExceededError('iterations', limits.maxIterations, limits.maxIterations)
          : errorTurns >= limits.maxConsecutiveErrors
            ? new BudgetExceededError('consecutiveErrors', errorTurns, limits.maxConsecutiveErrors)
            : this.checkLimits();
      if (limit) {
        if (!FINAL_TURN_LIMITS.has(limit.limitKind)) throw limit;
        return { limit, ...(await this.lastTurn(turn, limit)) };
      }
      this.tree.events.emit({ type: 'turn.started', runId: this.input.runId, turn });
      const completion = await this.callRoot(turn, false);
      this.input.meter.iterations += 1;
      const step = await this.takeTurn(turn, completion.text);
      if (step.answer) return { answer: step.answer };
      errorTurns = step.errorTurn ? errorTurns + 1 : 0;
    }
  }

  private async takeTurn(turn: number, text: string): Promise<{ answer?: Answer; errorTurn: boolean }> {
    const parsed = parseReply(text);
    const first = parsed.run;
    if (!first) {
      if (parsed.proseFinal) return this.proseFinal(turn, parsed.proseFinal, text);
      this.notice(turn, 'no-code-block', prompts.NO_CODE_BLOCK_MESSAGE);
      if (parsed.prose.trim()) this.partial = prompts.clip(parsed.prose.trim(), PARTIAL_MAX_CHARS);
      this.history.push({ role: 'assistant', content: prompts.clip(text, PROSE_HISTORY_MAX_CHARS) }, { role: 'user', content: prompts.NO_CODE_BLOCK_MESSAGE });
      return { errorTurn: true };
    }
    const notes: string[] = [];
    if (this.boundNote) {
      notes.push(this.boundNote);
      this.boundNote = undefined;
    }
    if (parsed.fallback) {
      const message = prompts.FALLBACK_BLOCK_MESSAGE(parsed.fallback);
      this.notice(turn, parsed.fallback === 'python' ? 'python-block' : 'bare-block', message);
      notes.push(message);
    }
    if (parsed.blocks.length > 1) {
      const message = prompts.EXTRA_BLOCKS_MESSAGE(parsed.blocks.length);
      this.notice(turn, 'extra-code-blocks', message);
      notes.push(message);
    }
    if (first.unclosed) notes.push('(Your code block was not closed, so your reply may have been cut off.)');
    const cell = await this.runCell(turn, first.code);
    this.history.push({ role: 'assistant', content: '```repl\n' + first.code + '\n```' });
    const final = this.acceptFinal(turn, cell);
    if (final) return { answer: final, errorTurn: false };
    if (parsed.proseFinal && !cell.error) return this.proseFinal(turn, parsed.proseFinal, text, buildObservation(cell, this.tree.limits.observationMaxChars, notes));
    this.history.push({ role: 'user', content: buildObservation(cell, this.tree.limits.observationMaxChars, notes) });
    return { errorTurn: isErrorCell(cell) || (cell.final !== undefined && !final) };
  }

  /** FINAL / FINAL_VAR written outside a code block: honoured, with FINAL_VAR resolved in the REPL. */
  private async proseFinal(turn: number, final: ProseFinal, text: string, observation?: string): Promise<{ answer?: Answer; errorTurn: boolean }> {
    if (observation === undefined) this.history.push({ role: 'assistant', content: prompts.clip(text, PROSE_HISTORY_MAX_CHARS) });
    else this.history.push({ role: 'user', content: observation });
    if (final.kind === 'FINAL') {
      if (!final.value.trim()) {
        this.notice(turn, 'empty-final', prompts.EMPTY_FINAL_MESSAGE);
        this.history.push({ role: 'user', content: prompts.EMPTY_FINAL_MESSAGE });
        return { errorTurn: true };
      }
      this.notice(turn, 'final-in-prose', prompts.FINAL_IN_PROSE_MESSAGE('FINAL'));
      return { answer: { text: final.value, via: 'FINAL' }, errorTurn: false };
    }
    const cell = await this.runCell(turn, `FINAL_VAR(${JSON.stringify(final.name)})`);
    const accepted = this.acceptFinal(turn, cell);
    if (accepted) {
      this.notice(turn, 'final-in-prose', prompts.FINAL_IN_PROSE_MESSAGE('FINAL_VAR'));
      return { answer: accepted, errorTurn: false };
    }
    const message = `FINAL_VAR(${final.name}) was written outside a code block, but no variable \`${final.name}\` exists, so there is no answer yet.`;
    this.notice(turn, 'final-var-missing', message);
    this.history.push({ role: 'user', content: `${message}\n${buildObservation(cell, this.tree.limits.observationMaxChars)}` });
    return { errorTurn: true };
  }

  /** A final answer counts only when its value exists and is not empty. */
  private acceptFinal(turn: number, cell: CellResult): Answer | undefined {
    if (!cell.final) return undefined;
    if (!cell.final.value.trim()) {
      this.notice(turn, 'empty-final', prompts.EMPTY_FINAL_MESSAGE);
      return undefined;
    }
    return { text: cell.final.value, via: cell.final.via };
  }

  /**
   * One more root turn after a limit: the model is told which limit and that this is its last turn.
   * Its code block runs (sub-calls in it fail with the limit's error), so it can answer from the
   * variables it built; a FINAL in prose counts too, and so does a reply in plain prose, as its best answer.
   */
  private async lastTurn(turn: number, limit: BudgetExceededError): Promise<{ answer?: Answer }> {
    this.tree.events.emit({ type: 'fallback', runId: this.input.runId, kind: 'forced-answer', detail: `${limit.message}: asking the root for its answer in one last turn` });
    this.tree.events.emit({ type: 'turn.started', runId: this.input.runId, turn });
    // Merged into the observation before it: some chat templates refuse two user turns in a row.
    const previous = this.history.at(-1);
    if (previous?.role === 'user') previous.content = `${previous.content}\n\n${prompts.lastTurnPrompt(limit)}`;
    else this.history.push({ role: 'user', content: prompts.lastTurnPrompt(limit) });
    const completion = await this.callRoot(turn, true);
    const parsed = parseReply(completion.text);
    const block = parsed.run;
    if (block) {
      const cell = await this.runCell(turn, block.code);
      const final = this.acceptFinal(turn, cell);
      if (final) return { answer: { text: final.text, via: 'forced' } };
    }
    if (parsed.proseFinal?.kind === 'FINAL_VAR') {
      const cell = await this.runCell(turn, `FINAL_VAR(${JSON.stringify(parsed.proseFinal.name)})`);
      return cell.final?.value.trim() ? { answer: { text: cell.final.value, via: 'forced' } } : {};
    }
    if (parsed.proseFinal?.value.trim()) return { answer: { text: parsed.proseFinal.value, via: 'forced' } };
    // Prose written as the answer counts; a reply that was only code (already run above) does not.
    if (!block && parsed.prose.trim()) return { answer: { text: parsed.prose.trim(), via: 'forced' } };
    return {};
  }

  /** The first exceeded run-wide limit, if any (warnings are emitted on the way); the signal still throws. */
  private checkLimits(): BudgetExceededError | undefined {
    const { budget, events } = this.tree;
    for (const warning of budget.newWarnings()) events.emit({ type: 'limit.warning', runId: this.input.runId, ...warning });
    if (this.input.signal.aborted) throw this.input.signal.reason;
    return budget.exceeded();
  }

  private async callRoot(turn: number, forcedFinal: boolean): Promise<Completion> {
    const early = this.early;
    this.early = undefined;
    if (early && turn === 1 && !forcedFinal) return finishRootCall(this.tree, this.input, early, turn, forcedFinal);
    early?.abort();
    return callRootModel(this.tree, this.input, this.history, turn, forcedFinal);
  }

  private async runCell(turn: number, code: string, author?: 'user'): Promise<CellResult> {
    const session = this.opening.session;
    if (!session) throw new LoopError('no REPL session is open');
    this.cellId = this.tree.newId('cell');
    const cell = await runReplCell(this.tree, this.input, session, this.cellId, turn, code, author);
    this.coverage?.noteCellOutput(cell.stdout);
    if (cell.stdout.trim()) this.partial = prompts.clip(cell.stdout.trim(), PARTIAL_MAX_CHARS);
    if (cell.answerDraft?.trim()) this.draft = cell.answerDraft;
    // A cancelled run must not go on to the next turn on an interrupted cell. A limit reached during
    // the cell is taken up at the next turn, which may be a last turn.
    if (this.input.signal.aborted) throw this.input.signal.reason;
    return cell;
  }

  private notice(turn: number, kind: EventOf<'protocol.notice'>['kind'], message: string): void {
    this.tree.events.emit({ type: 'protocol.notice', runId: this.input.runId, turn, kind, message });
  }
}
