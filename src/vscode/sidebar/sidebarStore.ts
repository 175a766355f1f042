// The sidebar's state, owned by the host. Every change is pushed to the webview through the
// messenger: whole-state for structural changes, one entry or the history for frequent ones.
import type { SidebarToWebview } from '../../shared/sidebarProtocol';
import type { ChatEntry, ChatTarget, HistoryState, SidebarState } from '../../shared/sidebarState';
import { isActiveStatus } from '../../shared/sidebarState';
import type { WebviewMessenger } from './webviewMessenger';
import type { SavedChat } from './chatPersistence';

export const WORKSPACE_TARGET: ChatTarget = { kind: 'workspace', label: 'Workspace' };

/** The empty chat's invitation: where RLM is most useful is where other assistants give up. */
const EMPTY_HINT =
  'Ask about the workspace, a folder or the file in the active tab. Huge files are where RLM shines: even a log too large for the editor to display works, because the model explores it with code in a local Python sandbox instead of reading it whole.';

export class SidebarStore {
  private state: SidebarState;
  private drafts = 0;

  constructor(
    private readonly messenger: WebviewMessenger,
    private readonly newId: () => string,
    /** The chat as saved before a window reload. */
    restored?: SavedChat,
    /** Told after every change that is worth keeping across a reload (entries, tab, conversation). */
    private readonly onSaveable: (state: SidebarState) => void = () => undefined,
  ) {
    this.state = {
      conversationId: restored?.conversationId ?? newId(),
      entries: restored?.entries ?? [],
      targets: [WORKSPACE_TARGET],
      selectedTarget: WORKSPACE_TARGET,
      busy: false,
      trusted: true,
      history: { query: '', items: [], loading: false },
      tab: restored?.tab ?? 'chat',
      emptyHint: EMPTY_HINT,
    };
  }

  snapshot(): SidebarState {
    return structuredClone(this.state);
  }

  fullStateMessage(): SidebarToWebview {
    return { type: 'lifecycle.state', state: this.snapshot() };
  }

  entry(id: string): ChatEntry | undefined {
    return this.state.entries.find((e) => e.id === id);
  }

  get entries(): readonly ChatEntry[] {
    return this.state.entries;
  }

  get selectedTarget(): ChatTarget {
    return this.state.selectedTarget;
  }

  get conversationId(): string {
    return this.state.conversationId;
  }

  addEntry(entry: ChatEntry): void {
    // The draft was asked (or replaced by another question): a re-created view must not bring it back.
    delete this.state.draft;
    this.state.entries.push(entry);
    this.recomputeBusy();
    this.pushAll();
  }

  /** Applies a change to one entry; the webview receives just that entry unless `busy` flipped. */
  updateEntry(id: string, patch: Partial<ChatEntry>): ChatEntry | undefined {
    const index = this.state.entries.findIndex((e) => e.id === id);
    const current = this.state.entries[index];
    if (!current) return undefined;
    const next = { ...current, ...patch, id };
    this.state.entries[index] = next;
    // The figures of a running entry change on every tick; only its start and end are worth saving.
    if (patch.status !== undefined || patch.outcome !== undefined || patch.answer !== undefined) this.onSaveable(this.state);
    if (this.recomputeBusy()) this.pushAll();
    else this.messenger.post({ type: 'chat.entry', entry: structuredClone(next) });
    return next;
  }

  newConversation(): void {
    this.state.conversationId = this.newId();
    this.state.entries = [];
    this.recomputeBusy();
    this.pushAll();
  }

  setTargets(targets: ChatTarget[]): void {
    const all = [WORKSPACE_TARGET, ...targets.filter((t) => t.kind !== 'workspace')];
    this.state.targets = all;
    if (!all.some((t) => sameTarget(t, this.state.selectedTarget))) this.state.selectedTarget = WORKSPACE_TARGET;
    this.pushAll();
  }

  selectTarget(target: ChatTarget): void {
    if (!this.state.targets.some((t) => sameTarget(t, target))) this.state.targets.push(target);
    this.state.selectedTarget = target;
    this.pushAll();
  }

  setModelLabel(label: string | undefined): void {
    this.state.modelLabel = label;
    this.pushAll();
  }

  setTrusted(trusted: boolean): void {
    this.state.trusted = trusted;
    this.pushAll();
  }

  setTab(tab: SidebarState['tab']): void {
    this.state.tab = tab;
    this.pushAll();
  }

  /** Puts `question` in the chat's box (on the Chat tab); the webview applies each draft once. */
  prefill(question: string): void {
    this.state.draft = { id: ++this.drafts, question };
    this.state.tab = 'chat';
    this.pushAll();
  }

  setHistory(patch: Partial<HistoryState>): void {
    this.state.history = { ...this.state.history, ...patch };
    this.messenger.post({ type: 'history.state', history: structuredClone(this.state.history) });
  }

  get history(): HistoryState {
    return this.state.history;
  }

  private recomputeBusy(): boolean {
    const busy = this.state.entries.some((e) => isActiveStatus(e.status));
    const changed = busy !== this.state.busy;
    this.state.busy = busy;
    return changed;
  }

  private pushAll(): void {
    this.messenger.post(this.fullStateMessage());
    this.onSaveable(this.state);
  }
}

export function sameTarget(a: ChatTarget, b: ChatTarget): boolean {
  return a.kind === b.kind && (a.uri ?? '') === (b.uri ?? '');
}
