// Which turn bodies to ask the host for and which rendered ones to drop, so that only the turns near
// the viewport hold DOM and data. Pure: unit-tested.

export type PageState = 'pending' | 'loaded';

export class TurnPaging {
  private readonly pages = new Map<number, PageState>();

  constructor(readonly pageSize: number) {}

  pageOf(index: number): number {
    return Math.floor(index / this.pageSize);
  }

  state(page: number): PageState | undefined {
    return this.pages.get(page);
  }

  /**
   * Pages needed to show turns [from, to] (inclusive) plus one page of look-ahead each way, that are
   * neither loaded nor already requested. Marks them pending.
   */
  take(from: number, to: number, total: number): number[] {
    if (total <= 0 || to < from) return [];
    const last = this.pageOf(total - 1);
    const first = Math.max(0, this.pageOf(from) - 1);
    const end = Math.min(last, this.pageOf(Math.min(to, total - 1)) + 1);
    const wanted: number[] = [];
    for (let page = first; page <= end; page++) {
      if (!this.pages.has(page)) {
        this.pages.set(page, 'pending');
        wanted.push(page);
      }
    }
    return wanted;
  }

  loaded(page: number): void {
    this.pages.set(page, 'loaded');
  }

  /** A request failed or its turns were dropped: the page can be asked for again. */
  forget(page: number): void {
    this.pages.delete(page);
  }

  /** Forget every page holding one of `indices` (live changes), returning those that were loaded. */
  invalidate(indices: number[]): number[] {
    const stale = new Set<number>();
    for (const i of indices) {
      const page = this.pageOf(i);
      if (this.pages.get(page) === 'loaded') stale.add(page);
      this.pages.delete(page);
    }
    return [...stale].sort((a, b) => a - b);
  }

  /**
   * Loaded pages farther than `keep` pages from the page range in view, farthest first: their DOM
   * can be replaced by placeholders of the same height.
   */
  evictable(viewFirst: number, viewLast: number, keep: number): number[] {
    const lo = this.pageOf(viewFirst) - keep;
    const hi = this.pageOf(viewLast) + keep;
    const out: Array<[number, number]> = [];
    for (const [page, state] of this.pages) {
      if (state !== 'loaded') continue;
      if (page < lo) out.push([page, lo - page]);
      else if (page > hi) out.push([page, page - hi]);
    }
    return out.sort((a, b) => b[1] - a[1]).map(([page]) => page);
  }
}
