// Which progress lines an `@rlm` answer shows while the run works. Every line stays in the chat, so a
// new one is added when something a reader cares about changed (a new turn, more sub-calls) and at
// most once per interval, not on every event. No `vscode` import.
import { formatLiveLine } from '../../shared/text/liveLine';
import type { RunProgress } from '../run/runProgress';

const MIN_INTERVAL_MS = 1500;

export class ChatProgressLines {
  private lastTurn = -1;
  private lastSubCalls = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastLine = '';

  constructor(private readonly minIntervalMs = MIN_INTERVAL_MS) {}

  /** The line to show now, or undefined to stay quiet. */
  next(progress: RunProgress, now: number): string | undefined {
    // Before the first turn nothing is known yet ("Reading …" is already shown): no "0 tokens, cost unknown" line.
    if (progress.finished || progress.turn === 0) return undefined;
    const newTurn = progress.turn !== this.lastTurn;
    const moreCalls = progress.subCalls !== this.lastSubCalls;
    if (!newTurn && !(moreCalls && now - this.lastAt >= this.minIntervalMs)) return undefined;
    const line = `${formatLiveLine(progress)} · ${progress.activity}`;
    if (line === this.lastLine) return undefined;
    this.lastTurn = progress.turn;
    this.lastSubCalls = progress.subCalls;
    this.lastAt = now;
    this.lastLine = line;
    return line;
  }
}
