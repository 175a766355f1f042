// One `rlm ask` as a user runs it, for the benches that time what a user waits for: a fresh process of
// the CLI as it ships (the production build, made once per bench process), timed from its spawn, with
// its whole process tree's memory sampled, its output kept, and a non-zero exit turned into an error
// that carries the CLI's own words.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MB = 1024 * 1024;

let shipped: Promise<string> | undefined;

/**
 * The `rlm` command of the production build (dist/rlm.js, which runs dist/cli.js from V8's code cache),
 * as the npm package ships it (minified, without the test-only switches), built once per bench process
 * into a scratch folder. The checkout's dist/ is the development build the tests use.
 */
export function shippedCli(): Promise<string> {
  shipped ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-bench-shipped-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const { buildAll } = await import('../esbuild.mjs');
    await buildAll({ outdir: dir, production: true });
    return rlmCommand(dir);
  })();
  return shipped;
}

/** What `rlm` runs in a build's dist/: rlm.js, or cli.js in builds from before the code cache. */
export function rlmCommand(dist: string): string {
  return existsSync(join(dist, 'rlm.js')) ? join(dist, 'rlm.js') : join(dist, 'cli.js');
}

interface CliAskOptions {
  /** The built CLI (the production build of this checkout, shippedCli(), unless another build is compared). */
  cli?: string;
  path: string;
  question: string;
  baseUrl: string;
  /** HOME of the process: its snapshot cache and settings live there. */
  home: string;
  trajectory: string;
  /** Sample the summed RSS of the process tree every 10 ms. */
  sampleMemory?: boolean;
  /** Run the CLI under another program, e.g. ['/usr/bin/time', ['-f', '%U %S', '-o', file]]. */
  wrapper?: [string, string[]];
  /** More `rlm ask` flags, e.g. ['--max-sub-calls', '1000']. */
  extraArgs?: string[];
  /** Called with the spawned process's pid (e.g. to sample its tree's CPU). */
  onSpawn?: (pid: number) => void;
}

interface CliAskSample {
  /** performance.now() at the spawn: subtract it from a fake server's clock to time a request. */
  startedAt: number;
  wallMs: number;
  /** Summed RSS peak in MB (0 unless sampled). */
  peakMb: number;
  stdout: string;
  /** performance.now() of the first byte on stdout, 0 when nothing was printed. */
  firstStdoutAt: number;
}

class CliAskError extends Error {
  constructor(
    readonly path: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`rlm ask ${path} exited ${code}: ${stderr.trim().slice(-2000)}`);
  }
}

export async function runCliAsk(options: CliAskOptions): Promise<CliAskSample> {
  const args = [options.cli ?? (await shippedCli()), 'ask', options.path, '-q', options.question, '--base-url', options.baseUrl, '--model', 'bench', '--quiet', '--trajectory', options.trajectory, ...(options.extraArgs ?? [])];
  const [command, argv] = options.wrapper ? [options.wrapper[0], [...options.wrapper[1], process.execPath, ...args]] : [process.execPath, args];
  const startedAt = performance.now();
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: options.home } });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  let stdout = '';
  let stderr = '';
  let firstStdoutAt = 0;
  child.stdout.on('data', (d: Buffer) => {
    firstStdoutAt ||= performance.now();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const timer = options.sampleMemory ? setInterval(() => (peak = Math.max(peak, treeRss(child.pid!))), 10) : undefined;
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  clearInterval(timer);
  const wallMs = performance.now() - startedAt;
  if (code !== 0) throw new CliAskError(options.path, code, stderr);
  return { startedAt, wallMs, peakMb: peak / MB, stdout, firstStdoutAt };
}

/** RSS in bytes of a process and all its descendants, from /proc. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // gone while read
    }
  }
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}
