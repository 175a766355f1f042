// The chat survives a window reload: the conversation (its questions, answers and outcomes) and the
// open tab are saved in the workspace's state and shown again. A run cannot survive the reload, so an
// entry that was still running comes back as stopped, saying why. No `vscode` import: unit-tested.
import type { ChatEntry, SidebarState } from '../../shared/sidebarState';
import { isActiveStatus } from '../../shared/sidebarState';

export const CHAT_STATE_KEY = 'rlm.chat.v1';
/** Entries kept (the newest); a conversation longer than this keeps its end. */
export const MAX_SAVED_ENTRIES = 30;
/** Characters of an answer or partial findings kept; the trajectory file has the rest. */
export const MAX_SAVED_TEXT = 50_000;

export interface SavedChat {
  conversationId: string;
  entries: ChatEntry[];
  tab: SidebarState['tab'];
}

function clipText(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= MAX_SAVED_TEXT) return text;
  return `${text.slice(0, MAX_SAVED_TEXT)}\n\n… (clipped here; View trajectory shows all of it)`;
}

export function toSaved(state: Pick<SidebarState, 'conversationId' | 'entries' | 'tab'>): SavedChat {
  const entries = state.entries.slice(-MAX_SAVED_ENTRIES).map((e) => {
    const { streamingText: _dropped, answer, partial, ...rest } = e;
    const clippedAnswer = clipText(answer);
    const clippedPartial = clipText(partial);
    return { ...rest, streamingText: '', ...(clippedAnswer !== undefined ? { answer: clippedAnswer } : {}), ...(clippedPartial !== undefined ? { partial: clippedPartial } : {}) };
  });
  return { conversationId: state.conversationId, entries, tab: state.tab };
}

/** The saved chat as it is shown after a reload; undefined when nothing usable was saved. */
export function fromSaved(saved: unknown, now: number): SavedChat | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const s = saved as Partial<SavedChat>;
  if (typeof s.conversationId !== 'string' || !Array.isArray(s.entries)) return undefined;
  const entries = s.entries
    .filter((e): e is ChatEntry => typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.question === 'string')
    .map((e) =>
      isActiveStatus(e.status)
        ? { ...e, status: 'cancelled' as const, outcome: { tone: 'neutral' as const, headline: 'Stopped: the window was reloaded while it ran', askAgain: true }, finishedAt: now }
        : e,
    );
  return { conversationId: s.conversationId, entries, tab: s.tab === 'history' ? 'history' : 'chat' };
}

/** The answered questions of a restored conversation, for the next follow-up's prior turns. */
export function priorTurnsOf(entries: readonly ChatEntry[]): Array<{ question: string; answer: string }> {
  return entries
    .filter((e) => e.answer !== undefined && (e.status === 'completed' || e.status === 'forced' || e.status === 'limit'))
    .map((e) => ({ question: e.question, answer: e.answer! }));
}
