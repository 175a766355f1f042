// Messages of the history list of past runs in the trajectory directory.
import type { HistoryState } from './sidebarState';

export type HistoryToHost =
  | { type: 'history.search'; query: string }
  | { type: 'history.refresh' }
  | { type: 'history.open'; path: string }
  | { type: 'history.delete'; path: string };

export type HistoryToWebview = { type: 'history.state'; history: HistoryState };
