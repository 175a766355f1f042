// Handshake: the webview announces itself, the host answers with the whole state. The host queues
// everything else until then, and a re-created view simply says `ready` again.
import type { SidebarState } from './sidebarState';

export type LifecycleToHost = { type: 'lifecycle.ready' } | { type: 'lifecycle.switchTab'; tab: SidebarState['tab'] };

export type LifecycleToWebview = { type: 'lifecycle.state'; state: SidebarState };
