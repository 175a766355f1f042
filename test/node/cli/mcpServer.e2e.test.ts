// `rlm mcp` end to end: the built dist/cli.js driven by the MCP SDK's own Client over stdio, against
// the fake OpenAI server through the real REPL. Lists the tool, answers about a file and a folder with
// references and a trajectory marked as asked by an agent, refuses paths out of the root (`..`, an
// absolute path, a symlink out), sends progress, stops a slow run when the client cancels, and says
// what to add when no model is configured.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeResponse } from '../../../src/eval/fakeServers/fakeServerTypes';
import { assertCliBuilt } from './cliProcess';
import type { AgentAnswer } from '../../../src/core/agentAsk/agentResult';

const CLI = resolve(__dirname, '../../../dist/cli.js');

function turnOf(request: FakeModelRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

/** A root that finds the line holding "needle" in whatever context it was given and cites it. */
function findNeedle(request: FakeModelRequest): FakeResponse {
  if (!request.system?.includes('persistent Python REPL')) return 'sub answer';
  if (turnOf(request) === 0) {
    return [
      '```repl',
      'items = context.items() if isinstance(context, dict) else [("notes.txt", context)]',
      'hit = None',
      'for path, text in items:',
      '    for i, line in enumerate(text.splitlines(), 1):',
      '        if "needle" in line and hit is None:',
      '            hit = (path, i)',
      'print(llm_query("say hi"))',
      'print(hit)',
      '```',
    ].join('\n');
  }
  return '```repl\nFINAL(f"The needle is at {hit[0]}:{hit[1]}.")\n```';
}

interface Session {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

async function connect(root: string, extra: string[], home: string, withClient?: (client: Client) => void): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root, ...extra],
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, RLM_CACHE_DIR: mkdtempSync(join(tmpdir(), 'rlm-mcp-cache-')) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'rlm-test-agent', version: '1.0.0' }, withClient ? { capabilities: { sampling: {} } } : {});
  withClient?.(client);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The last record of the run asked `question` in `root`'s trajectories, once it is a run.finished. */
function lastRecordOf(root: string, question: string): Record<string, unknown> | undefined {
  const runs = join(root, '.rlm', 'runs');
  for (const name of readdirSync(runs).filter((n) => n.endsWith('.rlm.jsonl'))) {
    const lines = readFileSync(join(runs, name), 'utf8').trim().split('\n');
    if ((JSON.parse(lines[0]!) as { question?: string }).question !== question) continue;
    const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    if (last.type === 'run.finished') return last;
  }
  return undefined;
}

