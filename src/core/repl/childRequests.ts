// The host's requests to the REPL child outside cells, each answered by one reply with the same id:
// binding `context` (bytes on the pipe) and resetting the namespace between runs. All pending requests
// fail at once when the process dies, so no caller waits on a dead process.
import type { ContextMetadata } from '../context/contextTypes';
import { buildMetadata } from './contextEncoding';
import type { EncodedContext } from './contextEncoding';
import { ContextBindError, ReplResetError } from './replErrors';
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

export class ChildRequests {
  private nextId = 0;
  private readonly binds = new PendingReplies<BoundSummary>();
  private readonly resets = new PendingReplies<void>();

  /** Settles the request a reply answers; false when the message is not such a reply. */
  handle(message: ChildToHost): boolean {
    switch (message.type) {
      case 'bound':
        this.binds.settle(message.id, { value: message.summary });
        return true;
      case 'bindFailed':
        this.binds.settle(message.id, { error: new ContextBindError(`binding context failed in Python: ${message.message}`, message.errorType, 0) });
        return true;
      case 'resetDone':
        this.resets.settle(message.id, { value: undefined });
        return true;
      case 'resetFailed':
        this.resets.settle(message.id, { error: new ReplResetError('python-error', message.message) });
        return true;
      default:
        return false;
    }
  }

  /** Sends `context` and waits until Python has decoded it (after clearing the namespace). */
  async bind(child: ReplChild, encoded: EncodedContext): Promise<ContextMetadata> {
    const id = ++this.nextId;
    const summary = this.binds.expect(id);
    child.send({ type: 'bind', id, layout: encoded.layout, byteLength: encoded.byteLength });
    await child.writeContext(encoded.chunks);
    try {
      return buildMetadata(encoded, await summary);
    } catch (err) {
      if (err instanceof ContextBindError) throw new ContextBindError(err.message, err.pythonError, encoded.byteLength);
      throw err;
    }
  }

  /**
   * Clears the namespace. A reset is a dict sweep, so only a wedged process takes `limitMs`: then the
   * process is killed (the session sees it exit, and replaces it on next use) and this throws
   * ReplResetError('timeout').
   */
  async reset(child: ReplChild, limitMs: number): Promise<void> {
    const id = ++this.nextId;
    const done = this.resets.expect(id);
    child.send({ type: 'reset', id });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ReplResetError('timeout', `no reply within ${limitMs} ms`);
        this.resets.settle(id, { error });
        child.kill();
        reject(error);
      }, limitMs);
    });
    try {
      await Promise.race([done, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  failAll(error: Error): void {
    this.binds.rejectAll(error);
    this.resets.rejectAll(error);
  }
}
