// The live progress line on stderr: turn, sub-calls, tokens, cost and elapsed time. On a terminal it
// rewrites one line; with --verbose on a pipe it prints a line per turn instead.
import { totalsCostText } from '../../shared/text/costText';
import { runIsNoCharge } from '../../core/models/pricing';
import { formatCost, formatTokenCount } from '../../shared/text/format';
import type { EventRecord } from '../../core/trajectory/events';
import { inertOutput } from './inertOutput';
import type { InertOutput } from './inertOutput';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export class ProgressLine {
  private turn = 0;
  private subCalls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cost = 0;
  private costUnknown = false;
  /** Both models of the root run on a server with no per-token charge. */
  private local = false;
  /** Some call was paid by the user's plan (a VS Code language model). */
  private includedInPlan = false;
  private cachedTokens = 0;
  private cachedSubCalls = 0;
  private saved = 0;
  private timer?: NodeJS.Timeout;
  private shown = false;
  /** Only the root run's turns move the turn counter; child runs count as sub-calls. */
  private rootRunId?: string;

  private readonly stream: InertOutput;

  constructor(
    stream: ProgressStream,
    private readonly startedAt: number,
    private readonly now: () => number = Date.now,
  ) {
    this.stream = inertOutput(stream);
    if (stream.isTTY) {
      this.timer = setInterval(() => this.render(), 1000);
      this.timer.unref();
    }
  }

  update(record: EventRecord): void {
    switch (record.type) {
      case 'turn.started':
        if (record.runId !== this.rootRunId) return;
        this.turn = record.turn;
        if (!this.stream.isTTY) this.stream.write(`${this.text()}\n`);
        break;
      case 'run.started':
        if (this.rootRunId === undefined) this.local = runIsNoCharge(record.config);
        this.rootRunId ??= record.runId;
        return;
      case 'subcall.started':
        this.subCalls += 1;
        break;
      case 'model.output':
      case 'subcall.finished':
        this.inputTokens += record.usage.inputTokens;
        this.outputTokens += record.usage.outputTokens;
        if (record.usage.includedInPlan) this.includedInPlan = true;
        if (record.usage.costUsd === null) this.costUnknown = true;
        else this.cost += record.usage.costUsd;
        this.cachedTokens += record.usage.cacheReadTokens ?? 0;
        this.saved += record.usage.savedUsd ?? 0;
        if (record.usage.fromCache) this.cachedSubCalls += 1;
        break;
      default:
        return;
    }
    if (this.stream.isTTY) this.render();
  }

  /** Notes printed above the live line (warnings, fallbacks). */
  note(text: string): void {
    this.clear();
    this.stream.write(`${text}\n`);
    if (this.stream.isTTY) this.render();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }

  text(): string {
    const tokens = this.inputTokens + this.outputTokens;
    const elapsed = ((this.now() - this.startedAt) / 1000).toFixed(1);
    return `rlm: turn ${this.turn} · ${this.subCalls} sub-calls · ${formatTokenCount(tokens)} tokens · ${totalsCostText({ costUsd: this.cost, costUnknown: this.costUnknown, includedInPlan: this.includedInPlan, inputTokens: this.inputTokens, outputTokens: this.outputTokens }, this.local, true)}${this.cacheText()} · ${elapsed}s`;
  }

  /** What caching saved so far, only once it saved something: the cost next to it reads as already reduced. */
  private cacheText(): string {
    const parts: string[] = [];
    if (this.cachedTokens > 0) parts.push(`${formatTokenCount(this.cachedTokens)} cached tokens`);
    if (this.cachedSubCalls > 0) parts.push(`${this.cachedSubCalls} cached sub-call${this.cachedSubCalls === 1 ? '' : 's'}`);
    if (this.saved > 0) parts.push(`saved ${formatCost(this.saved, false)}`);
    return parts.length ? ` (${parts.join(', ')})` : '';
  }

  private render(): void {
    this.stream.control('\r\x1b[2K');
    this.stream.write(this.text());
    this.shown = true;
  }

  private clear(): void {
    if (this.stream.isTTY && this.shown) this.stream.control('\r\x1b[2K');
    this.shown = false;
  }
}
