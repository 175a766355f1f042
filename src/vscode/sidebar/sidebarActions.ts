// What the sidebar's message handlers may ask the rest of the extension to do. The VS Code side
// implements it; tests pass a recording fake.
import type { KeySlot, NextStep } from '../../shared/nextStep';
import type { ChatEntry, ChatTarget, HistoryItem } from '../../shared/sidebarState';

export interface SidebarActions {
  /** Starts answering `question` about `target` in the current conversation. Never throws: failures land in the entry. */
  ask(question: string, target: ChatTarget): Promise<void>;
  stop(entry: ChatEntry): void;
  /** Lets the user choose a folder; undefined when they cancel. */
  pickFolder(): Promise<ChatTarget | undefined>;
  /** Ends the conversation's warm REPL. */
  endConversation(): Promise<void>;
  viewTrajectory(entry: ChatEntry): Promise<void>;
  /** Opens one of the answer's references at its line (a huge file as a read-only slice). */
  openReference(entry: ChatEntry, reference: NonNullable<ChatEntry['references']>[number]): Promise<void>;
  copyText(text: string): Promise<void>;
  configureModels(): Promise<void>;
  /** Asks the entry's question again, about its target, in the current conversation. */
  askAgain(entry: ChatEntry): Promise<void>;
  /** Lets the user set a price for one of the entry's unpriced models. */
  setPrice(entry: ChatEntry): Promise<void>;
  /** Opens the setting that limited the entry's run. */
  openSetting(setting: string): Promise<void>;
  /** Runs a next step of a failure ("Set API key..." for the server it names). */
  runNextStep(step: NextStep, keySlot: KeySlot | undefined): Promise<void>;
  listHistory(): Promise<HistoryItem[]>;
  openHistoryItem(path: string): Promise<void>;
  /** Continue this run… or Fork from this turn… on a recorded run of the history. */
  continueHistoryItem(path: string, fork: boolean): Promise<void>;
  /** Asks the user to confirm, then deletes; resolves false when they decline. */
  deleteHistoryItem(path: string): Promise<boolean>;
  /** Where handler failures are reported (log + a message to the user). */
  reportError(message: string, error: unknown): void;
}
