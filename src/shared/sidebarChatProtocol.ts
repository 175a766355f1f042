// Messages of the conversation itself: asking, stopping, following a run.
import type { NextStep } from './nextStep';
import type { ChatEntry, ChatTarget } from './sidebarState';

export type ChatToHost =
  | { type: 'chat.ask'; question: string; target: ChatTarget }
  | { type: 'chat.stop'; entryId: string }
  | { type: 'chat.selectTarget'; target: ChatTarget }
  | { type: 'chat.pickFolder' }
  | { type: 'chat.newConversation' }
  | { type: 'chat.viewTrajectory'; entryId: string }
  | { type: 'chat.copyAnswer'; entryId: string }
  | { type: 'chat.configureModels' }
  /** Ask an entry's question again, about the same target, in this conversation. */
  | { type: 'chat.askAgain'; entryId: string }
  /** Set a price for a model of an entry whose cost reads "price unknown". */
  | { type: 'chat.setPrice'; entryId: string }
  /** Open the setting that limited an entry's run. */
  | { type: 'chat.openSetting'; entryId: string }
  /** Run one of the next steps an entry's failure offers ("Configure models...", "Set API key..."). */
  | { type: 'chat.nextStep'; entryId: string; step: NextStep }
  /** Opens the entry's `index`-th reference at its line (the host looks it up: the view names no path). */
  | { type: 'chat.openReference'; entryId: string; index: number };

/** One entry changed (streaming text, live line, answer): cheaper than resending the whole state. */
export type ChatToWebview = { type: 'chat.entry'; entry: ChatEntry };
