// Keeps the page's outline whole while a file is still being read. The state names the turns so far
// and the page fetches the rest in chunks, while the host's updates already name turns past them. An
// update that starts beyond what the page holds would leave a gap (its turns landing at the wrong
// index), so it only raises the target: the missing turns are fetched, and the host answers with its
// newest figures. DOM-free: unit-tested.
import type { TurnSummary } from '../../src/shared/trajectoryProtocol';

interface OutlineSink {
  /** Turns the page holds, from turn 0 without a gap. */
  readonly length: number;
  /** Replaces the outline from `from` to its end. */
  set(from: number, summaries: TurnSummary[]): void;
}

/** One chunk of the outline from `from`; undefined when the answer no longer applies (another run). */
type FetchOutline = (from: number) => Promise<{ from: number; outline: TurnSummary[] } | undefined>;

export class OutlineSync {
  private target = 0;
  private filling = false;

  constructor(
    private readonly sink: OutlineSink,
    private readonly fetch: FetchOutline,
  ) {}

  /** A full state: `outline` from turn 0, of `total` turns in all. */
  reset(outline: TurnSummary[], total: number): Promise<void> {
    this.sink.set(0, outline);
    this.target = total;
    return this.fill();
  }

  /** An update: the outline from `from` to the run's end. */
  update(from: number, outline: TurnSummary[]): Promise<void> {
    this.target = Math.max(this.target, from + outline.length);
    if (from <= this.sink.length) {
      this.sink.set(from, outline);
      return Promise.resolve();
    }
    return this.fill();
  }

  private async fill(): Promise<void> {
    if (this.filling) return;
    this.filling = true;
    try {
      while (this.sink.length < this.target) {
        const answer = await this.fetch(this.sink.length);
        if (!answer || answer.outline.length === 0 || answer.from > this.sink.length) return;
        this.sink.set(answer.from, answer.outline);
      }
    } finally {
      this.filling = false;
    }
  }
}
