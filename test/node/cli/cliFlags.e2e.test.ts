// `rlm ask` flags that had only their parsing tested, now walked end to end (dist/cli.js, the real SDKs,
// the real REPL, fake servers): each must change what happens, seen in the exit code, what the servers
// received, or the trajectory. The limits end with exit 3 and say which limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrajectory } from '../../../src/core/trajectory/trajectoryReader';
import { generateTrajectory } from '../../fixtures/trajectories/generate';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeResponse } from '../../../src/eval/fakeServers/fakeServerTypes';

const isRoot = (r: FakeModelRequest): boolean => Boolean(r.system?.includes('persistent Python REPL'));
const rootTurn = (r: FakeModelRequest): number => r.messages.filter((m) => m.role === 'assistant').length;

describe('rlm ask flags, end to end (dist/cli.js)', () => {
  let dir: string;
  const servers: FakeModelServer[] = [];
  async function server(protocol: 'openai' | 'anthropic', respond: (r: FakeModelRequest) => FakeResponse): Promise<FakeModelServer> {
    const s = await startFakeModelServer({ protocol, respond });
    servers.push(s);
    return s;
  }
  const model = (s: FakeModelServer): string[] => ['--provider', s.protocol, '--base-url', s.baseUrl, '--model', 'fake-model'];

  before(() => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-flags-'));
    writeFileSync(join(dir, 'notes.txt'), 'one\ntwo\nthree\n');
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('--max-tokens ends a run that spends more with exit 3, naming the token limit', async () => {
    const s = await server('openai', () => ({ text: '```repl\nprint("still looking")\n```', usage: { inputTokens: 600, outputTokens: 100 } }));
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', ...model(s), '--max-tokens', '1000', '--trajectory', 'tokens.rlm.jsonl'], dir);
    assert.equal(out.code, 3, out.stderr);
    assert.match(out.stderr, /token/i);
    const unlimited = await runCli(['ask', 'notes.txt', '-q', 'q', ...model(s), '--max-iterations', '2', '--trajectory', 'tokens-free.rlm.jsonl'], dir);
    // Without the flag, the same model runs until the iteration limit instead: more than 1,000 tokens.
    const read = await readTrajectory(join(dir, 'tokens-free.rlm.jsonl'));
    assert.ok((read.tree?.totals.inputTokens ?? 0) + (read.tree?.totals.outputTokens ?? 0) > 1000, `without --max-tokens: ${unlimited.stderr}`);
    assert.doesNotMatch(unlimited.stderr, /token limit/i);
  });

  it('--timeout ends a run that takes longer with exit 3, naming the wall-time limit', async () => {
    const s = await server('openai', () => ({ text: '```repl\nimport time\ntime.sleep(0.4)\nprint("slow")\n```' }));
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', ...model(s), '--timeout', '2', '--trajectory', 'wall.rlm.jsonl', '--verbose'], dir);
    assert.equal(out.code, 3, out.stderr);
    assert.match(out.stderr, /time/i);
    assert.ok(out.ms < 30_000, `the run took ${out.ms} ms; stderr: ${out.stderr}`);
  });

  it('--cell-timeout stops a cell that runs too long; the model sees why and the run goes on to its answer', async () => {
    const s = await server('openai', (r) => (rootTurn(r) === 0 ? '```repl\nwhile True:\n    pass\n```' : '```repl\nFINAL("recovered")\n```'));
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', ...model(s), '--cell-timeout', '1', '--trajectory', 'cell.rlm.jsonl'], dir);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'recovered\n');
    assert.ok(s.completionRequests.some((r) => /hit its time limit.*ran longer than 1000 ms/s.test(r.parsed?.messages.at(-1)?.content ?? '')), 'the model was told the cell ran past its 1 s limit');
    assert.ok(out.ms < 30_000, `a 1 s cell limit, but the run took ${out.ms} ms; stderr: ${out.stderr}`);
  });

  it('--api-key-env sends the key from that variable; the --sub-* flags send sub-calls to another server and protocol, with their own key', async () => {
    const root = await server('openai', (r) => (rootTurn(r) === 0 ? '```repl\nreply = llm_query("Say sub")\nprint(reply)\n```' : '```repl\nFINAL(reply)\n```'));
    const sub = await server('anthropic', () => 'from the sub server');
    const out = await runCli(
      ['ask', 'notes.txt', '-q', 'q', ...model(root), '--api-key-env', 'ROOT_KEY', '--sub-provider', 'anthropic', '--sub-base-url', sub.baseUrl, '--sub-model', 'fake-sub', '--sub-api-key-env', 'SUB_KEY', '--trajectory', 'sub.rlm.jsonl'],
      dir,
      { ROOT_KEY: 'sk-root-from-env', SUB_KEY: 'sk-sub-from-env' },
    );
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'from the sub server\n');
    assert.ok(root.completionRequests.every((r) => r.parsed !== undefined && isRoot(r.parsed)), 'only root turns reach the root server');
    assert.ok(root.completionRequests.every((r) => r.headers.authorization === 'Bearer sk-root-from-env'), 'the root key came from ROOT_KEY');
    assert.equal(sub.completionRequests.length, 1);
    // The SDK picks the header (x-api-key or a bearer token); the key must be SUB_KEY's, never ROOT_KEY's.
    const subHeaders = sub.completionRequests[0]?.headers ?? {};
    assert.ok(subHeaders['x-api-key'] === 'sk-sub-from-env' || subHeaders.authorization === 'Bearer sk-sub-from-env', JSON.stringify(subHeaders));
    assert.equal((sub.completionRequests[0]?.body as { model?: string }).model, 'fake-sub');
  });

  it('--max-depth 0 answers rlm_query with a plain sub-call instead of a child run', async () => {
    const s = await server('openai', (r) => {
      if (!isRoot(r)) return 'plain answer';
      return rootTurn(r) === 0 ? '```repl\nreply = rlm_query("Dig deeper")\nprint(reply)\n```' : '```repl\nFINAL(reply)\n```';
    });
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', ...model(s), '--max-depth', '0', '--trajectory', 'depth.rlm.jsonl'], dir);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'plain answer\n');
    const rootRequests = s.completionRequests.filter((r) => r.parsed !== undefined && isRoot(r.parsed));
    assert.equal(rootRequests.length, 2, 'no child RLM loop ran (it would send root-style requests of its own)');
  });
});

