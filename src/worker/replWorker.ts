// Entry of the Pyodide worker thread inside the forked REPL process. It runs one cell at a time; while a
// cell runs, this thread's event loop is blocked, so interrupts and bridge replies reach it only through
// shared memory (see syncHost.ts), never through messages.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { BoundSummary, ChildToWorker, ReadyInfo, WorkerBootData, WorkerCellResult, WorkerToChild } from '../core/repl/replProtocol';
import { bootPyodide, disableChildProcesses, shimProcessBinding } from './pyodideBoot';
import { fdFrameIo, probeBridgePipe } from './bridgePipeSync';
import { createSyncHost } from './syncHost';

if (!parentPort) throw new Error('replWorker must run as a worker thread');
const port = parentPort;
const boot = workerData as WorkerBootData & { bridgePort: MessagePort };
let outputsPosted = 0;
const post = (message: WorkerToChild): void => {
  if (message.type === 'output') outputsPosted++;
  port.postMessage(message);
};

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

function fatalReason(err: unknown): 'out-of-memory' | 'crash' {
  const text = describe(err);
  return /out of memory|OOM|Cannot enlarge memory|Array buffer allocation failed|RangeError: .*[Mm]emory/.test(text) ? 'out-of-memory' : 'crash';
}

async function main(): Promise<void> {
  shimProcessBinding();
  disableChildProcesses();
  const started = performance.now();
  const interruptState = new Int32Array(boot.interruptBuffer);
  const bridgeState = new Int32Array(boot.bridgeBuffer);
  const stray = { stdout: '', stderr: '' };
  // The child's main thread reads the snapshot while this thread starts, and sends it as the first message.
  const snapshot = boot.config.snapshotPath
    ? new Promise<Uint8Array>((resolve, reject) => {
        port.once('message', (m: ChildToWorker) => {
          if (m.type === 'snapshotBytes' && m.buffer) resolve(new Uint8Array(m.buffer));
          else reject(new Error(`could not read the snapshot: ${m.type === 'snapshotBytes' ? m.error : `unexpected ${m.type} message`}`));
        });
      })
    : undefined;
  snapshot?.catch(() => undefined); // a version mismatch skips the snapshot before awaiting it
  const booted = await bootPyodide({
    config: boot.config,
    snapshotBytes: snapshot && (() => snapshot),
    onStray: (stream, text) => {
      // Output written past our capture (e.g. after `sys.stdout = sys.__stdout__`) still reaches the host.
      post({ type: 'output', stream, text });
      if (stray[stream].length < boot.config.captureMaxChars) stray[stream] += text;
    },
  });
  const { pyodide, api } = booted;
  pyodide.setInterruptBuffer(interruptState);
  const pipe = boot.bridgeFd === undefined ? undefined : fdFrameIo(boot.bridgeFd);
  const pipeProblem = pipe ? probeBridgePipe(pipe) : 'the session asked for the relay';
  const relay = { post, bridgePort: boot.bridgePort, bridgeState };
  api.attach(createSyncHost({ post, outputsPosted: () => outputsPosted, interruptState, pipe: pipeProblem ? undefined : pipe, relay }), boot.config.captureMaxChars);
  // A cold load warmed the cell path while building the prelude; after a restore, run it once in this
  // process too, so the first real cell does not pay for cold code paths.
  if (booted.loadMode === 'snapshot') api.warm();

  if (booted.snapshot) post({ type: 'snapshot', bytes: booted.snapshot, key: booted.snapshotKey });
  const info: ReadyInfo = {
    loadMode: booted.loadMode,
    loadMs: performance.now() - started,
    pyodideVersion: booted.version,
    snapshotKey: booted.snapshotKey,
    snapshotError: booted.snapshotError,
    permissionModel: boot.permissionModel,
    jsGlobalsRestricted: booted.jsGlobalsRestricted,
    pyodideJsUnregistered: booted.pyodideJsUnregistered,
    networkApisRemoved: booted.networkApisRemoved,
    codeGenerationFromStringsDisallowed: boot.codeGenerationFromStringsDisallowed,
    bridgeTransport: pipeProblem ? 'relay' : 'pipe',
    notes: pipeProblem ? [...booted.notes, `sub-calls are relayed through the REPL process (slower): ${pipeProblem}`] : booted.notes,
  };
  // Let anything Pyodide queued during start-up run now, so that `ready` means the first cell starts
  // at once (this was ~0.1 s of background wasm compilation before compileWasmSynchronously).
  await new Promise((resolve) => setTimeout(resolve, 0));
  info.loadMs = performance.now() - started;
  post({ type: 'ready', info });

  port.on('message', (message: ChildToWorker) => {
    if (message.type === 'bind') {
      try {
        const summary = JSON.parse(api.bind(new Uint8Array(message.buffer), JSON.stringify(message.layout))) as BoundSummary;
        post({ type: 'bound', id: message.id, summary });
      } catch (err) {
        post({ type: 'bindFailed', id: message.id, errorType: /MemoryError|OverflowError/.test(describe(err)) ? 'MemoryError' : 'BindError', message: describe(err) });
      }
      return;
    }
    if (message.type === 'reset') {
      try {
        api.reset();
        post({ type: 'resetDone', id: message.id });
      } catch (err) {
        post({ type: 'resetFailed', id: message.id, message: describe(err) });
      }
      return;
    }
    if (message.type === 'snapshotBytes') return; // consumed during start-up
    stray.stdout = '';
    stray.stderr = '';
    let result: WorkerCellResult;
    try {
      result = JSON.parse(api.run_cell(message.code)) as WorkerCellResult;
    } catch (err) {
      if (!(err instanceof Error && (err.name === 'PythonError' || err.constructor.name === 'PythonError'))) throw err;
      // An interrupt that landed while the runner itself was finishing: report it, restore the namespace.
      api.recover();
      result = {
        stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: -1, interrupted: true,
        error: { type: 'Interrupted', message: 'interrupted while the cell was finishing', traceback: '' },
      };
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      if (!stray[stream]) continue;
      result[stream] = (result[stream] + stray[stream]).slice(0, boot.config.captureMaxChars);
      result[`${stream}Chars`] += stray[stream].length;
    }
    post({ type: 'result', id: message.id, result });
  });
}

process.on('uncaughtException', (err) => {
  post({ type: 'fatal', reason: fatalReason(err), message: describe(err) });
  process.exit(1);
});

main().catch((err: unknown) => {
  post({ type: 'fatal', reason: 'start-failed', message: describe(err) });
  process.exit(1);
});
