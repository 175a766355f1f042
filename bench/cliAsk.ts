// One `rlm ask` as a user runs it, for the benches that time what a user waits for: a fresh process of
// the built CLI, timed from its spawn, with its whole process tree's memory sampled, its output kept,
// and a non-zero exit turned into an error that carries the CLI's own words.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const MB = 1024 * 1024;
export const DIST_CLI = join(resolve(import.meta.dirname, '..'), 'dist', 'cli.js');

interface CliAskOptions {
  /** The built CLI (dist/cli.js of this checkout unless another build is compared). */
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
  const args = [options.cli ?? DIST_CLI, 'ask', options.path, '-q', options.question, '--base-url', options.baseUrl, '--model', 'bench', '--quiet', '--trajectory', options.trajectory, ...(options.extraArgs ?? [])];
  const [command, argv] = options.wrapper ? [options.wrapper[0], [...options.wrapper[1], process.execPath, ...args]] : [process.execPath, args];
  const startedAt = performance.now();
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: options.home } });
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
