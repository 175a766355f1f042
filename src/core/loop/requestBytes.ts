// The size of a root request's messages, as recorded in each model.output (requestBytes): the UTF-8
// length of the history as JSON. The history only grows, so each message's size is kept with it and
// a turn measures only what is new or changed, instead of serialising the whole conversation again.
import type { ChatMessage } from '../models/modelTypes';

interface Measured {
  role: string;
  content: string;
  bytes: number;
}

const measured = new WeakMap<ChatMessage, Measured>();

/** Buffer.byteLength(JSON.stringify(history)), from each message's remembered size where it is unchanged. */
export function historyBytes(history: readonly ChatMessage[]): number {
  // "[" and "]", and a comma between messages.
  let total = 2 + Math.max(0, history.length - 1);
  for (const message of history) {
    let known = measured.get(message);
    // A message may be edited in place (the last turn's note is added to the observation before it).
    if (!known || known.content !== message.content || known.role !== message.role || Object.keys(message).length !== 2) {
      known = { role: message.role, content: message.content, bytes: Buffer.byteLength(JSON.stringify(message)) };
      measured.set(message, known);
    }
    total += known.bytes;
  }
  return total;
}
