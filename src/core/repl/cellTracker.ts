// The host's view of one running cell: its timers (soft interrupt, hard kill), the caller's AbortSignal,
// the output streamed so far (kept in case the process dies), and how the outcome is reported.
import type { WorkerCellResult } from './replProtocol';
import type { CellResult } from './replTypes';

export interface CellArming {
  softMs: number;
  hardMs: number;
  signal?: AbortSignal;
  interrupt(): void;
  hardTimeout(): void;
}

export class CellTracker {
  readonly done: Promise<CellResult>;
  private resolveDone!: (result: CellResult) => void;
  private rejectDone!: (error: Error) => void;
  private readonly started = performance.now();
  private readonly streamed = { stdout: '', stderr: '' };
  private readonly streamedChars = { stdout: 0, stderr: 0 };
  private interrupted = false;
  private timedOut = false;
  private settled = false;

  constructor(
    readonly id: number,
    private readonly captureMaxChars: number,
    private readonly softMs: number,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
  }

  /** Starts the timers and listens to the signal; returns the function that stops them. */
  arm(arming: CellArming): () => void {
    const soft = setTimeout(() => {
      this.timedOut = true;
      arming.interrupt();
    }, arming.softMs);
    const hard = setTimeout(() => arming.hardTimeout(), arming.hardMs);
    const onAbort = (): void => {
      this.interrupted = true;
      arming.interrupt();
    };
    if (arming.signal?.aborted) queueMicrotask(onAbort);
    else arming.signal?.addEventListener('abort', onAbort, { once: true });
    return () => {
      clearTimeout(soft);
      clearTimeout(hard);
      arming.signal?.removeEventListener('abort', onAbort);
    };
  }

  markInterrupted(): void {
    this.interrupted = true;
  }

  /**
   * Keeps streamed output up to the capture limit, and returns the part kept (empty past it): only that
   * goes on to listeners, so however much the process sends, the host passes on at most the limit.
   */
  addOutput(stream: 'stdout' | 'stderr', text: string): string {
    if (this.settled) return '';
    this.streamedChars[stream] += text.length;
    const room = this.captureMaxChars - this.streamed[stream].length;
    if (room <= 0) return '';
    const kept = text.slice(0, room);
    this.streamed[stream] += kept;
    return kept;
  }

  /** The process broke the protocol: the cell has no result, and the run ends with `error`. */
  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.rejectDone(error);
  }

  finish(w: WorkerCellResult): void {
    if (this.settled) return;
    this.settled = true;
    // The worker's figures are believed only up to the capture limit: a REPL whose code escaped the
    // prelude could claim anything, and the host's memory must not depend on it.
    const result: CellResult = {
      stdout: String(w.stdout).slice(0, this.captureMaxChars),
      stderr: String(w.stderr).slice(0, this.captureMaxChars),
      stdoutChars: w.stdoutChars,
      stderrChars: w.stderrChars,
      newVariables: w.newVariables,
      durationMs: performance.now() - this.started,
      outIndex: w.outIndex,
    };
    if (w.error) result.error = w.error;
    if (w.final) result.final = w.final;
    if (typeof w.stdoutCutAt === 'number' && w.stdoutCutAt <= result.stdout.length) result.stdoutCutAt = w.stdoutCutAt;
    if (typeof w.stderrCutAt === 'number' && w.stderrCutAt <= result.stderr.length) result.stderrCutAt = w.stderrCutAt;
    if (w.outKept) result.outKept = w.outKept;
    if (typeof w.answerDraft === 'string') result.answerDraft = w.answerDraft.slice(0, this.captureMaxChars);
    if (w.interrupted) {
      if (this.timedOut && !this.interrupted) {
        result.timedOut = true;
        result.error = {
          type: 'Timeout',
          message: `the cell ran longer than ${this.softMs} ms and was stopped; variables are kept`,
          traceback: w.error?.traceback ?? '',
        };
      } else {
        result.interrupted = true;
      }
    }
    this.resolveDone(result);
  }

  /** The process is gone (hard timeout, crash, out of memory, close): report what was streamed. */
  lose(restarted: NonNullable<CellResult['restarted']>): void {
    if (this.settled) return;
    this.settled = true;
    const notice =
      `The REPL process was restarted (${restarted.reason}): ${restarted.detail}. ` +
      'All variables were lost; `context` has been bound again and the prelude functions are available.';
    this.resolveDone({
      stdout: this.streamed.stdout,
      stderr: this.streamed.stderr,
      stdoutChars: this.streamedChars.stdout,
      stderrChars: this.streamedChars.stderr,
      error: { type: 'Restarted', message: notice, traceback: '' },
      newVariables: [],
      durationMs: performance.now() - this.started,
      outIndex: -1,
      timedOut: restarted.reason === 'hard-timeout' ? true : undefined,
      restarted,
    });
  }
}
