// Entry point for every message from the sidebar webview: validates it, then hands it to the
// handler of its protocol area.
import { parseSidebarToHost } from '../../shared/sidebarProtocol';
import type { SidebarToHost } from '../../shared/sidebarProtocol';
import type { ChatToHost } from '../../shared/sidebarChatProtocol';
import type { HistoryToHost } from '../../shared/sidebarHistoryProtocol';
import { describeError } from '../errors/describeError';
import { handleChatMessage } from './chatMessageHandler';
import { HistoryController } from './historyMessageHandler';
import type { SidebarActions } from './sidebarActions';
import type { SidebarStore } from './sidebarStore';
import type { WebviewMessenger } from './webviewMessenger';

export class SidebarRouter {
  readonly history: HistoryController;

  constructor(
    private readonly store: SidebarStore,
    private readonly messenger: WebviewMessenger,
    private readonly actions: SidebarActions,
  ) {
    this.history = new HistoryController(store, actions);
  }

  /** Never rejects: a malformed message or a failing action is reported, not thrown into the webview API. */
  async receive(raw: unknown): Promise<void> {
    let message: SidebarToHost;
    try {
      message = parseSidebarToHost(raw);
    } catch (error) {
      this.actions.reportError('The sidebar sent a message the extension does not understand.', error);
      return;
    }
    try {
      await this.dispatch(message);
    } catch (error) {
      // In words, never a class name or a bare internal message.
      this.actions.reportError(describeError(error).text, error);
    }
  }

  private async dispatch(message: SidebarToHost): Promise<void> {
    if (message.type === 'lifecycle.ready') {
      this.messenger.markReady(() => this.store.fullStateMessage());
      await this.history.refresh();
      return;
    }
    if (message.type === 'lifecycle.switchTab') {
      this.store.setTab(message.tab);
      if (message.tab === 'history') await this.history.refresh();
      return;
    }
    if (isChatMessage(message)) return handleChatMessage(message, this.store, this.actions);
    if (isHistoryMessage(message)) return this.history.handle(message);
  }
}

function isChatMessage(message: SidebarToHost): message is ChatToHost {
  return message.type.startsWith('chat.');
}

function isHistoryMessage(message: SidebarToHost): message is HistoryToHost {
  return message.type.startsWith('history.');
}
