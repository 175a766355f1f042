// Re-runs a recorded run's cells in this run's fresh REPL (`rlm continue`), so the namespace is what the
// record left: every llm_query / rlm_query a replayed cell makes is answered from the record (nothing
// sent, nothing billed), and each cell's output is compared with the record. A difference is a
// divergence: reported as an event, and it stops the run unless allowDivergence was given.
import type { ContextMetadata } from '../context/contextTypes';
import type { BridgeCall, BridgeHandler, CellResult } from '../repl/replTypes';
import type { ReplayCell, RecordedSubCall, ReplayInput } from '../continuation/replayPlan';
import { asErrorKind } from '../errorKind';
import { LoopError } from './loopErrors';
import type { RunTree } from './runTree';
import { ZERO_USAGE } from './usageMeter';

/** A replay stopped at a cell (or a context) that did not match the record. */
class ReplayDivergedError extends LoopError {
  override readonly errorKind = 'replay_diverged';
  constructor(
    readonly turn: number,
    readonly divergence: string,
  ) {
    super(`the replay diverged from the record at turn ${turn}: ${divergence} (run again with --allow-divergence to go on)`);
  }
}

const PROMPT_SHOWN_CHARS = 120;

export class Replayer {
  /** While true, bridge calls are answered from `recorded`; after the replay, by the live handler. */
  private active = false;
  private recorded: RecordedSubCall[] = [];
  private cellDiverged?: string;
  /** Set while a user's cell is replayed: its sub-calls are the user's again. */
  private author?: 'user';
  /** Names the replayed cells bound, for the root's first message. */
  readonly variables = new Set<string>();

  constructor(
    private readonly tree: RunTree,
    private readonly runId: string,
    private readonly cellId: () => string,
    readonly input: ReplayInput,
  ) {}

  /** The bridge handler of the run: answers from the record during the replay, live afterwards. */
  wrap(live: BridgeHandler): BridgeHandler {
    return async (call, signal) => (this.active ? this.answer(call, live, signal) : live(call, signal));
  }

  /** Checks the bound context against the record's before any cell runs. */
  checkContext(turn: number, bound: ContextMetadata): void {
    const { contextChars, contextFiles } = this.input.plan;
    if (contextChars === undefined) return;
    if (bound.totalChars === contextChars && (contextFiles === undefined || bound.fileCount === contextFiles)) return;
    this.diverge(turn, undefined, 'context', `the input is not what the record bound: ${bound.totalChars} characters in ${bound.fileCount} file(s) now, ${contextChars} in ${contextFiles ?? '?'} recorded`);
  }

  /** Runs one recorded cell through `run` (the loop's own cell step), answering its sub-calls from the record. */
  async replayCell(turn: number, cell: ReplayCell, run: (code: string) => Promise<CellResult>, author?: 'user'): Promise<CellResult> {
    this.recorded = [...cell.subCalls];
    this.cellDiverged = undefined;
    this.active = true;
    this.author = author;
    let result: CellResult;
    try {
      result = await run(cell.code);
    } finally {
      this.active = false;
      this.author = undefined;
    }
    for (const name of result.newVariables) this.variables.add(name);
    const cellId = this.cellId();
    if (this.cellDiverged) this.diverge(turn, cellId, 'subcall', this.cellDiverged);
    const outputDiff = compareOutput(cell, result);
    if (outputDiff) this.diverge(turn, cellId, outputDiff.kind, outputDiff.detail);
    return result;
  }

  private diverge(turn: number, cellId: string | undefined, kind: 'context' | 'output' | 'error' | 'subcall', detail: string): void {
    const continued = this.input.from.allowDivergence;
    this.tree.events.emit({ type: 'replay.diverged', runId: this.runId, turn, ...(cellId ? { cellId } : {}), kind, detail, continued });
    if (!continued) throw new ReplayDivergedError(turn, detail);
  }

  private async answer(call: BridgeCall, live: BridgeHandler, signal: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (const [index, prompt] of call.prompts.entries()) {
      const at = this.recorded.findIndex((r) => r.kind === call.kind && r.prompt === prompt);
      if (at < 0) {
        this.cellDiverged ??= `${call.kind} was asked a prompt the record does not have: ${JSON.stringify(prompt.slice(0, PROMPT_SHOWN_CHARS))}${prompt.length > PROMPT_SHOWN_CHARS ? '…' : ''}`;
        if (!this.input.from.allowDivergence) {
          out.push('[ERROR] replay: this prompt is not in the record being replayed, so it was not sent');
          continue;
        }
        // Allowed to diverge: the new prompt is sent (and billed) like any sub-call of the run.
        const single: BridgeCall = call.kind === 'rlm_query' ? { kind: 'rlm_query', prompts: [prompt], contexts: [call.contexts[index] ?? null], batched: false } : { ...call, prompts: [prompt], batched: false };
        out.push((await live(single, signal))[0] ?? '[ERROR] internal: no reply');
        continue;
      }
      const [recorded] = this.recorded.splice(at, 1);
      out.push(this.emitReplayed(recorded!));
    }
    return out;
  }

  private emitReplayed(recorded: RecordedSubCall): string {
    const { tree } = this;
    const callId = tree.newId('call');
    tree.events.emit({ type: 'subcall.started', runId: this.runId, callId, cellId: this.cellId(), kind: recorded.kind, depth: 1, model: recorded.model, prompt: recorded.prompt, ...(this.author ? { author: this.author } : {}) });
    tree.events.emit({
      type: 'subcall.finished',
      runId: this.runId,
      callId,
      ...(recorded.response !== undefined ? { response: recorded.response } : {}),
      // The event says a stable kind; the cell gets the recorded words back (see the return below).
      ...(recorded.error !== undefined ? { error: { kind: asErrorKind(recorded.error.kind), message: recorded.error.message } } : {}),
      usage: ZERO_USAGE,
      latencyMs: 0,
      replayed: true,
    });
    return recorded.response ?? `[ERROR] ${recorded.error?.kind ?? 'internal'}: ${recorded.error?.message ?? 'no recorded answer'}`;
  }
}

/** Where the replayed output differs from the recorded one (a cut record is compared by its head). */
function compareOutput(cell: ReplayCell, result: CellResult): { kind: 'output' | 'error'; detail: string } | undefined {
  const recordedError = cell.error ? `${cell.error.type}: ${cell.error.message}` : undefined;
  const replayedError = result.error ? `${result.error.type}: ${result.error.message}` : undefined;
  if (recordedError !== replayedError) return { kind: 'error', detail: `the cell ${replayedError ? `raised ${replayedError}` : 'ran without error'}; the record has ${recordedError ?? 'no error'}` };
  // Captured under other limits, a cut record still has its real head: that much must match.
  const head = cell.stdoutCutAt !== undefined ? cell.stdout.slice(0, cell.stdoutCutAt) : undefined;
  const same = result.stdout === cell.stdout || (head !== undefined && result.stdout.startsWith(head));
  if (same) return undefined;
  let at = 0;
  while (at < cell.stdout.length && cell.stdout[at] === result.stdout[at]) at++;
  const near = (text: string): string => JSON.stringify(text.slice(Math.max(0, at - 20), at + 40));
  return { kind: 'output', detail: `the output differs from character ${at}: now ${near(result.stdout)}, recorded ${near(cell.stdout)}` };
}
