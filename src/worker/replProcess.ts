// Entry of the REPL child process. Its main thread never runs Python: it probes the network (layer 3),
// starts the Pyodide worker thread, relays messages between it and the host (the control channel on
// fd 5, length-prefixed JSON frames: hostChannel.ts), owns the shared words
// the worker parks on, and writes interrupts into Pyodide's interrupt buffer directly, which works even
// while a cell blocks the worker. Bridge calls normally bypass it (worker <-> host on fd 4); it relays
// them only when that pipe is unusable. `context` bytes arrive on a raw pipe (fd 3) rather than the channel.
// It also caps what it relays: whatever the worker posts, the host gets at most the capture limit of
// output per cell, so a worker that escaped the prelude still cannot flood the host.
import { readFile } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { BridgeReply, ChildToHost, ChildToWorker, HostToChild, ReadyInfo, WorkerBootData, WorkerToChild } from '../core/repl/replProtocol';
import { BRIDGE_CANCELLED, BRIDGE_PIPE_FD, BRIDGE_REPLIED, CHANNEL_FD, CONTEXT_PIPE_FD, SIGINT } from '../core/repl/replProtocol';
import type { SandboxProbe } from '../core/repl/replTypes';
import { relayContext } from './contextRelay';
import { openHostChannel } from './hostChannel';
import { probeNetwork } from './networkProbe';
import { DEFAULT_REPL_MEMORY_MB } from './memoryCap';
import { hardRssBound, watchRss } from './rssWatch';
import { freezeStackTraceApi } from './runtimeLockdown';

/** The one variable the launch itself sets (under Electron); anything else would be a leak. With no IPC channel, Node adds none. */
const NODE_VARIABLES = new Set(['ELECTRON_RUN_AS_NODE']);
/** What the worker may print on its own stdout/stderr (Pyodide's fatal errors), kept for the host's log. */
const WORKER_STDIO_MAX = 64 * 1024;

function processProbes(): SandboxProbe[] {
  const extra = Object.keys(process.env).filter((k) => !NODE_VARIABLES.has(k));
  let codeFromStrings: SandboxProbe;
  try {
    new Function('return 1');
    codeFromStrings = { name: 'code from strings in the REPL process', held: false, detail: 'new Function compiled' };
  } catch (error) {
    codeFromStrings = { name: 'code from strings in the REPL process', held: true, detail: (error as Error).name };
  }
  return [
    { name: 'a separate operating-system process', held: true, detail: `pid ${process.pid}, parent ${process.ppid}` },
    { name: 'empty environment (no API keys)', held: extra.length === 0, detail: extra.length ? `holds ${extra.join(', ')}` : 'only ELECTRON_RUN_AS_NODE, if anything' },
    codeFromStrings,
  ];
}

const interruptBuffer = new SharedArrayBuffer(4);
const bridgeBuffer = new SharedArrayBuffer(4);
const interruptState = new Int32Array(interruptBuffer);
const bridgeState = new Int32Array(bridgeBuffer);
const { port1: bridgeHostPort, port2: bridgeWorkerPort } = new MessageChannel();
// `onread` is a documented Socket option that this @types/node does not declare for the constructor.
const contextSocket = new Socket({
  fd: CONTEXT_PIPE_FD,
  readable: true,
  writable: false,
  // One buffer for every read; the relay copies out of it at once (see contextRelay.ts).
  onread: { buffer: Buffer.allocUnsafe(256 * 1024), callback: (bytes: number, buffer: Uint8Array) => void contextRelay.take(buffer.subarray(0, bytes)) },
} as ConstructorParameters<typeof Socket>[0]);
const contextRelay = relayContext(contextSocket, (buffer, length) => worker?.postMessage({ type: 'bindData', buffer, length } satisfies ChildToWorker, [buffer]));
let worker: Worker | undefined;
let pendingCallId: number | undefined;
let captureMaxChars = 200_000;
let relayed = { stdout: 0, stderr: 0 };
/** Layer 3's and 4's probes, run by this thread while the worker boots; `ready` waits for them. */
let extraProbes: Promise<{ networkProbes: SandboxProbe[]; processProbes: SandboxProbe[] }> = Promise.resolve({ networkProbes: [], processProbes: [] });
let readySent = false;

function fromWorker(message: WorkerToChild): void {
  // Start-up messages are believed only before the first cell could run: after `ready`, a snapshot
  // would come from a process the model's code has touched.
  if ((message.type === 'snapshot' || message.type === 'ready') && readySent) return;
  if (message.type === 'bindAck') {
    contextRelay.acknowledged(message.buffer);
    return;
  }
  if (message.type === 'bridgeCall') pendingCallId = message.callId;
  if (message.type === 'result') {
    const r = message.result;
    message = { ...message, result: { ...r, stdout: String(r.stdout).slice(0, captureMaxChars), stderr: String(r.stderr).slice(0, captureMaxChars) } };
  }
  if (message.type === 'output') {
    const room = captureMaxChars - relayed[message.stream];
    if (room <= 0) return;
    if (message.text.length > room) message = { ...message, text: message.text.slice(0, room) };
    relayed[message.stream] += message.text.length;
  }
  if (message.type === 'ready') {
    readySent = true;
    const worker = message.info;
    // Messages after `ready` wait behind it, so nothing overtakes it while the probes finish.
    relayQueue = relayQueue.then(() => extraProbes).then((probes) => {
      const info: ReadyInfo = { ...worker, ...probes };
      send({ type: 'ready', info });
    });
    return;
  }
  const outgoing = message;
  relayQueue = relayQueue.then(() => {
    send(outgoing);
    if (outgoing.type === 'fatal') process.exit(1);
  });
}

