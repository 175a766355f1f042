// A 200 MB log asked about as a .gz, against the same log uncompressed, on the CLI as it ships (production build) against
// a fake OpenAI server that answers at once: when the root's first request arrives after the command
// starts (the .gz is sampled when planned, then counted and streamed decompressed while the request is
// out), and the summed peak RSS of the whole process tree (decoding must not hold the text twice).
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { MB, runCliAsk } from './cliAsk';
import { startFakeModelServer } from '../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../src/eval/fakeServers/fakeServerTypes';

const GROUP = 'Compressed inputs (rlm ask app.log.gz)';
const RUNS = 3;

interface Sample {
  firstRequestMs: number;
  peakMb: number;
}

export async function run(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-compressed-bench-'));
  try {
    const plain = join(dir, 'big.log');
    // Lines that vary, as a real log's do (a log of one repeated line would compress past any real ratio).
    const out = createWriteStream(plain);
    for (let written = 0, i = 0; written < 200 * MB; i++) {
      const block = Array.from({ length: 10_000 }, (_, j) => `2026-12-05T06:${String((i + j) % 60).padStart(2, '0')}:00Z INFO request ${i * 10_000 + j} served in ${(j * 37) % 997} ms by worker ${j % 13}\n`).join('');
      if (!out.write(block)) await new Promise<void>((done) => out.once('drain', () => done()));
      written += Buffer.byteLength(block);
    }
    await new Promise<void>((done) => out.end(() => done()));
    const gz = `${plain}.gz`;
    await pipeline(createReadStream(plain), createGzip({ level: 6 }), createWriteStream(gz));
    return await measure(dir, plain, gz);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function twoTurns(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  return turn === 0 ? '```repl\nn = len(context)\nprint(n)\n```' : '```repl\nFINAL(str(n))\n```';
}

async function measure(dir: string, plain: string, gz: string): Promise<BenchFigure[]> {
  let firstAt = 0;
  const server = await startFakeModelServer({
    protocol: 'openai',
    respond: (request) => {
      firstAt ||= performance.now();
      return twoTurns(request);
    },
  });
  const askOnce = async (path: string): Promise<Sample> => {
    firstAt = 0;
    const run = await runCliAsk({ path, question: 'How long is it?', baseUrl: server.baseUrl, home: dir, trajectory: join(dir, `t-${Date.now()}.rlm.jsonl`), sampleMemory: true });
    const stdout = run.stdout.trim();
    if (!/^\d+$/.test(stdout) || Number(stdout) < 200 * MB) throw new Error(`rlm ask ${path} answered ${stdout}, not the log's length`);
    return { firstRequestMs: firstAt - run.startedAt, peakMb: run.peakMb };
  };
  try {
    await askOnce(plain); // warms the snapshot and page caches, as a second question finds them
    const plainRuns: Sample[] = [];
    const gzRuns: Sample[] = [];
    // Interleaved, so a busy spell on the shared machine falls on both.
    for (let i = 0; i < RUNS; i++) {
      gzRuns.push(await askOnce(gz));
      plainRuns.push(await askOnce(plain));
    }
    const first = median(gzRuns.map((s) => s.firstRequestMs));
    const gzPeak = median(gzRuns.map((s) => s.peakMb));
    const plainPeak = median(plainRuns.map((s) => s.peakMb));
    const overPct = ((gzPeak - plainPeak) / plainPeak) * 100;
    return [
      { group: GROUP, name: 'first root request after the command starts, 200 MB log as .gz', value: Math.round(first), unit: 'ms', runs: RUNS, target: '≤ 500 ms', met: first <= 500, note: `runs ${gzRuns.map((s) => Math.round(s.firstRequestMs)).join(', ')} ms; uncompressed ${plainRuns.map((s) => Math.round(s.firstRequestMs)).join(', ')} ms` },
      { group: GROUP, name: 'peak memory of all processes together, 200 MB log as .gz', value: Math.round(gzPeak), unit: 'MB', runs: RUNS, target: `within 10 % of the uncompressed run (${Math.round(plainPeak)} MB)`, met: overPct <= 10, note: `${overPct >= 0 ? '+' : ''}${overPct.toFixed(1)} %; runs .gz ${gzRuns.map((s) => Math.round(s.peakMb)).join(', ')} MB, plain ${plainRuns.map((s) => Math.round(s.peakMb)).join(', ')} MB` },
    ];
  } finally {
    await server.close();
  }
}
