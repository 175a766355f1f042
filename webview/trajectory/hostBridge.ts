// The webview end of the trajectory protocol: posts typed messages, matches answers to requests by
// id, and hands pushed messages (state, update, streaming, notice) to listeners.
import {
  INITIAL_STATE_ID,
  TRAJECTORY_PROTOCOL_VERSION,
  type HostToWebview,
  type MessageOf,
  type WebviewToHost,
} from '../../src/shared/trajectoryProtocol';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Answer = Extract<HostToWebview, { requestId: number }>;
type Pushed = Exclude<HostToWebview, { requestId: number }>;
type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<Extract<WebviewToHost, { requestId: number }>, 'requestId'>;

function readEmbeddedState(page: Pick<Document, 'getElementById'>): { stamp: number; state: HostToWebview } | undefined {
  const block = page.getElementById(INITIAL_STATE_ID);
  const stamp = Number(block?.dataset.stamp);
  if (!block?.textContent || !Number.isInteger(stamp) || stamp < 0) return undefined;
  try {
    const state = JSON.parse(block.textContent) as HostToWebview;
    return state?.type === 'state' ? { stamp, state } : undefined;
  } catch {
    return undefined;
  } finally {
    // The text can be large; the page has no further use for it.
    block.remove();
  }
}

export class RequestFailedError extends Error {
  constructor(readonly request: Request, message: string) {
    super(message);
    this.name = 'RequestFailedError';
  }
}

export class HostBridge {
  private nextId = 1;
  private readonly pending = new Map<number, { request: Request; resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Array<(m: Pushed) => void>>();

  constructor(readonly api: VsCodeApi, target: Pick<Window, 'addEventListener'>) {
    target.addEventListener('message', (event) => this.receive((event as MessageEvent).data as HostToWebview));
  }

  static acquire(): HostBridge {
    return new HostBridge(acquireVsCodeApi(), window);
  }

  /**
   * Says `ready` with the stamp of the state the page carries, so the host sends the state again only
   * if the run changed meanwhile, then renders that state. A missing or unreadable block just means the
   * host's answer to `ready` brings the state.
   */
  ready(page: Pick<Document, 'getElementById'> = document): void {
    const embedded = readEmbeddedState(page);
    // `ready` goes first: rendering the state makes requests (the rest of the outline), and the
    // host answers requests only after the handshake.
    this.post({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, ...(embedded ? { embedded: embedded.stamp } : {}) });
    if (embedded) this.receive(embedded.state);
  }

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  on<T extends Pushed['type']>(type: T, listener: (message: MessageOf<Pushed, T>) => void): void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener as (m: Pushed) => void);
    this.listeners.set(type, list);
  }

  request<R extends Request>(request: R): Promise<Answer> {
    const requestId = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(requestId, { request, resolve, reject });
      this.post({ ...request, requestId } as WebviewToHost);
    });
  }

  private receive(message: HostToWebview): void {
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') return;
    if ('requestId' in message) {
      const waiting = this.pending.get(message.requestId);
      if (!waiting) return;
      this.pending.delete(message.requestId);
      if (message.type === 'requestFailed') waiting.reject(new RequestFailedError(waiting.request, message.message));
      else waiting.resolve(message);
      return;
    }
    for (const listener of this.listeners.get(message.type) ?? []) listener(message);
  }
}
