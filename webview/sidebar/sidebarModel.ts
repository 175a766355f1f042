// The webview's copy of the host's state, updated only by host messages. Nothing here is the source
// of truth: a re-created view starts empty and receives the full state after its handshake.
import type { SidebarToWebview } from '../../src/shared/sidebarProtocol';
import type { SidebarState } from '../../src/shared/sidebarState';
import { isActiveStatus } from '../../src/shared/sidebarState';

export type Change = 'all' | { entryId: string } | 'history';

/** Applies one message; returns the new state and what needs re-rendering. */
export function applyHostMessage(state: SidebarState | undefined, message: SidebarToWebview): { state: SidebarState | undefined; change: Change | undefined } {
  switch (message.type) {
    case 'lifecycle.state':
      return { state: message.state, change: 'all' };
    case 'chat.entry': {
      if (!state) return { state, change: undefined };
      const index = state.entries.findIndex((e) => e.id === message.entry.id);
      const entries = [...state.entries];
      if (index < 0) entries.push(message.entry);
      else entries[index] = message.entry;
      const busy = entries.some((e) => isActiveStatus(e.status));
      const next = { ...state, entries, busy };
      return { state: next, change: index < 0 || busy !== state.busy ? 'all' : { entryId: message.entry.id } };
    }
    case 'history.state':
      if (!state) return { state, change: undefined };
      return { state: { ...state, history: message.history }, change: 'history' };
  }
}

/** "2 min ago", "yesterday 14:05", or a date: for the history list. */
export function relativeTime(ms: number, now: number): string {
  const diff = Math.max(0, now - ms);
  if (diff < 60_000) return 'just now';
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)} min ago`;
  if (diff < 86_400_000) return `${Math.floor(diff / 3_600_000)} h ago`;
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const STATUS_TEXT: Record<string, string> = {
  queued: 'Queued',
  gathering: 'Reading the files…',
  running: 'Running',
  completed: 'Answered',
  forced: 'Best answer at a limit',
  cancelled: 'Stopped',
  limit: 'Stopped at a limit',
  error: 'Failed',
  incomplete: 'Incomplete',
};

/** An entry's status in words: the run's outcome once it has one ("Stopped by you after 3 turns"). */
export function statusText(entry: { status: string; outcome?: { headline: string } }): string {
  if (entry.outcome && !['queued', 'gathering', 'running'].includes(entry.status)) return entry.outcome.headline;
  return STATUS_TEXT[entry.status] ?? entry.status;
}
