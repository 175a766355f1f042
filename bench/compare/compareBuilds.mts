// `npm run bench:compare -- --ref <commit> [--rounds N]`: writes bench/COMPARE.md with the figures a change must not make worse,
// measured for an older build and for this one side by side. Each sample is a fresh process, the two
// builds alternate (ABBA, so a drift in the machine's load falls on both), and every figure is given as
// min / median / max over the rounds with the load average, as the user would feel it: a whole turn
// with an instant model (both SDKs), a trivial cell, a cell of 20 sub-calls, and `rlm ask` on a 1 KB
// file from the command's start to its first request and to its exit.
//
// The older build is checked out into a temporary git worktree, built with its own esbuild script and
// removed afterwards; it borrows this checkout's node_modules, so a ref whose dependencies differ much
// may not build (then the error says so).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeModelServer } from '../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../src/eval/fakeServers/fakeServerTypes';
import { median } from '../benchTypes';
import { rlmCommand, runCliAsk } from '../cliAsk';

const here = resolve(import.meta.dirname);
const repo = resolve(here, '../..');

interface Side {
  label: string;
  root: string;
}
type Samples = Record<string, number[]>;

function usage(message: string): never {
  console.error(`${message}\nusage: npm run bench:compare -- --ref <commit> [--rounds N]   (writes bench/COMPARE.md)`);
  process.exit(2);
}

function checkOut(ref: string): Side {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: repo, encoding: 'utf8' }).trim();
  } catch {
    usage(`--ref ${ref}: not a commit of this repository`);
  }
  const root = join(mkdtempSync(join(tmpdir(), 'rlm-compare-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: repo, stdio: 'ignore' });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  try {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'ignore' });
  } catch (error) {
    removeTree(root);
    throw new Error(`${ref} does not build with this checkout's node_modules: ${(error as Error).message.split('\n')[0]}`);
  }
  return { label: `${ref} (${commit.slice(0, 7)})`, root };
}

function removeTree(root: string): void {
  execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: repo, stdio: 'ignore' });
}

function probe(file: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, file), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) done(JSON.parse(line) as Record<string, unknown>);
      else fail(new Error(`${file} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`));
    });
  });
}

/** `rlm ask` on a 1 KB file, two turns: from the spawn to the first request, and to the exit. */
async function askOnce(side: Side, server: { baseUrl: string }, scratch: string, firstAt: { at: number }): Promise<{ first: number; exit: number }> {
  firstAt.at = 0;
  // Each side its own HOME: its own snapshot cache, warmed by the first (untimed) run.
  const home = join(scratch, side === sides[0] ? 'a' : 'b');
  const trajectory = join(scratch, `t-${Math.random().toString(36).slice(2)}.rlm.jsonl`);
  const run = await runCliAsk({ cli: rlmCommand(join(side.root, 'dist')), path: join(scratch, 'small.txt'), question: 'How long is it?', baseUrl: server.baseUrl, home, trajectory });
  return { first: firstAt.at - run.startedAt, exit: run.wallMs };
}

const { values } = parseArgs({ options: { ref: { type: 'string' }, rounds: { type: 'string', default: '6' } } });
if (!values.ref) usage('--ref is required');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) usage('--rounds must be a whole number of at least 1');

const sides: Side[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'rlm-compare-ask-'));
const loadAtStart = loadavg()[0]!;
const samples = new Map<Side, Samples>();
const add = (side: Side, name: string, value: number): void => {
  const bucket = samples.get(side)!;
  (bucket[name] ??= []).push(value);
};
try {
  sides.push(checkOut(values.ref), { label: 'this checkout', root: repo });
  for (const side of sides) samples.set(side, {});
  writeFileSync(join(scratch, 'small.txt'), 'a line of a small log file\n'.repeat(38));
  const firstAt = { at: 0 };
  const server = await startFakeModelServer({
    protocol: 'openai',
    respond: (request: FakeModelRequest) => {
      firstAt.at ||= performance.now();
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      return turn === 0 ? '```repl\nn = len(context)\nprint(n)\n```' : '```repl\nFINAL(str(n))\n```';
    },
  });
  try {
    for (const side of sides) await askOnce(side, server, scratch, firstAt); // warms each side's snapshot
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        process.stderr.write(`round ${round + 1}/${rounds}: ${side.label}…\n`);
        for (const protocol of ['openai', 'anthropic']) {
          const { gaps } = (await probe('turnProbe.mts', [side.root, protocol])) as { gaps: number[] };
          add(side, `whole turn, instant model (${protocol} SDK)`, median(gaps));
        }
        const cells = (await probe('cellProbe.mts', [side.root])) as { trivialCellMs: number; twentyBridgeCallsMs: number };
        add(side, 'trivial cell (x = 1), round trip', cells.trivialCellMs);
        add(side, 'cell of 20 instantly answered llm_query calls', cells.twentyBridgeCallsMs);
        const ask = await askOnce(side, server, scratch, firstAt);
        add(side, '`rlm ask` 1 KB: command start to first request', ask.first);
        add(side, '`rlm ask` 1 KB: command start to exit', ask.exit);
      }
    }
  } finally {
    await server.close();
  }
  const [old, now] = sides as [Side, Side];
  const stat = (values: number[]): string => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(0));
    return `${f(sorted[0]!)} / **${f(median(sorted))}** / ${f(sorted[sorted.length - 1]!)}`;
  };
  const lines = [
    `Interleaved comparison, ${rounds} rounds, each sample a fresh process; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on the machine's cores. ms, min / **median** / max.`,
    '',
    `| Figure | ${old.label} | ${now.label} | Median change |`,
    '|---|---|---|---:|',
    ...Object.keys(samples.get(old)!).map((name) => {
      const a = samples.get(old)![name]!;
      const b = samples.get(now)![name]!;
      const change = (median(b) / median(a) - 1) * 100;
      return `| ${name} | ${stat(a)} | ${stat(b)} | ${change >= 0 ? '+' : ''}${change.toFixed(1)} % |`;
    }),
  ];
  const table = lines.join('\n');
  console.log(table);
  writeFileSync(join(here, '..', 'COMPARE.md'), `# Comparison with an older build\n\nWritten by \`npm run bench:compare -- --ref ${values.ref} --rounds ${rounds}\` (bench/compare/compareBuilds.mts) on ${new Date().toISOString()}.\n\n${table}\n`);
} finally {
  if (sides[0]) removeTree(sides[0].root);
  rmSync(scratch, { recursive: true, force: true });
}
