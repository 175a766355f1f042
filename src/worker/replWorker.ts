// Entry of the Pyodide worker thread inside the REPL process. It locks down its own runtime before
// Pyodide loads (layer 2), cuts Python off from JS after it has (layer 1), probes both, and then runs
// one cell at a time. While a cell runs this thread's event loop is blocked, so interrupts and bridge
// replies reach it only through shared memory and the bridge pipe (syncHost.ts), never as messages.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { releaseNow } from './releaseBuffer';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BoundSummary, ChildToWorker, ReadyInfo, WorkerBootData, WorkerCellResult, WorkerToChild } from '../core/repl/replProtocol';
import type { SandboxProbe } from '../core/repl/replTypes';
import { DISABLED_BUILTINS } from './builtinModules';
import { fdFrameIo, probeBridgePipe } from './bridgePipeSync';
import { trackCellTimers } from './cellTimers';
import { atomicInterruptView } from './atomicInterrupts';
import { capWasmMemory, DEFAULT_REPL_MEMORY_MB } from './memoryCap';
import { bootPyodide, pythonStrApi } from './pyodideBoot';
import { createPythonGate, deferFinalizers, isNoGilError } from './pythonGate';
import { withTypesMutable } from './typeFlags';
import { hardenPrototypes, probePrototypes } from './prototypeHardening';
import type { TypeRecord } from './typeFlags';
import type { PythonGate } from './pythonGate';
import { PythonChannel } from './pythonChannel';
import { lockDownRuntime, shimProcessBinding } from './runtimeLockdown';
import type { RuntimeLockdown } from './runtimeLockdown';
import { probeRuntime } from './runtimeProbe';
import { probePermissionModel } from './permissionProbe';
import { createSyncHost } from './syncHost';
import type { NestedRunner, SyncHostDeps } from './syncHost';
import type { ChildPreludeApi } from './preludeInstall';
import type { PyProxy } from 'pyodide/ffi';
import { TextTarget } from './textTarget';

if (!parentPort) throw new Error('replWorker must run as a worker thread');
const port = parentPort;
const boot = workerData as WorkerBootData & { bridgePort: MessagePort };
// Test-only switches exist in development builds alone: the production build compiles them out, so the
// shipped worker ignores any `weaken` it is sent (test/unit/build/testSwitches.test.ts).
const weaken = __RLM_TEST_BUILD__ ? boot.config.weaken ?? {} : {};
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

function parseProbes(json: string): SandboxProbe[] {
  return (JSON.parse(json) as Array<[string, boolean, string]>).map(([name, held, detail]) => ({ name, held, detail }));
}

const skipped = (what: string): SandboxProbe[] => [{ name: what, held: false, detail: 'weakened for a test: not applied' }];

