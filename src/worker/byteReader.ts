// Reads exact-length frames from a byte stream (the context pipe). Chunks that arrive before a frame is
// requested are queued; each frame lands in its own ArrayBuffer so it can be transferred to the worker.
import type { Readable } from 'node:stream';

interface ByteReader {
  read(length: number): Promise<Uint8Array>;
}

export function createByteReader(stream: Readable): ByteReader {
  const queued: Buffer[] = [];
  let queuedBytes = 0;
  let ended: Error | undefined;
  const waiters: Array<{ length: number; resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void }> = [];

  const drain = (): void => {
    while (waiters.length > 0) {
      const head = waiters[0]!;
      if (queuedBytes < head.length) {
        if (ended) {
          waiters.shift();
          head.reject(ended);
          continue;
        }
        return;
      }
      waiters.shift();
      const out = new Uint8Array(head.length);
      let filled = 0;
      while (filled < head.length) {
        const chunk = queued[0]!;
        const take = Math.min(chunk.length, head.length - filled);
        out.set(chunk.subarray(0, take), filled);
        filled += take;
        if (take === chunk.length) queued.shift();
        else queued[0] = chunk.subarray(take);
      }
      queuedBytes -= head.length;
      head.resolve(out);
    }
  };

  stream.on('data', (chunk: Buffer) => {
    queued.push(chunk);
    queuedBytes += chunk.length;
    drain();
  });
  const finish = (err?: Error): void => {
    ended = err ?? new Error('the context pipe closed before all bytes arrived');
    drain();
  };
  stream.on('end', () => finish());
  stream.on('error', (err) => finish(err));

  return {
    read(length: number): Promise<Uint8Array> {
      return new Promise((resolve, reject) => {
        waiters.push({ length, resolve, reject });
        drain();
      });
    },
  };
}