async function waitFor<T>(probe: () => T | undefined, withinMs: number): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('rlm mcp (dist/cli.js) with the SDK client over stdio', () => {
  let dir: string;
  let root: string;
  let outside: string;
  let server: FakeModelServer;
  let slow: FakeModelServer;
  let session: Session;

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-mcp-'));
    root = join(dir, 'project');
    outside = join(dir, 'secret');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'notes.txt'), 'first line\nsecond line\nthe needle is here\nlast line\n');
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n// needle in b\n');
    writeFileSync(join(outside, 'key.txt'), 'needle: the secret\n');
    symlinkSync(outside, join(root, 'out'));
    server = await startFakeModelServer({ protocol: 'openai', respond: findNeedle });
    session = await connect(root, ['--base-url', server.baseUrl, '--model', 'fake-model'], dir);
  });
  after(async () => {
    await session?.close();
    await server?.close();
    await slow?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists rlm_ask with its input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['rlm_ask']);
    const tool = tools[0]!;
    assert.deepEqual(tool.inputSchema.required, ['question']);
    assert.ok(tool.inputSchema.properties && 'paths' in tool.inputSchema.properties);
    assert.ok(tool.outputSchema?.properties && 'references' in tool.outputSchema.properties);
  });

  it('answers about a file with references, figures, progress and a trajectory marked as asked by an agent', async () => {
    const progress: string[] = [];
    const steps: number[] = [];
    const result = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'Where is the needle?', paths: ['notes.txt'] } }, CallToolResultSchema, {
      onprogress: (p) => {
        progress.push(p.message ?? '');
        steps.push(p.progress);
      },
      timeout: 60_000,
    })) as CallToolResult;
    assert.equal(result.isError, undefined, textOf(result));
    const content = result.structuredContent as unknown as AgentAnswer;
    assert.equal(content.status, 'completed');
    assert.equal(content.answer, 'The needle is at notes.txt:3.');
    assert.deepEqual(content.references, [{ path: 'notes.txt', line: 3, text: 'the needle is here' }]);
    assert.equal(content.figures.turns, 2);
    assert.equal(content.figures.subCalls, 1);
    assert.match(textOf(result), /References:\n- notes\.txt:3: the needle is here/);
    assert.match(textOf(result), /RLM: 2 turns, 1 sub-call, .*trajectory: /);
    // The fake model is served from 127.0.0.1: nothing is charged per token, so only the time limit is named.
    assert.ok(progress.some((m) => /^Reads 1 file \(\d+ B\) from notes\.txt, bound whole into the sandbox\. No per-token charge \(a local model\)\. Stops at 5 min 0 s\.$/.test(m)), progress.join(' | '));
    // notifications/progress with the client's progressToken (the SDK routes only those to onprogress):
    // the turns and the sub-calls as they start, the count rising with each.
    assert.ok(progress.some((m) => /^turn 1, 0 sub-calls: turn 1: asking the root model$/.test(m)), progress.join(' | '));
    assert.ok(progress.some((m) => /^turn 1, 1 sub-call: sub-calls running$/.test(m)), progress.join(' | '));
    assert.ok(progress.some((m) => /^turn 2, 1 sub-call: /.test(m)), progress.join(' | '));
    assert.ok(steps.every((n, i) => i === 0 || n > steps[i - 1]!), `progress rises: ${steps.join(', ')}`);
    const header = JSON.parse(readFileSync(content.trajectory!, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    assert.deepEqual(header.askedBy, { kind: 'agent', via: 'mcp', client: 'rlm-test-agent' });
    assert.ok(String(content.trajectory).startsWith(join(root, '.rlm', 'runs')));
  });

  it('answers about a folder and a glob, never reading through the link out of the root', async () => {
    // The whole root ([]): notes.txt comes first; the link `out` and earlier runs' records are not read.
    const cases: Array<[string[], string, number, string]> = [
      [['src'], 'src/b.ts', 2, '// needle in b'],
      [['src/*.ts'], 'src/b.ts', 2, '// needle in b'],
      [['src/{a,b}.ts', 'notes.txt'], 'notes.txt', 3, 'the needle is here'],
      [[], 'notes.txt', 3, 'the needle is here'],
    ];
    for (const [paths, path, line, text] of cases) {
      const result = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'Where is the needle?', paths } }, CallToolResultSchema, { timeout: 60_000 })) as CallToolResult;
      assert.equal(result.isError, undefined, textOf(result));
      const content = result.structuredContent as unknown as AgentAnswer;
      assert.equal(content.answer, `The needle is at ${path}:${line}.`, `paths ${JSON.stringify(paths)}: ${textOf(result)}`);
      assert.deepEqual(content.references, [{ path, line, text }]);
    }
  });

  it('refuses "..", an absolute path outside the root and a symlink out, as tool errors naming the path', async () => {
    const cases: Array<[string, RegExp]> = [
      ['../secret/key.txt', /climbs out with "\.\."/],
      ['src/../../secret', /climbs out with "\.\."/],
      [join(outside, 'key.txt'), /is outside the folder RLM serves/],
      ['out/key.txt', /is outside the folder RLM serves/],
      ['out', /is outside the folder RLM serves/],
      ['/etc/passwd', /is outside the folder RLM serves/],
      ['out/*.txt', /is outside the folder RLM serves/],
    ];
    const before = server.completionRequests.length;
    for (const [path, message] of cases) {
      const result = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'Read it', paths: [path] } })) as CallToolResult;
      assert.equal(result.isError, true, path);
      assert.match(textOf(result), message, path);
    }
    assert.equal(server.completionRequests.length, before, 'nothing was sent to the model');
  });

  it('says what is wrong with a bad input and an unmatched glob', async () => {
    const noQuestion = (await session.client.callTool({ name: 'rlm_ask', arguments: { paths: ['notes.txt'] } })) as CallToolResult;
    assert.equal(noQuestion.isError, true);
    assert.match(textOf(noQuestion), /Give "question"/);
    const noMatch = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'q', paths: ['**/*.py'] } })) as CallToolResult;
    assert.equal(noMatch.isError, true);
    assert.match(textOf(noMatch), /matches no readable text file/);
    const missing = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'q', paths: ['nope.txt'] } })) as CallToolResult;
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /nope\.txt: no such file or folder/);
    // VS Code's tool reads the editor's selection; a server has no editor and says what to pass instead.
    const selection = (await session.client.callTool({ name: 'rlm_ask', arguments: { question: 'q', selection: true } })) as CallToolResult;
    assert.equal(selection.isError, true);
    assert.match(textOf(selection), /no editor, so it cannot see a selection: pass the file's path in "paths"/);
  });

  it('stops a slow run when the client cancels the call', async (t) => {
    let requests = 0;
    slow = await startFakeModelServer({
      protocol: 'openai',
      respond: (request) => {
        requests += 1;
        // The root's first turn answers at once; its second waits 30 s (the cancel must not wait for it).
        return turnOf(request) === 0 ? '```repl\nprint(len(context))\n```' : { text: '```repl\nFINAL("late")\n```', latencyMs: 30_000 };
      },
    });
    const slowSession = await connect(root, ['--base-url', slow.baseUrl, '--model', 'fake-model'], dir);
    let abortedAt = 0;
    try {
      const controller = new AbortController();
      const progress: string[] = [];
      const call = slowSession.client.callTool({ name: 'rlm_ask', arguments: { question: 'Slow?', paths: ['notes.txt'] } }, CallToolResultSchema, {
        signal: controller.signal,
        timeout: 60_000,
        onprogress: (p) => {
          progress.push(p.message ?? '');
          // Cancel once the second turn (the slow one) is under way.
          if (/turn 2/.test(p.message ?? '') && !controller.signal.aborted) {
            abortedAt = Date.now();
            controller.abort('enough');
          }
        },
      });
      await assert.rejects(call, /enough|abort/i);
      assert.ok(progress.some((m) => /turn 2/.test(m)), progress.join(' | '));
      // The server is still there and answers the next call (the cancelled run ended; the pool lives on).
      const listed = await slowSession.client.listTools();
      assert.equal(listed.tools.length, 1);
      assert.ok(requests <= 2, `${requests} requests`);
    } finally {
      await slowSession.close();
    }
    // The run itself stopped (its trajectory closed as cancelled) long before the slow reply was due.
    const finished = await waitFor(() => lastRecordOf(root, 'Slow?'), 15_000);
    assert.equal(finished.type, 'run.finished');
    assert.equal(finished.status, 'cancelled');
    // A figure for the report, not a check (the machine's load decides it): abort to run.finished.
    t.diagnostic(`cancel to run.finished: ${Number(finished.ts) - abortedAt} ms`);
  });

  it('without a model, uses the client\'s own through sampling when the client offers it', async () => {
    const sampled: string[] = [];
    const lending = await connect(root, [], dir, (client) =>
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        const { systemPrompt, messages, maxTokens } = request.params;
        assert.ok(maxTokens > 0);
        const asked = { system: systemPrompt, messages: messages.map((m) => ({ role: m.role, content: (Array.isArray(m.content) ? m.content : [m.content]).map((c) => (c.type === 'text' ? c.text : '')).join('') })) } as FakeModelRequest;
        const reply = findNeedle(asked);
        sampled.push(asked.messages.at(-1)?.content ?? '');
        return { role: 'assistant' as const, model: 'client-model-1', content: { type: 'text' as const, text: typeof reply === 'string' ? reply : (reply.text ?? '') }, stopReason: 'endTurn' };
      }),
    );
    try {
      const result = (await lending.client.callTool({ name: 'rlm_ask', arguments: { question: 'Where is the needle?', paths: ['notes.txt'] } }, CallToolResultSchema, { timeout: 60_000 })) as CallToolResult;
      assert.equal(result.isError, undefined, textOf(result));
      const content = result.structuredContent as unknown as AgentAnswer;
      assert.equal(content.answer, 'The needle is at notes.txt:3.');
      assert.equal(content.figures.includedInPlan, true);
      assert.match(textOf(result), /included in your plan/);
      // Two root turns and the sub-call, all through the client.
      assert.equal(sampled.length, 3, sampled.join(' | '));
      assert.ok(sampled.includes('say hi'), sampled.join(' | '));
      const started = JSON.parse(readFileSync(content.trajectory!, 'utf8').split('\n')[1]!) as { config: { root: { provider: string; model: string } } };
      assert.deepEqual(started.config.root, { provider: 'mcp', model: 'rlm-test-agent (sampling)', baseUrl: 'mcp.sampling' });
    } finally {
      await lending.close();
    }
  });

  it('starts without a model and answers each call with what to add', async () => {
    const bare = await connect(root, [], dir);
    try {
      const result = (await bare.client.callTool({ name: 'rlm_ask', arguments: { question: 'q', paths: ['notes.txt'] } })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(textOf(result), /No model is configured for rlm mcp, and this client offers no sampling to lend its own: add --model NAME/);
    } finally {
      await bare.close();
    }
  });
});