async function main(): Promise<void> {
  const started = performance.now();
  const indexDir = boot.config.indexURL.startsWith('file:') ? fileURLToPath(boot.config.indexURL) : boot.config.indexURL;
  // Layer 2 first: nothing Pyodide or anything after it loads may reach the network.
  const lockdown: RuntimeLockdown | undefined = __RLM_TEST_BUILD__ && weaken.runtime ? undefined : lockDownRuntime({ esmHooksPath: join(__dirname, 'esmGuardHooks.mjs'), importableDir: dirname(join(indexDir, 'x')) });
  if (!lockdown) shimProcessBinding();
  const timers = trackCellTimers();
  // Before Pyodide creates its heap: a cell that allocates past the cap gets a MemoryError (memoryCap.ts).
  const memoryCap = capWasmMemory((boot.config.memoryCapMb ?? DEFAULT_REPL_MEMORY_MB) * 1024 * 1024);
  const interruptState = new Int32Array(boot.interruptBuffer);
  const bridgeState = new Int32Array(boot.bridgeBuffer);
  const pipe = boot.bridgeFd === undefined ? undefined : fdFrameIo(boot.bridgeFd);
  const pipeProblem = pipe ? probeBridgePipe(pipe) : 'the session asked for the relay';
  const relay = { post, bridgePort: boot.bridgePort, bridgeState };
  const syncDeps: SyncHostDeps = { post, outputsPosted: () => outputsPosted, interruptState, pipe: pipeProblem ? undefined : pipe, relay };
  const sync = createSyncHost(syncDeps);
  const channel = new PythonChannel({ bridge: sync.bridge, sleep: sync.sleep, output: (stream, text) => post({ type: 'output', stream, text }) }, boot.config.captureMaxChars);
  // The child's main thread reads the snapshot while this thread starts, and sends it as the first message.
  let snapshot = boot.config.snapshotPath
    ? new Promise<Uint8Array>((resolve, reject) => {
        port.once('message', (m: ChildToWorker) => {
          if (m.type === 'snapshotBytes' && m.buffer) resolve(new Uint8Array(m.buffer));
          else reject(new Error(`could not read the snapshot: ${m.type === 'snapshotBytes' ? m.error : `unexpected ${m.type} message`}`));
        });
      })
    : undefined;
  snapshot?.catch(() => undefined); // a version mismatch skips the snapshot before awaiting it
  const stray = { stdout: '', stderr: '' };
  const onStray = (stream: 'stdout' | 'stderr', text: string): void => {
    // Output written past the prelude's capture shares the cell's cap, and is added to its result.
    channel.output(stream, text);
    if (stray[stream].length < boot.config.captureMaxChars) stray[stream] += text;
  };
  const bootNotes: string[] = [];
  // Pyodide makes its finalizer registry while loading: the wrapper must be in place first (pythonGate.ts).
  const finalizers = deferFinalizers();
  const booted = await bootPyodide({ config: boot.config, channel, onStray, snapshotBytes: snapshot && (() => snapshot!) });
  // The snapshot's bytes (tens of MB) are in Pyodide's memory now: this thread's closures below must
  // not keep the file's copy alive for the session's whole life.
  // Freed when it arrives: a snapshot skipped for another build's key is not waited for.
  snapshot?.then(releaseNow, () => undefined);
  snapshot = undefined;
  const { pyodide, api } = booted;
  const gate = createPythonGate((pyodide as unknown as { _module: Parameters<typeof createPythonGate>[0] })._module, finalizers);
  finalizers.attach(gate);
  pythonGate = gate;
  // Pyodide's own read-then-clear of the buffer could wipe an interrupt written in between (atomicInterrupts.ts).
  const pyodideInterrupts = atomicInterruptView(interruptState);
  pyodide.setInterruptBuffer(pyodideInterrupts);
  const strApi = pythonStrApi(pyodide);
  // Without the C API a large text binds through a buffer as any other (twice its size at the peak).
  if (strApi) channel.useTextTarget(new TextTarget(strApi));
  else bootNotes.push('large text contexts are decoded from a buffer: this Pyodide build exports no str allocation');
  api.attach(boot.config.captureMaxChars, boot.config.outCellMaxChars, boot.config.outTotalMaxChars);
  // A cold load warmed the cell path while building the prelude; after a restore, run it once in this
  // process too, so the first real cell does not pay for cold code paths.
  if (booted.loadMode === 'snapshot') api.warm();
  if (booted.snapshot) {
    post({ type: 'snapshot', bytes: booted.snapshot, key: booted.snapshotKey });
    booted.snapshot = undefined; // copied into the message; kept here it would hold tens of MB for nothing
  }

  const notes: string[] = [...(lockdown?.problems ?? []), ...bootNotes, `Python's heap is capped at ${Math.round(memoryCap.maxBytes / 1048576)} MB (a cell past it gets a MemoryError)`];
  let pythonProbes: SandboxProbe[];
  if (__RLM_TEST_BUILD__ && weaken.python) {
    pyodide.registerJsModule('js', globalThis);
  } else {
    // Layer 1: no JS object left where Python can reach it.
    pyodide.unregisterJsModule('js');
    pyodide.unregisterJsModule('pyodide_js');
    api.lock_down();
    // Pyodide's types too: none may create or wrap a JS value (isolation.py, typeFlags.ts).
    try {
      const heap = (pyodide as unknown as { _module: { HEAPU32: Uint32Array } })._module;
      const inert = JSON.parse(withTypesMutable(heap, JSON.parse(api.type_records()) as TypeRecord[], () => api.make_types_inert())) as { types: number; stuck: string[] };
      if (inert.stuck.length) notes.push(`Pyodide's types kept: ${inert.stuck.slice(0, 5).join('; ')}`);
    } catch (err) {
      notes.push(`Pyodide's types could not be made inert: ${describe(err)}`);
    }
  }
  // From here on only what cells may use can be loaded. Layer 2's probe starts now: its import()
  // attempts are answered by Node's loader thread while this thread walks Python's object graph.
  // Tried while files can still be opened, so that only the permission model can refuse (permissionProbe.ts).
  const permissionProbes = probePermissionModel();
  lockdown?.enterCellPhase();
  const runtimeProbing = lockdown ? probeRuntime((specifier) => import(specifier)) : Promise.resolve(skipped('REPL process locked down'));
  if (__RLM_TEST_BUILD__ && weaken.python) {
    pythonProbes = skipped('Python cut off from JavaScript');
  } else {
    pythonProbes = parseProbes(api.probe(JSON.stringify(DISABLED_BUILTINS)));
    if (!pythonProbes[0]?.held) {
      // Something this Pyodide build holds that the known list missed: search for it, and probe again.
      const cut = JSON.parse(api.cut_generic()) as { cut: number; stuck: string[] };
      notes.push(`the quick cut missed ${cut.cut} JS value(s); the full search removed them${cut.stuck.length ? `, except in ${cut.stuck.join(', ')}` : ''}`);
      pythonProbes = parseProbes(api.probe(JSON.stringify(DISABLED_BUILTINS)));
    }
    if (booted.builtinPatch?.absent.length) notes.push(`not built into this Pyodide: ${booted.builtinPatch.absent.join(', ')}`);
  }
  const runtimeProbes = await runtimeProbing;
  if (!weaken.python) {
    // Last, once Pyodide and the probes have made every object they keep (prototypeHardening.ts).
    hardenPrototypes();
    pythonProbes.push(...probePrototypes());
  }

  const info: ReadyInfo = {
    loadMode: booted.loadMode,
    loadMs: performance.now() - started,
    pyodideVersion: booted.version,
    snapshotKey: booted.snapshotKey,
    snapshotError: booted.snapshotError,
    bridgeTransport: pipeProblem ? 'relay' : 'pipe',
    pythonProbes,
    runtimeProbes,
    permissionProbes,
    networkProbes: [],
    processProbes: [],
    notes: pipeProblem ? [...notes, `sub-calls are relayed through the REPL process (slower): ${pipeProblem}`] : notes,
  };
  // Let anything Pyodide queued during start-up run now, so that `ready` means the first cell starts at once.
  await new Promise((resolve) => setTimeout(resolve, 0));
  info.loadMs = performance.now() - started;
  post({ type: 'ready', info });

  /** The bind in progress; after a failure its remaining data is dropped (the host replaces this process). */
  let binding: { id: number; failed: boolean } | undefined;
  const failBind = (err: unknown): void => {
    if (!binding) return;
    binding.failed = true;
    channel.discardText();
    timers.end();
    post({ type: 'bindFailed', id: binding.id, errorType: /MemoryError|OverflowError/.test(describe(err)) ? 'MemoryError' : 'BindError', message: describe(err) });
  };

  /**
   * The hot paths of a first cell (cell_runner.py, hot_path_steps) are warmed in steps of a few ms while the
   * REPL waits: before a bind, and after it until the first cell. The event loop turns between steps, so
   * a message waits at most one step; a bind pauses the warm-up and the first cell ends it. Interrupts go
   * to a spare buffer during a step: one meant for a cell queued behind it is left for that cell.
   */
  const warmUp = { scheduled: false, finished: false };
  const idleInterrupts = new Int32Array(new SharedArrayBuffer(4));
  const warmSoon = (): void => {
    if (warmUp.scheduled || warmUp.finished) return;
    warmUp.scheduled = true;
    setTimeout(() => {
      warmUp.scheduled = false;
      if (warmUp.finished || binding) return;
      gate.run(() => {
        pyodide.setInterruptBuffer(idleInterrupts);
        try {
          warmUp.finished = !api.warm_paths();
        } catch {
          warmUp.finished = true; // a failed warm-up only leaves the first cell slower
        } finally {
          pyodide.setInterruptBuffer(pyodideInterrupts);
        }
      });
      warmSoon();
    }, 0);
  };
  warmSoon();

  /** One piece of a bind through the prelude, answering its requests for a text target (textTarget.ts). */
  const feed = (bytes: number): string => {
    let reply = api.bind_feed(bytes);
    for (;;) {
      channel.settleText();
      if (reply === '+') {
        channel.adoptText((text) => api.bind_adopt(text));
        reply = api.bind_feed(channel.contextLeft());
      } else if (/^N\d+$/.test(reply)) {
        reply = api.bind_feed(channel.contextLeft(), channel.openText(Number(reply.slice(1))));
      } else {
        return reply;
      }
    }
  };

  /** Runs one cell on the run's API or a nested child's; an interrupt that escaped the runner is reported. */
  const runCellOn = (target: ChildPreludeApi, code: string): WorkerCellResult => {
    try {
      return JSON.parse(target.run_cell(code)) as WorkerCellResult;
    } catch (err) {
      if (!(err instanceof Error && (err.name === 'PythonError' || err.constructor.name === 'PythonError'))) throw err;
      // An interrupt that landed while the runner itself was finishing: report it, restore the namespace.
      target.recover();
      return {
        stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: -1, interrupted: true,
        error: { type: 'Interrupted', message: 'interrupted while the cell was finishing', traceback: '' },
      };
    }
  };
  /** Python's own counts can be forged by the cell; the device's are not, and bound what the host gets. */
  const capResult = (result: WorkerCellResult): WorkerCellResult => {
    const cap = boot.config.captureMaxChars;
    result.stdout = result.stdout.slice(0, cap);
    result.stderr = result.stderr.slice(0, cap);
    return result;
  };

  /** Child runs nested in this interpreter, by instance (issue 33): ops come over the bridge pipe only. */
  const children = new Map<number, { api: PyProxy & ChildPreludeApi; callId: number }>();
  const closeChild = (n: number): void => {
    const child = children.get(n);
    children.delete(n);
    api.close_child(n);
    child?.api.destroy();
  };
  const run: NestedRunner['run'] = (callId, op, output) => {
    const { child: n } = op;
    if (op.op === 'close') {
      closeChild(n);
      return { child: n, op: 'close' };
    }
    if (op.op === 'bind') {
      try {
        let child = children.get(n)?.api;
        if (!child) children.set(n, { api: (child = api.open_child(n)), callId });
        const bytes = Buffer.from(op.frames, 'base64');
        channel.offerContext(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        child.bind_begin();
        // No text target: it may be settled only while no Python runs, and the parent's cell is running.
        let reply = child.bind_feed(bytes.byteLength);
        while (/^N\d+$/.test(reply)) reply = child.bind_feed(channel.contextLeft(), false);
        if (!reply) throw new Error('the context frames ended before their end mark');
        return { child: n, op: 'bind', summary: JSON.parse(reply) as BoundSummary };
      } catch (err) {
        return { child: n, op: 'bind', failed: { errorType: /MemoryError|OverflowError/.test(describe(err)) ? 'MemoryError' : 'BindError', message: describe(err) } };
      } finally {
        channel.offerContext(new Uint8Array(0));
      }
    }
    const child = children.get(n)?.api;
    if (!child) {
      const error = { type: 'ReplError', message: `no child run ${n} is open in this REPL`, traceback: '' };
      return { child: n, op: 'exec', result: { stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: -1, interrupted: false, error } };
    }
    const leave = channel.enterNested(output);
    try {
      return { child: n, op: 'exec', result: capResult(runCellOn(child, op.code)) };
    } finally {
      leave();
      // An interrupt meant for this child's cell that came as it ended must not land in the parent's
      // cell: the parent's own interrupts reach it by cancelling its blocked call instead.
      Atomics.store(interruptState, 0, 0);
    }
  };
  // A child left open when its parent's call ends (cancelled, or a host that did not close it) goes with it.
  const end: NestedRunner['end'] = (callId) => {
    for (const [n, child] of children) {
      if (child.callId !== callId) continue;
      try {
        closeChild(n);
      } catch {
        children.delete(n); // its namespace goes with the process; the parent's call must still return
      }
    }
  };
  // Ops come while a cell is blocked in the device's write, which CPython made without the GIL.
  if (syncDeps.pipe) syncDeps.nested = { run: (callId, op, output) => gate.nested(() => run(callId, op, output)), end: (callId) => gate.nested(() => end(callId)) };

  port.on('message', (message: ChildToWorker) => gate.run(() => onMessage(message)));
  // From here on Python runs only inside gate.run(): a cell, a bind, the warm-up.
  if (!weaken.betweenCells) gate.close();

  function onMessage(message: ChildToWorker): void {
    if (message.type === 'bindBegin') {
      binding = { id: message.id, failed: false };
      channel.discardText();
      channel.beginCell();
      try {
        api.bind_begin();
      } catch (err) {
        failBind(err);
      }
      return;
    }
    if (message.type === 'bindData') {
      // Each piece is acknowledged, taken or not, so the REPL process's flow control never stalls.
      const bytes = message.length;
      const current = binding;
      if (current && !current.failed) {
        try {
          channel.offerContext(new Uint8Array(message.buffer, 0, bytes));
          const reply = feed(bytes);
          if (reply) {
            binding = undefined;
            timers.end();
            post({ type: 'bound', id: current.id, summary: JSON.parse(reply) as BoundSummary });
            warmSoon();
          }
        } catch (err) {
          failBind(err);
        } finally {
          channel.settleText();
          channel.offerContext(new Uint8Array(0));
        }
      }
      // The piece goes back to be filled again: the process allocates a handful of them, not one per MB.
      port.postMessage({ type: 'bindAck', buffer: message.buffer } satisfies WorkerToChild, [message.buffer]);
      return;
    }
    if (message.type === 'snapshotBytes') return; // consumed during start-up
    warmUp.finished = true;
    channel.beginCell();
    timers.begin();
    stray.stdout = '';
    stray.stderr = '';
    const result = runCellOn(api, message.code);
    const cleared = timers.end();
    if (cleared) result.timersCleared = cleared;
    for (const stream of ['stdout', 'stderr'] as const) {
      if (!stray[stream]) continue;
      result[stream] += stray[stream];
      result[`${stream}Chars`] += stray[stream].length;
    }
    post({ type: 'result', id: message.id, result: capResult(result) });
  }
}

let pythonGate: PythonGate | undefined;

process.on('uncaughtException', (err) => {
  // JS armed by a cell tried to enter Python after it ended, and Pyodide refused (pythonGate.ts): the
  // attempt is over and nothing ran, so the REPL goes on.
  if (pythonGate && !pythonGate.isOpen && isNoGilError(err)) return;
  post({ type: 'fatal', reason: fatalReason(err), message: describe(err) });
  process.exit(1);
});

main().catch((err: unknown) => {
  post({ type: 'fatal', reason: 'start-failed', message: describe(err) });
  process.exit(1);
});

