// Frees a large buffer now rather than at the next garbage collection. A REPL that only runs Python
// allocates almost nothing on its JS heap, so that collection may not come for the session's whole life,
// and the snapshot's bytes (tens of MB, already copied into Pyodide's memory) would stay resident.

import { MessageChannel } from 'node:worker_threads';

/** Moves the bytes into a message on a channel that is closed at once, which drops them; `bytes` is detached after. */
export function releaseNow(bytes: Uint8Array | undefined): void {
  if (!bytes || bytes.buffer.byteLength === 0 || bytes.buffer instanceof SharedArrayBuffer) return;
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, [bytes.buffer]);
  port1.close();
  port2.close();
}
