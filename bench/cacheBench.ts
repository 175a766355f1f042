// What caching saves, on fake servers that report cache usage the way the real APIs do, through the real
// SDKs and the real REPL: the input cost of a 30-turn root conversation against the same conversation at
// full price (Anthropic with cache_control marks; OpenAI's automatic prefix cache), and how many
// sub-calls are sent again when the same question is asked twice, or a follow-up re-reads the same slices.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { createRlmRun } from '../src/core/loop/rlmRun';
import type { RunResult, SubCallCacheUse } from '../src/core/loop/loopTypes';
import { createModelClient } from '../src/core/models/createModelClient';
import type { ModelPricing } from '../src/core/models/modelTypes';
import { SubCallCache } from '../src/core/models/subCallCache';
import { createCliReplFactory } from '../src/cli/support/cliRepl';
import { startFakeModelServer } from '../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeProtocol } from '../src/eval/fakeServers/fakeServerTypes';
import type { EventRecord } from '../src/core/trajectory/events';

const GROUP = 'Caching';
const DIST = resolve(import.meta.dirname, '..', 'dist');
const TURNS = 30;
/** Claude Sonnet's list prices: cache reads at a tenth, writes at 1.25×. */
const ANTHROPIC_PRICES: ModelPricing = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };
/** GPT-4.1's list prices: cached input at a quarter. */
const OPENAI_PRICES: ModelPricing = { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 };
const TEXT = Array.from({ length: 4000 }, (_, i) => `line ${i}: request ${i * 7} served by worker ${i % 13} in ${i % 97} ms`).join('\n');

const turnOf = (r: FakeModelRequest): number => r.messages.filter((m) => m.role === 'assistant').length;

export async function run(): Promise<BenchFigure[]> {
  const repl = createCliReplFactory({ distDir: DIST });
  try {
    return [...(await conversationFigure(repl, 'anthropic', ANTHROPIC_PRICES, 35)), ...(await conversationFigure(repl, 'openai', OPENAI_PRICES)), ...(await subCallFigures(repl))];
  } finally {
    await repl.dispose();
  }
}

/** Input cost billed over input cost at full price, for one 30-turn run that peeks at a new slice each turn. */
async function conversationFigure(repl: ReturnType<typeof createCliReplFactory>, protocol: FakeProtocol, pricing: ModelPricing, targetPercent?: number): Promise<BenchFigure[]> {
  const server = await startFakeModelServer({
    protocol,
    promptCache: true,
    respond: (r) => {
      const t = turnOf(r);
      return t < TURNS - 1 ? `Turn ${t}: looking further.\n\`\`\`repl\nprint(context[${t * 1500}:${t * 1500 + 1200}])\n\`\`\`` : '```repl\nFINAL("done")\n```';
    },
  });
  try {
    const root = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: `bench-${protocol}`, apiKey: 'x', maxRetries: 0, pricing });
    const result = await createRlmRun({ question: 'Which worker is slowest?', context: { kind: 'text', text: TEXT }, root, repl, limits: { maxIterations: TURNS } }).run();
    if (result.status !== 'completed') throw new Error(`the ${protocol} run ended ${result.status}: ${result.error?.message ?? ''}`);
    const fullInput = (result.totals.inputTokens * pricing.inputPerMTok) / 1e6;
    const output = (result.totals.outputTokens * pricing.outputPerMTok) / 1e6;
    const billedInput = (result.totals.costUsd ?? 0) - output;
    const percent = (100 * billedInput) / fullInput;
    return [
      {
        group: GROUP,
        name: `${TURNS}-turn root conversation, ${protocol} wire: input billed vs uncached`,
        value: Math.round(percent * 10) / 10,
        unit: '%',
        runs: 1,
        ...(targetPercent !== undefined ? { target: `≤ ${targetPercent}%`, met: percent <= targetPercent } : {}),
        note: `${result.totals.inputTokens.toLocaleString('en-US')} input tokens, ${(result.totals.cacheReadTokens ?? 0).toLocaleString('en-US')} read from the cache, ${(result.totals.cacheWriteTokens ?? 0).toLocaleString('en-US')} written; saved $${(result.totals.savedUsd ?? 0).toFixed(4)}`,
      },
    ];
  } finally {
    await server.close();
  }
}

/** The same question twice, then a follow-up over the same slices, each with the workspace's sub-call cache. */
async function subCallFigures(repl: ReturnType<typeof createCliReplFactory>): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-cache-bench-'));
  let subRequests = 0;
  const slices = 'chunks = [context[i:i + 20000] for i in range(0, len(context), 20000)]\n';
  const server = await startFakeModelServer({
    protocol: 'anthropic',
    respond: (r) => {
      if (!(r.system ?? '').includes('persistent Python REPL')) {
        subRequests += 1;
        return `worker ${subRequests % 13} is slowest in this part`;
      }
      const question = r.messages[0]?.content ?? '';
      if (turnOf(r) > 0) return '```repl\nFINAL_VAR("out")\n```';
      return question.includes('follow-up')
        ? `\`\`\`repl\n${slices}out = "\\n".join(llm_query_batched([f"Which request is largest here?\\n{c}" for c in chunks[:3]]) + llm_query_batched([f"Which worker is slowest here?\\n{c}" for c in chunks]))\n\`\`\``
        : `\`\`\`repl\n${slices}out = "\\n".join(llm_query_batched([f"Which worker is slowest here?\\n{c}" for c in chunks]))\n\`\`\``;
    },
  });
  try {
    const client = createModelClient({ provider: 'anthropic', baseUrl: server.baseUrl, model: 'bench-sub', apiKey: 'x', maxRetries: 0, pricing: ANTHROPIC_PRICES });
    const use = (): SubCallCacheUse => ({ cache: new SubCallCache({ dir, maxBytes: 64 * 1024 * 1024 }), mode: 'use' });
    const ask = async (question: string): Promise<{ result: RunResult; sent: number; hitMs: number[] }> => {
      const before = subRequests;
      const run = createRlmRun({ question, context: { kind: 'text', text: TEXT }, root: client, repl, subCallCache: use() });
      const hitMs: number[] = [];
      for await (const e of run as AsyncIterable<EventRecord>) if (e.type === 'subcall.finished' && e.cached) hitMs.push(e.latencyMs);
      const result = await run.run();
      if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error?.message ?? ''}`);
      return { result, sent: subRequests - before, hitMs };
    };
    const first = await ask('Which worker is slowest?');
    const again = await ask('Which worker is slowest?');
    const followUp = await ask('A follow-up: which request is largest, and is the slowest worker still the same?');
    return [
      { group: GROUP, name: 'same question twice: sub-calls sent again the second time', value: again.sent, unit: 'x', runs: 1, target: '0', met: again.sent === 0, note: `${first.sent} sent the first time, ${again.result.totals.cachedSubCalls ?? 0} answered from the cache, saved $${(again.result.totals.savedUsd ?? 0).toFixed(4)}` },
      { group: GROUP, name: 'follow-up re-reading the same slices: those sub-calls sent again', value: followUp.sent - 3, unit: 'x', runs: 1, target: '0', met: followUp.sent === 3, note: `${followUp.result.totals.cachedSubCalls ?? 0} answered from the cache; 3 new questions sent` },
      { group: GROUP, name: 'cached sub-call answered in (median)', value: median([...again.hitMs, ...followUp.hitMs]), unit: 'ms', runs: again.hitMs.length + followUp.hitMs.length, note: 'the loop clock counts whole ms: 0 means under 1 ms, against a request per call otherwise' },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
