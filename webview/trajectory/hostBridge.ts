// The webview end of the trajectory protocol: posts typed messages, matches answers to requests by
// id, and hands pushed messages (state, update, streaming, notice) to listeners.
import {
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

  ready(): void {
    this.post({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
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
