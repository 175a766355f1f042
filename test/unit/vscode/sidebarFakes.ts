// Fakes for the sidebar's host-side logic: a recording webview and recording actions.
import type { SidebarToWebview } from '../../../src/shared/sidebarProtocol';
import type { ChatEntry, ChatTarget, HistoryItem } from '../../../src/shared/sidebarState';
import type { SidebarActions } from '../../../src/vscode/sidebar/sidebarActions';

export class RecordingWebview {
  readonly sent: SidebarToWebview[] = [];
  post = (message: SidebarToWebview): boolean => {
    this.sent.push(structuredClone(message));
    return true;
  };
  types(): string[] {
    return this.sent.map((m) => m.type);
  }
}

export class RecordingActions implements SidebarActions {
  readonly calls: string[] = [];
  history: HistoryItem[] = [];
  confirmDelete = true;
  folder: ChatTarget | undefined;
  errors: string[] = [];
  async ask(question: string, target: ChatTarget): Promise<void> {
    this.calls.push(`ask:${question}:${target.kind}`);
  }
  stop(entry: ChatEntry): void {
    this.calls.push(`stop:${entry.id}`);
  }
  async pickFolder(): Promise<ChatTarget | undefined> {
    return this.folder;
  }
  async endConversation(): Promise<void> {
    this.calls.push('endConversation');
  }
  async viewTrajectory(entry: ChatEntry): Promise<void> {
    this.calls.push(`view:${entry.id}`);
  }
  async copyText(text: string): Promise<void> {
    this.calls.push(`copy:${text}`);
  }
  async configureModels(): Promise<void> {
    this.calls.push('configure');
  }
  async askAgain(entry: ChatEntry): Promise<void> {
    this.calls.push(`askAgain:${entry.id}`);
  }
  async setPrice(entry: ChatEntry): Promise<void> {
    this.calls.push(`setPrice:${entry.id}`);
  }
  async openSetting(setting: string): Promise<void> {
    this.calls.push(`openSetting:${setting}`);
  }
  async runNextStep(step: string, keySlot: { provider: string; baseUrl: string } | undefined): Promise<void> {
    this.calls.push(`step:${step}${keySlot ? `:${keySlot.provider}@${keySlot.baseUrl}` : ''}`);
  }
  async listHistory(): Promise<HistoryItem[]> {
    return this.history;
  }
  async openHistoryItem(path: string): Promise<void> {
    this.calls.push(`open:${path}`);
  }
  async openReference(entry: ChatEntry, reference: { path: string; line: number }): Promise<void> {
    this.calls.push(`reference:${entry.id}:${reference.path}:${reference.line}`);
  }
  async continueHistoryItem(path: string, fork: boolean): Promise<void> {
    this.calls.push(`${fork ? 'fork' : 'continue'}:${path}`);
  }
  async deleteHistoryItem(path: string): Promise<boolean> {
    this.calls.push(`delete:${path}`);
    return this.confirmDelete;
  }
  reportError(message: string): void {
    this.errors.push(message);
  }
}

export function entry(id: string, status: ChatEntry['status'], extra: Partial<ChatEntry> = {}): ChatEntry {
  return {
    id,
    question: `question ${id}`,
    target: { kind: 'workspace', label: 'Workspace' },
    status,
    live: { turn: 0, subCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, costUnknown: false, costLocal: false, activity: '' },
    streamingText: '',
    startedAt: 1,
    ...extra,
  };
}

export function historyItem(path: string, question: string, startedAt: number): HistoryItem {
  return { path, runId: path, question, startedAt, status: 'completed' };
}
