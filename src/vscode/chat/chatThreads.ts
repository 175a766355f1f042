// Chat threads of `@rlm` and their conversations: a follow-up in the same thread continues the same
// Conversation (earlier answers as prior turns, and the same warm REPL when the target is unchanged).
// VS Code gives no thread id, so each answer carries a key in its result metadata, and the next
// request finds it in the thread's history. No `vscode` import.
import { randomUUID } from 'node:crypto';
import type { Conversation } from '../run/conversation';

/** Threads whose REPL stays warm; the least recently used one is ended past this. */
const MAX_LIVE_THREADS = 4;

export class ChatThreads {
  private readonly threads = new Map<string, Conversation>();

  constructor(
    private readonly create: () => Conversation,
    private readonly newKey: () => string = randomUUID,
  ) {}

  /** The thread's conversation, or a new thread when the key is unknown (a new chat, or one evicted). */
  open(key: string | undefined): { key: string; conversation: Conversation } {
    const known = key !== undefined ? this.threads.get(key) : undefined;
    if (key !== undefined && known) {
      // Re-inserting keeps the map in least-recently-used order.
      this.threads.delete(key);
      this.threads.set(key, known);
      return { key, conversation: known };
    }
    const fresh = { key: this.newKey(), conversation: this.create() };
    this.threads.set(fresh.key, fresh.conversation);
    while (this.threads.size > MAX_LIVE_THREADS) {
      const oldest = this.threads.keys().next().value;
      if (oldest === undefined) break;
      const conversation = this.threads.get(oldest);
      this.threads.delete(oldest);
      void conversation?.end();
    }
    return fresh;
  }

  get size(): number {
    return this.threads.size;
  }

  async dispose(): Promise<void> {
    const all = [...this.threads.values()];
    this.threads.clear();
    await Promise.all(all.map((c) => c.end()));
  }
}

/** The thread key an earlier `@rlm` answer left in its result metadata, newest first. */
export function threadKeyFromHistory(history: ReadonlyArray<{ result?: { metadata?: unknown } }>): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const metadata = history[i]?.result?.metadata as { rlmThread?: unknown } | undefined;
    if (typeof metadata?.rlmThread === 'string') return metadata.rlmThread;
  }
  return undefined;
}
