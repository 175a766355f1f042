// History by conversation: a question and its follow-ups (runs sharing a conversation id) form one
// group, titled by the first question, newest conversation first. Pure: unit-tested.
import type { HistoryItem } from '../../src/shared/sidebarState';

export interface HistoryGroup {
  key: string;
  /** The conversation's first question (in the listed items). */
  first: HistoryItem;
  /** The questions asked after it, oldest first. */
  followUps: HistoryItem[];
  latest: number;
}

export function groupHistory(items: readonly HistoryItem[]): HistoryGroup[] {
  const groups = new Map<string, HistoryItem[]>();
  for (const item of items) {
    const key = item.conversationId ? `c:${item.conversationId}` : `f:${item.path}`;
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return [...groups]
    .map(([key, list]) => {
      const sorted = [...list].sort((a, b) => a.startedAt - b.startedAt);
      return { key, first: sorted[0]!, followUps: sorted.slice(1), latest: sorted[sorted.length - 1]!.startedAt };
    })
    .sort((a, b) => b.latest - a.latest);
}
