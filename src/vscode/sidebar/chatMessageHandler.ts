// Handles the chat area of the sidebar protocol.
import type { ChatToHost } from '../../shared/sidebarChatProtocol';
import type { SidebarActions } from './sidebarActions';
import type { SidebarStore } from './sidebarStore';
import { sameTarget } from './sidebarStore';
import type { ChatTarget } from '../../shared/sidebarState';

/** Targets come from the host's own list; a webview message cannot point the extension at another path. */
function knownTarget(store: SidebarStore, target: ChatTarget, actions: SidebarActions): boolean {
  if (store.snapshot().targets.some((t) => sameTarget(t, target))) return true;
  actions.reportError(`"${target.label}" is not one of the targets offered; pick it again.`, undefined);
  return false;
}

export async function handleChatMessage(message: ChatToHost, store: SidebarStore, actions: SidebarActions): Promise<void> {
  switch (message.type) {
    case 'chat.ask':
      if (knownTarget(store, message.target, actions)) await actions.ask(message.question.trim(), message.target);
      return;
    case 'chat.stop': {
      const entry = store.entry(message.entryId);
      if (entry) actions.stop(entry);
      return;
    }
    case 'chat.selectTarget':
      if (knownTarget(store, message.target, actions)) store.selectTarget(message.target);
      return;
    case 'chat.pickFolder': {
      const target = await actions.pickFolder();
      if (target) store.selectTarget(target);
      return;
    }
    case 'chat.newConversation':
      if (store.snapshot().busy) {
        actions.reportError('Stop the running question before starting a new conversation.', undefined);
        return;
      }
      await actions.endConversation();
      store.newConversation();
      return;
    case 'chat.viewTrajectory': {
      const entry = store.entry(message.entryId);
      if (entry) await actions.viewTrajectory(entry);
      return;
    }
    case 'chat.copyAnswer': {
      const answer = store.entry(message.entryId)?.answer;
      if (answer !== undefined) await actions.copyText(answer);
      return;
    }
    case 'chat.openReference': {
      const entry = store.entry(message.entryId);
      const reference = entry?.references?.[message.index];
      if (!entry || !reference) throw new Error(`No reference ${message.index + 1} in that answer.`);
      await actions.openReference(entry, reference);
      return;
    }
    case 'chat.configureModels':
      await actions.configureModels();
      return;
    case 'chat.askAgain': {
      const entry = store.entry(message.entryId);
      if (!entry) return;
      if (store.snapshot().busy) {
        actions.reportError('Stop the running question before asking again.', undefined);
        return;
      }
      await actions.askAgain(entry);
      return;
    }
    case 'chat.setPrice': {
      const entry = store.entry(message.entryId);
      if (entry) await actions.setPrice(entry);
      return;
    }
    case 'chat.openSetting': {
      const setting = store.entry(message.entryId)?.outcome?.setting;
      if (setting) await actions.openSetting(setting);
      return;
    }
    case 'chat.nextStep': {
      // Only a step the entry's own outcome offers: the webview names it, the host decides.
      const outcome = store.entry(message.entryId)?.outcome;
      if (outcome?.steps?.includes(message.step)) await actions.runNextStep(message.step, outcome.keySlot);
      return;
    }
  }
}