describe('rlm top level, show and export as a process (dist/cli.js)', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-top-'));
    generateTrajectory(join(dir, 'run.rlm.jsonl'), { cells: 3, subCallsPerCell: 1, childEvery: 0 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--version prints the package version; no command prints the help with exit 2; an unknown one says so with exit 2', async () => {
    const version = await runCli(['--version'], dir);
    assert.equal(version.code, 0);
    assert.equal(version.stdout, `${(JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version}\n`);
    const none = await runCli([], dir);
    assert.equal(none.code, 2);
    assert.match(none.stdout, /^rlm — ask questions/);
    const unknown = await runCli(['frobnicate'], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });

  it('rlm export --to md and --to ipynb write the files next to the run; rlm show prints its answer', async () => {
    const md = await runCli(['export', 'run.rlm.jsonl', '--to', 'md'], dir);
    assert.equal(md.code, 0, md.stderr);
    assert.match(readFileSync(join(dir, 'run.md'), 'utf8'), /42 distinct errors/);
    const nb = await runCli(['export', 'run.rlm.jsonl', '--to', 'ipynb'], dir);
    assert.equal(nb.code, 0, nb.stderr);
    const notebook = JSON.parse(readFileSync(join(dir, 'run.ipynb'), 'utf8')) as { nbformat: number; cells: unknown[] };
    assert.equal(notebook.nbformat, 4);
    assert.ok(notebook.cells.length >= 3);
    const show = await runCli(['show', 'run.rlm.jsonl'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /Answer: +42 distinct errors/);
    const missing = await runCli(['show', 'nope.rlm.jsonl'], dir);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /nope\.rlm\.jsonl/);
  });
});
