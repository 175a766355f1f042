// The webview's side of the protocol: typed posts to the host, typed messages from it.
import type { SidebarToHost, SidebarToWebview } from '../../src/shared/sidebarProtocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel {
  post(message: SidebarToHost): void;
  onMessage(listener: (message: SidebarToWebview) => void): void;
}

export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    onMessage: (listener) =>
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const data = event.data;
        // Only the host posts to this window; still, ignore anything without our message shape.
        if (typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string') listener(data as SidebarToWebview);
      }),
  };
}