/** Keeps relayed messages in order behind `ready`, which may wait for this thread's own probes. */
let relayQueue: Promise<void> = Promise.resolve();

function replyToBridge(reply: BridgeReply): void {
  if (reply.callId !== pendingCallId) return; // cancelled or stale
  pendingCallId = undefined;
  bridgeHostPort.postMessage(reply);
  Atomics.store(bridgeState, 0, BRIDGE_REPLIED);
  Atomics.notify(bridgeState, 0);
}

function interrupt(): void {
  Atomics.store(interruptState, 0, SIGINT);
  Atomics.notify(interruptState, 0); // wakes an interruptible time.sleep
  if (pendingCallId !== undefined) {
    pendingCallId = undefined;
    Atomics.store(bridgeState, 0, BRIDGE_CANCELLED);
    Atomics.notify(bridgeState, 0);
  }
}

function keepTail(stream: NodeJS.ReadableStream | null, label: string): void {
  let kept = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (kept >= WORKER_STDIO_MAX) return;
    const text = chunk.toString('utf8').slice(0, WORKER_STDIO_MAX - kept);
    kept += text.length;
    process.stderr.write(`[${label}] ${text}`);
  });
}

async function start(message: Extract<HostToChild, { type: 'start' }>): Promise<void> {
  const { config } = message;
  captureMaxChars = config.captureMaxChars;
  const processed = processProbes();
  // Layer 3's probe uses this thread's network module, in parallel with the worker's boot.
  extraProbes = probeNetwork(config.canary).then((networkProbes) => ({ networkProbes, processProbes: processed }));
  freezeStackTraceApi();
  const boot: WorkerBootData & { bridgePort: typeof bridgeWorkerPort } = {
    config,
    interruptBuffer,
    bridgeBuffer,
    bridgePort: bridgeWorkerPort,
    bridgeFd: config.bridgePipe ? BRIDGE_PIPE_FD : undefined,
  };
  // The memory cap's second layer (rssWatch.ts): past the hard bound this process ends, reporting why.
  const hardBytes = hardRssBound((config.memoryCapMb ?? DEFAULT_REPL_MEMORY_MB) * 1024 * 1024);
  watchRss({
    hardBytes,
    onExceeded: (rss) => {
      send({ type: 'fatal', reason: 'out-of-memory', message: `the REPL process used ${Math.round(rss / 1048576)} MB, past its hard bound of ${Math.round(hardBytes / 1048576)} MB` });
      process.exit(1);
    },
  });
  worker = new Worker(join(__dirname, 'replWorker.js'), { workerData: boot, transferList: [bridgeWorkerPort], env: {}, stdout: true, stderr: true });
  keepTail(worker.stdout, 'worker stdout');
  keepTail(worker.stderr, 'worker stderr');
  if (config.snapshotPath) {
    // Read here, while the worker thread is still starting up, rather than in the worker after it. The
    // host opened the file for us (snapshotFd): this process has no read access to the cache folder.
    const started = worker;
    new Promise<Buffer>((resolve, reject) => readFile(config.snapshotFd ?? config.snapshotPath!, (err, data) => (err ? reject(err) : resolve(data)))).then(
      (bytes) => {
        const buffer = (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;
        started.postMessage({ type: 'snapshotBytes', buffer } satisfies ChildToWorker, [buffer]);
      },
      (err: unknown) => started.postMessage({ type: 'snapshotBytes', error: err instanceof Error ? err.message : String(err) } satisfies ChildToWorker),
    );
  }
  worker.on('message', fromWorker);
  worker.on('error', (err) => {
    const text = `${err.name}: ${err.message}`;
    send({ type: 'fatal', reason: /memory|OOM/i.test(text) ? 'out-of-memory' : 'crash', message: text });
    process.exit(1);
  });
  worker.on('exit', (code) => {
    send({ type: 'fatal', reason: 'crash', message: `the Python worker exited (code ${code})` });
    process.exit(1);
  });
}

function fromHost(message: HostToChild): void {
  switch (message.type) {
    case 'start':
      start(message).catch((err: unknown) => {
        send({ type: 'fatal', reason: 'start-failed', message: err instanceof Error ? err.message : String(err) });
        process.exit(1);
      });
      break;
    case 'bind': {
      // Binding runs Python too: an interrupt that arrived after the last cell ended must not land here.
      Atomics.store(interruptState, 0, 0);
      relayed = { stdout: 0, stderr: 0 };
      worker?.postMessage({ type: 'bindBegin', id: message.id } satisfies ChildToWorker);
      contextRelay.begin();
      break;
    }
    case 'exec':
      // Cleared here, in message order, so a late interrupt of the previous cell cannot hit this one
      // while an interrupt sent right after this exec still does.
      Atomics.store(interruptState, 0, 0);
      relayed = { stdout: 0, stderr: 0 };
      worker?.postMessage({ type: 'exec', id: message.id, code: message.code });
      break;
    case 'interrupt':
      interrupt();
      // Now a bridge call blocked on the pipe may be cancelled: the interrupt buffer is already set, so
      // the KeyboardInterrupt Python raises for the cancelled call is the only one.
      send({ type: 'interruptApplied' });
      break;
    case 'bridgeReply':
      replyToBridge({ callId: message.callId, ok: true, result: message.result });
      break;
    case 'bridgeFailed':
      replyToBridge({ callId: message.callId, ok: false, message: message.message });
      break;
  }
}

// The host owns our lifetime: when its end of the channel goes away, so do we.
const channel = openHostChannel(CHANNEL_FD, fromHost, () => process.exit(0));
function send(message: ChildToHost): void {
  channel.send(message);
}
