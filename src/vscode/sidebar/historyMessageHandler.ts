// Handles the history area of the sidebar protocol: the list of past runs, filtered by question.
import type { HistoryToHost } from '../../shared/sidebarHistoryProtocol';
import type { HistoryItem } from '../../shared/sidebarState';
import type { SidebarActions } from './sidebarActions';
import type { SidebarStore } from './sidebarStore';

/** Case-insensitive match of every word of `query` against the question (and target label). */
export function filterHistory(items: readonly HistoryItem[], query: string): HistoryItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = items.filter((item) => {
    const haystack = `${item.question} ${item.targetLabel ?? ''}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  return matching.sort((a, b) => b.startedAt - a.startedAt);
}

/** Runs starting and ending within this window cause one re-read of the history, not one each. */
const REFRESH_DEBOUNCE_MS = 300;

export class HistoryController {
  private all: HistoryItem[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: SidebarStore,
    private readonly actions: SidebarActions,
    private readonly debounceMs = REFRESH_DEBOUNCE_MS,
  ) {}

  /** Something changed (a run started or ended, a file appeared): re-read the history shortly. */
  refreshSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, this.debounceMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  async refresh(): Promise<void> {
    this.store.setHistory({ loading: true, error: undefined });
    try {
      this.all = await this.actions.listHistory();
      this.store.setHistory({ loading: false, items: filterHistory(this.all, this.store.history.query) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.store.setHistory({ loading: false, items: [], error: `The run history could not be read: ${reason}` });
    }
  }

  async handle(message: HistoryToHost): Promise<void> {
    switch (message.type) {
      case 'history.search':
        this.store.setHistory({ query: message.query, items: filterHistory(this.all, message.query) });
        return;
      case 'history.refresh':
        await this.refresh();
        return;
      case 'history.open':
        await this.actions.openHistoryItem(message.path);
        return;
      case 'history.continue':
        await this.actions.continueHistoryItem(message.path, message.fork);
        return;
      case 'history.delete':
        if (await this.actions.deleteHistoryItem(message.path)) {
          this.all = this.all.filter((i) => i.path !== message.path);
          this.store.setHistory({ items: filterHistory(this.all, this.store.history.query) });
        }
        return;
    }
  }
}
