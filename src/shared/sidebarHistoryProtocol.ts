// Messages of the history list of past runs in the trajectory directory.
import type { HistoryState } from './sidebarState';

export type HistoryToHost =
  | { type: 'history.search'; query: string }
  | { type: 'history.refresh' }
  | { type: 'history.open'; path: string }
  | { type: 'history.delete'; path: string }
  /** Continue this run… (a follow-up after replaying it) or Fork from this turn… on a past run. */
  | { type: 'history.continue'; path: string; fork: boolean };

export type HistoryToWebview = { type: 'history.state'; history: HistoryState };
