// The eval's progress on stderr: a redrawn bar on a terminal, one line per finished task otherwise.
import { inertOutput } from '../support/inertOutput';
import type { InertOutput } from '../support/inertOutput';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 24;

export class ProgressBar {
  private lastLength = 0;
  private readonly out: InertOutput;

  constructor(
    out: ProgressOutput,
    private readonly total: number,
    private readonly startedAt: number,
    private readonly now: () => number,
  ) {
    // Task labels and outcomes can carry model text: written inert.
    this.out = inertOutput(out);
  }

  /** Shown while `label` runs; `done` tasks have finished. */
  working(done: number, label: string): void {
    if (this.out.isTTY) this.draw(this.line(done, label));
  }

  finished(done: number, label: string, outcome: string): void {
    const text = `${this.line(done, label)} ${outcome}`;
    if (this.out.isTTY) this.draw(text);
    else this.out.write(`${text}\n`);
  }

  stop(): void {
    if (this.out.isTTY && this.lastLength > 0) this.out.write('\n');
    this.lastLength = 0;
  }

  private line(done: number, label: string): string {
    const filled = this.total === 0 ? WIDTH : Math.round((done / this.total) * WIDTH);
    const secs = Math.round((this.now() - this.startedAt) / 1000);
    const clock = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
    return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${this.total} ${clock} ${label}`;
  }

  private draw(text: string): void {
    const pad = Math.max(0, this.lastLength - text.length);
    this.out.control('\r');
    this.out.write(`${text}${' '.repeat(pad)}`);
    this.lastLength = text.length;
  }
}
