// The whole host<->webview protocol of the sidebar chat, assembled from its areas, and the check the
// host runs on every message it receives (the webview is a separate, less trusted context).
import { isNextStep } from './nextStep';
import type { ChatToHost, ChatToWebview } from './sidebarChatProtocol';
import type { HistoryToHost, HistoryToWebview } from './sidebarHistoryProtocol';
import type { LifecycleToHost, LifecycleToWebview } from './sidebarLifecycleProtocol';
import type { ChatTarget } from './sidebarState';

export type SidebarToHost = LifecycleToHost | ChatToHost | HistoryToHost;
export type SidebarToWebview = LifecycleToWebview | ChatToWebview | HistoryToWebview;

type SidebarToHostType = SidebarToHost['type'];

type Fields = Record<string, (value: unknown) => boolean>;

const isString = (v: unknown): boolean => typeof v === 'string';
const isNonEmptyString = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;

export function isChatTarget(v: unknown): v is ChatTarget {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  if (t.kind !== 'workspace' && t.kind !== 'file' && t.kind !== 'folder') return false;
  if (typeof t.label !== 'string') return false;
  if (t.uri !== undefined && typeof t.uri !== 'string') return false;
  return t.kind === 'workspace' || typeof t.uri === 'string';
}

/** The payload fields each message type must carry. Adding a message type without a row is a type error. */
const SHAPES: { [T in SidebarToHostType]: Fields } = {
  'lifecycle.ready': {},
  'lifecycle.switchTab': { tab: (v) => v === 'chat' || v === 'history' },
  'chat.ask': { question: isNonEmptyString, target: isChatTarget },
  'chat.stop': { entryId: isString },
  'chat.selectTarget': { target: isChatTarget },
  'chat.pickFolder': {},
  'chat.newConversation': {},
  'chat.viewTrajectory': { entryId: isString },
  'chat.copyAnswer': { entryId: isString },
  'chat.openReference': { entryId: isString, index: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 },
  'chat.configureModels': {},
  'chat.askAgain': { entryId: isString },
  'chat.setPrice': { entryId: isString },
  'chat.openSetting': { entryId: isString },
  'chat.nextStep': { entryId: isString, step: isNextStep },
  'history.search': { query: isString },
  'history.refresh': {},
  'history.open': { path: isNonEmptyString },
  'history.delete': { path: isNonEmptyString },
  'history.continue': { path: isNonEmptyString, fork: (v) => typeof v === 'boolean' },
};

/** Thrown for a message from the webview that does not match the protocol; carries what was wrong. */
export class ProtocolMessageError extends Error {
  constructor(
    readonly received: unknown,
    readonly problem: string,
  ) {
    super(`Invalid sidebar message: ${problem}`);
    this.name = 'ProtocolMessageError';
  }
}

/** Validates an incoming message and returns it typed, or throws ProtocolMessageError. */
export function parseSidebarToHost(value: unknown): SidebarToHost {
  if (typeof value !== 'object' || value === null) throw new ProtocolMessageError(value, 'not an object');
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(SHAPES, type)) {
    throw new ProtocolMessageError(value, `unknown type ${JSON.stringify(type)}`);
  }
  const fields = SHAPES[type as SidebarToHostType];
  for (const [name, check] of Object.entries(fields)) {
    if (!check((value as Record<string, unknown>)[name])) {
      throw new ProtocolMessageError(value, `${type}: field "${name}" is missing or malformed`);
    }
  }
  return value as SidebarToHost;
}
