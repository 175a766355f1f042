// The host's requests to the REPL child outside cells, each answered by one reply with the same id:
// binding `context` (bytes on the pipe), with a time limit. All pending requests
// fail at once when the process dies, so no caller waits on a dead process.
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import { buildMetadata } from './contextEncoding';
import { checkContext, streamContext } from './contextStream';
import type { StreamedContext } from './contextStream';
import { ContextBindError, ReplHungError } from './replErrors';
import type { ReplChild } from './replChild';
import type { BoundSummary, ChildToHost } from './replProtocol';

class PendingReplies<T> {
  private readonly waiting = new Map<number, { resolve(value: T): void; reject(error: Error): void }>();

  /** The promise for request `id`; register it before sending the request. */
  expect(id: number): Promise<T> {
    const reply = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    reply.catch(() => undefined); // awaited by the caller; this only stops an early rejection counting as unhandled
    return reply;
  }

  settle(id: number, outcome: { value: T } | { error: Error }): void {
    const pending = this.waiting.get(id);
    this.waiting.delete(id);
    if ('error' in outcome) pending?.reject(outcome.error);
    else pending?.resolve(outcome.value);
  }

  rejectAll(error: Error): void {
    for (const pending of this.waiting.values()) pending.reject(error);
    this.waiting.clear();
  }
}

/** Binding gets this long, plus BIND_MS_PER_MB for each MB: decoding 200 MB takes about a second here. */
export const BIND_BASE_MS = 30_000;
export const BIND_MS_PER_MB = 200;

export class ChildRequests {
  private nextId = 0;
  private readonly binds = new PendingReplies<BoundSummary>();

  /** Settles the request a reply answers; false when the message is not such a reply. */
  handle(message: ChildToHost): boolean {
    switch (message.type) {
      case 'bound':
        this.binds.settle(message.id, { value: message.summary });
        return true;
      case 'bindFailed':
        this.binds.settle(message.id, { error: new ContextBindError(`binding context failed in Python: ${message.message}`, message.errorType, 0) });
        return true;
      default:
        return false;
    }
  }

  /**
   * Streams `context` into the REPL and waits until Python has decoded it. A process that does not
   * answer within the limit (counted from the start, and grown by the bytes announced as they are sent)
   * is killed (the session replaces it on next use) and this throws ReplHungError. A read error while
   * streaming aborts the bind in the REPL and is thrown as it is.
   */
  async bind(child: ReplChild, source: ContextSource, limitBytes: number, baseMs = BIND_BASE_MS, signal?: AbortSignal): Promise<ContextMetadata> {
    checkContext(source, limitBytes);
    const id = ++this.nextId;
    const summary = this.binds.expect(id);
    let timer: NodeJS.Timeout | undefined;
    let rejectHung: (error: Error) => void = () => undefined;
    const hung = new Promise<never>((_, reject) => (rejectHung = reject));
    hung.catch(() => undefined);
    let sent = 0;
    const arm = (): void => {
      clearTimeout(timer);
      const limitMs = baseMs + Math.ceil(sent / (1024 * 1024)) * BIND_MS_PER_MB;
      timer = setTimeout(() => {
        const error = new ReplHungError('bind', limitMs);
        this.binds.settle(id, { error });
        child.kill();
        rejectHung(error);
      }, limitMs);
    };
    let streamed: StreamedContext | undefined;
    try {
      arm();
      child.send({ type: 'bind', id });
      const sink = {
        write: async (chunk: Uint8Array): Promise<void> => {
          sent += chunk.byteLength;
          await child.writeContext(chunk);
          arm();
        },
      };
      streamed = await Promise.race([streamContext(source, sink, limitBytes, signal), hung]);
      const reply = await Promise.race([summary, hung]);
      if (reply.aborted) throw new ContextBindError('the bind was aborted', 'Aborted', streamed.byteLength);
      return buildMetadata(streamed, reply);
    } catch (err) {
      if (err instanceof ContextBindError) throw new ContextBindError(err.message, err.pythonError, streamed?.byteLength ?? sent);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  failAll(error: Error): void {
    this.binds.rejectAll(error);
  }
}
