// The REPL process's end of the control channel to the host (fd CHANNEL_FD): length-prefixed JSON
// frames both ways (src/core/repl/frameCodec.ts), in place of Node's IPC channel. The memory snapshot
// travels as an announcement followed by one raw frame of its bytes, so it is never turned into text.
import { Socket } from 'node:net';
import { encodeFrame, encodeRawFrame, FrameReader, parseJsonBody } from '../core/repl/frameCodec';
import type { WireChildToHost } from '../core/repl/childMessages';
import type { ChildToHost, HostToChild } from '../core/repl/replProtocol';

/** Host -> child frames: `exec` carries a cell's code, which the host bounds long before this. */
const MAX_HOST_FRAME_BYTES = 1024 * 1024 * 1024;

interface HostChannel {
  send(message: ChildToHost): void;
}

/**
 * Opens the channel on `fd`. `closed` runs when the host's end goes away (the host owns our lifetime)
 * or sends something unreadable (then nothing it sends can be trusted to be in order).
 */
export function openHostChannel(fd: number, onMessage: (message: HostToChild) => void, closed: (why: string) => void): HostChannel {
  const socket = new Socket({ fd, readable: true, writable: true });
  const reader = new FrameReader('host channel', () => MAX_HOST_FRAME_BYTES);
  socket.on('data', (chunk: Buffer) => {
    try {
      reader.push(chunk, (body) => onMessage(parseJsonBody('host channel', body) as HostToChild));
    } catch (error) {
      closed(error instanceof Error ? error.message : String(error));
    }
  });
  socket.on('end', () => closed('the host closed the channel'));
  socket.on('close', () => closed('the host closed the channel'));
  socket.on('error', () => closed('the channel failed'));
  return {
    send(message) {
      if (socket.destroyed) return;
      if (message.type === 'snapshot') {
        socket.write(encodeFrame({ type: 'snapshot', key: message.key, byteLength: message.bytes.byteLength } satisfies WireChildToHost));
        for (const part of encodeRawFrame(message.bytes)) socket.write(part);
        return;
      }
      socket.write(encodeFrame(message));
    },
  };
}
