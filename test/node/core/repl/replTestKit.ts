// Shared set-up for the REPL tests: they run the real built bundles (run `npm run build` first; a missing
// bundle fails the session start with a ReplStartError that says so).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createReplSession } from '../../../../src/core/repl/replSession';
import type { ReplSessionOptions } from '../../../../src/core/repl/replSession';
import type { BridgeCall, BridgeHandler, ReplSession } from '../../../../src/core/repl/replTypes';

function findRepoRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'esbuild.mjs'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRepoRoot(resolve(__dirname));
const distDir = join(repoRoot, 'dist');
/** Shared by every REPL test file so that only the first start of a run is cold. */
const testSnapshotDir = join(tmpdir(), 'rlm-repl-test-snapshots');

/** A bridge that answers "echo:<prompt>" and records every call. */
export function recordingBridge(): { handler: BridgeHandler; calls: BridgeCall[] } {
  const calls: BridgeCall[] = [];
  return {
    calls,
    handler: async (call) => {
      calls.push(call);
      return call.prompts.map((p) => `echo:${p}`);
    },
  };
}

/** The REPL processes this test process started (each session forks one), by pid. */
export function replChildPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes('replProcess.js'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export async function startSession(options: Partial<ReplSessionOptions> & { bridge?: BridgeHandler } = {}): Promise<ReplSession> {
  return createReplSession({ distDir, snapshotCacheDir: testSnapshotDir, bridge: options.bridge ?? recordingBridge().handler, ...options });
}

/**
 * Python for a cell: walks the whole object graph, breadth first, from every object the collector
 * tracks, sys.modules and the builtins, through every referent (untracked tuples and JsProxies
 * included), and prints how many objects are JS-backed (their class derives from Pyodide's JsProxy or
 * JsException). Slow (seconds), so only tests use it; the REPL's own probe walks types at C speed.
 */
export const FULL_GRAPH_WALK = `
def _rlm_walk():
    import gc, sys, builtins
    def js_backed(t):
        return any(c.__name__ in ('JsProxy', 'JsException') and str(getattr(c, '__module__', '')).startswith(('pyodide', '_pyodide')) for c in t.__mro__)
    roots = gc.get_objects() + [sys.modules, vars(builtins)]
    seen = set(map(id, roots))
    level, found, kinds = roots, 0, {}
    while level:
        for o in level:
            if js_backed(type(o)):
                found += 1
        nxt = []
        for r in gc.get_referents(*level):
            if id(r) not in seen:
                seen.add(id(r))
                nxt.append(r)
        level = nxt
    return found
print('JS values:', _rlm_walk())
del _rlm_walk
`;

export interface HostListener {
  port: number;
  /** Connections that reached it: a sandbox test expects none. */
  readonly connections: number;
  close(): Promise<void>;
}

/** A TCP listener on the host's loopback, counting whoever reaches it. */
export async function hostListener(): Promise<HostListener> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Python for a cell that plays a REPL process whose layer 1 fell (run with weakenForTest.python):
 * `raw(fd, bytes)` writes all of `bytes` straight to one of the process's descriptors (the descriptors are
 * non-blocking: a partial write is carried on), `frame(obj)` builds a channel frame.
 */
export const ATTACKER = [
  'import js, json',
  'from pyodide.ffi import to_js',
  "fs = js.process.getBuiltinModule('fs')",
  'import time',
  'def raw(fd, data):',
  '    data = bytes(data)',
  '    view, at = to_js(data), 0',
  '    while at < len(data):',
  '        try:',
  '            at += fs.writeSync(fd, view, at)',
  '        except Exception:',
  '            time.sleep(0.001)',
  'def frame(obj):',
  '    b = json.dumps(obj).encode()',
  "    return len(b).to_bytes(4, 'big') + b",
].join('\n');

