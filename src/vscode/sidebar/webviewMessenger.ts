// Host-side outbox of a webview: messages wait until the view says it is ready, and a view that goes
// away drops its queue (a re-created view asks for the full state, so nothing is lost). No `vscode`
// import, so the handshake logic is unit-tested in plain Node.
import type { SidebarToWebview } from '../../shared/sidebarProtocol';

export type PostFunction = (message: SidebarToWebview) => PromiseLike<boolean> | boolean;

export class WebviewMessenger {
  private postFn: PostFunction | undefined;
  private ready = false;
  private queue: SidebarToWebview[] = [];

  /** A (new) webview is attached; it is not ready until it sends its handshake. */
  attach(post: PostFunction): void {
    this.postFn = post;
    this.ready = false;
    this.queue = [];
  }

  detach(): void {
    this.postFn = undefined;
    this.ready = false;
    this.queue = [];
  }

  get isReady(): boolean {
    return this.ready && this.postFn !== undefined;
  }

  /** Messages waiting for the handshake. */
  get pending(): readonly SidebarToWebview[] {
    return this.queue;
  }

  /**
   * The webview's handshake arrived. `fullState` is built now, so it already contains everything the
   * queued partial updates carried: they are dropped rather than replayed over newer state.
   */
  markReady(fullState: () => SidebarToWebview): void {
    if (!this.postFn) return;
    this.ready = true;
    this.queue = [];
    this.send(fullState());
  }

  post(message: SidebarToWebview): void {
    if (!this.postFn) return;
    if (!this.ready) {
      this.queue.push(message);
      return;
    }
    this.send(message);
  }

  private send(message: SidebarToWebview): void {
    void this.postFn?.(message);
  }
}
