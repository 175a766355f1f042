// Layer 2's canary: after the lockdown, the worker tries each route to the network, to a process or to
// V8 CallSites, as hostile JavaScript in this thread would, and reports which held. The trajectory
// records these results instead of what the lockdown meant to do.
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { probeRequire } from './runtimeLockdown';
import type { SandboxProbe } from '../core/repl/replTypes';

/** The refusal is the lockdown's own (not the permission model's, not a missing file). */
const lockdownRefused = (error: unknown): boolean => (error as { code?: string } | undefined)?.code === 'ERR_RLM_SANDBOX_DENIED';

async function attempt(
  name: string,
  run: () => unknown | Promise<unknown>,
  heldWhen: (value: unknown) => boolean = () => false,
  heldOnError: (error: unknown) => boolean = () => true,
): Promise<SandboxProbe> {
  try {
    const value = await run();
    return { name, held: heldWhen(value), detail: `returned ${typeof value === 'object' && value !== null ? 'an object' : String(value).slice(0, 80)}` };
  } catch (error) {
    const e = error as { name?: string; code?: string; message?: string };
    return { name, held: heldOnError(error), detail: `${e.code ?? e.name ?? 'Error'}: ${String(e.message ?? error).slice(0, 120)}` };
  }
}

/** `dynamicImport` is import() as the worker's bundle does it (esbuild keeps it a real import()). */
export async function probeRuntime(dynamicImport: (specifier: string) => Promise<unknown>): Promise<SandboxProbe[]> {
  const proc = process as unknown as Record<string, (...args: unknown[]) => unknown>;
  const probes: SandboxProbe[] = [];
  for (const id of ['node:fs', 'fs/promises', 'node:net', 'tls', 'node:dgram', 'node:http', 'node:dns', 'node:inspector', 'node:worker_threads', 'node:vm', 'node:module']) {
    probes.push(await attempt(`require('${id}')`, () => probeRequire(id)));
  }
  probes.push(await attempt("require('node:child_process') runs nothing", () => (probeRequire('node:child_process') as { spawnSync(c: string): { status: number } }).spawnSync('true').status, (status) => status === 127));
  if (typeof proc.getBuiltinModule === 'function') {
    probes.push(await attempt("process.getBuiltinModule('net')", () => proc.getBuiltinModule!('net')));
    probes.push(await attempt("process.getBuiltinModule('fs')", () => proc.getBuiltinModule!('fs')));
  }
  probes.push(await attempt("import('node:net')", () => dynamicImport('node:net')));
  probes.push(await attempt("import('node:fs')", () => dynamicImport('node:fs')));
  probes.push(await attempt("import('data:…') (code from a string)", () => dynamicImport('data:text/javascript,export default 1')));
  probes.push(await attempt("process.binding('tcp_wrap')", () => proc.binding!('tcp_wrap')));
  probes.push(await attempt('process.kill(parent)', () => proc.kill!(process.ppid, 0)));
  probes.push(await attempt('fetch / WebSocket globals', () => [typeof (globalThis as Record<string, unknown>).fetch, typeof (globalThis as Record<string, unknown>).WebSocket].join(','), (v) => v === 'undefined,undefined'));
  probes.push(
    await attempt('set Error.prepareStackTrace', () => {
      const error = Error as unknown as Record<string, unknown>;
      try {
        error.prepareStackTrace = () => 'leaked';
      } catch {
        /* strict-mode assignment to a frozen property throws: that is the point */
      }
      return typeof error.prepareStackTrace;
    }, (type) => type === 'undefined'),
  );
  probes.push(await attempt('new Function (code from a string)', () => new Function('return 1')()));
  // The fs module Pyodide took at boot (the same object as this bundle's): emptied, whatever the
  // permission model does. Held only when the lockdown itself refused, so this says nothing of layers below.
  probes.push(await attempt('the fs module Pyodide holds: reading a host file (the Node binary)', () => closeSync(openSync(process.execPath, 'r')), () => false, lockdownRefused));
  probes.push(
    await attempt('the fs module Pyodide holds: writing a file beside the bundle', () => {
      const path = join(__dirname, `.rlm-write-probe-${process.pid}`);
      const fd = openSync(path, 'wx');
      writeSync(fd, 'x');
      closeSync(fd);
      unlinkSync(path);
      return 'written';
    }, () => false, lockdownRefused),
  );
  return probes;
}
