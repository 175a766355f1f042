// `rlm ask` end to end: the built dist/cli.js against each fake server, through the real SDKs and the
// real REPL; --json must match the trajectory's totals; Ctrl-C cancels and exits within 2 s.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrajectory } from '../../../src/core/trajectory/trajectoryReader';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeProtocol } from '../../../src/eval/fakeServers/fakeServerTypes';


function turnOf(request: FakeModelRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

function script(request: FakeModelRequest): string {
  if (!request.system?.includes('persistent Python REPL')) return `summary of ${request.messages[0]?.content.length} chars`;
  if (turnOf(request) === 0) return '```repl\nparts = llm_query_batched([context[:20], context[20:40]])\nprint(parts)\n```';
  return '```repl\nFINAL("The file mentions " + str(len(parts)) + " parts")\n```';
}



describe('rlm ask (dist/cli.js)', () => {
  let dir: string;
  const servers: FakeModelServer[] = [];
  before(() => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-cli-'));
    // Longer than the 200-character prefix the root may see, so the tail must never reach it.
    writeFileSync(join(dir, 'notes.txt'), `Alpha section. Beta section. ${'Filler words. '.repeat(30)}Gamma section ends here.\n`);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const protocol of ['openai', 'anthropic'] as FakeProtocol[]) {
    it(`answers against the fake ${protocol} server, and --json matches the trajectory totals`, async () => {
      const server = await startFakeModelServer({ protocol, respond: script });
      servers.push(server);
      const trajectory = join(dir, `${protocol}.rlm.jsonl`);
      const out = await runCli(
        ['ask', 'notes.txt', '-q', 'How many parts?', '--provider', protocol, '--base-url', server.baseUrl, '--model', 'fake-model', '--json', '--trajectory', trajectory],
        dir,
        {},
      );
      assert.equal(out.code, 0, out.stderr);
      const json = JSON.parse(out.stdout) as Record<string, unknown>;
      assert.deepEqual(Object.keys(json), ['answer', 'status', 'forced', 'references', 'unresolvedReferences', 'usage', 'subCalls', 'iterations', 'trajectory']);
      assert.equal(json.answer, 'The file mentions 2 parts');
      assert.equal(json.status, 'completed');
      assert.equal(json.forced, false);
      assert.equal(json.subCalls, 2);
      assert.equal(json.iterations, 2);
      assert.equal(json.trajectory, trajectory);

      const lines = readFileSync(trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const finished = lines.filter((l) => l.type === 'run.finished');
      assert.equal(finished.length, 1);
      const totals = finished[0]!.totals as Record<string, number>;
      assert.deepEqual(json.usage, {
        inputTokens: totals.inputTokens,
        outputTokens: totals.outputTokens,
        costUsd: totals.costUsd,
        cacheReadTokens: totals.cacheReadTokens ?? 0,
        cacheWriteTokens: totals.cacheWriteTokens ?? 0,
        savedUsd: totals.savedUsd ?? 0,
        cachedSubCalls: totals.cachedSubCalls ?? 0,
      });
      assert.equal(json.subCalls, totals.subCalls);
      assert.equal(json.iterations, totals.iterations);
      const read = await readTrajectory(trajectory);
      assert.deepEqual(read.problems, []);
      assert.equal(read.tree?.status, 'completed');
      assert.equal(read.tree?.totals.inputTokens, totals.inputTokens);
      assert.equal(read.tree?.totals.outputTokens, totals.outputTokens);
      assert.equal(read.tree?.totals.subCalls, totals.subCalls);
      // The real SDK reached the fake server: the root saw metadata, never the file text.
      const rootBodies = server.completionRequests.filter((r) => r.parsed?.system).map((r) => r.rawBody);
      assert.ok(rootBodies.length === 2 && rootBodies.every((b) => !b.includes('Gamma section ends here')));
    });
  }

  it('prints the plain answer on stdout without --json', async () => {
    const server = await startFakeModelServer({ protocol: 'openai', respond: script });
    servers.push(server);
    const out = await runCli(['ask', 'notes.txt', '-q', 'How many parts?', '--base-url', server.baseUrl, '--model', 'm', '--quiet'], dir, {});
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'The file mentions 2 parts\n');
    assert.equal(out.stderr, '');
  });

  it('cancels on Ctrl-C: the trajectory is closed as cancelled and the process exits without waiting for the cell', async () => {
    const server = await startFakeModelServer({ protocol: 'openai', respond: () => '```repl\nimport time\nprint("sleeping", flush=True)\ntime.sleep(60)\n```' });
    servers.push(server);
    const trajectory = join(dir, 'cancelled.rlm.jsonl');
    let signalledAt = 0;
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', '--base-url', server.baseUrl, '--model', 'm', '--verbose', '--trajectory', trajectory], dir, {}, (text, child) => {
      if (signalledAt === 0 && /turn 1/.test(text)) {
        signalledAt = -1;
        setTimeout(() => {
          signalledAt = Date.now();
          child.kill('SIGINT');
        }, 700);
      }
    });
    const exitMs = Date.now() - signalledAt;
    assert.ok(signalledAt > 0, out.stderr);
    assert.equal(out.code, 130, out.stderr);
    // The cell sleeps 60 s; the margin absorbs a loaded machine.
    assert.ok(exitMs < 5000, `exited ${exitMs} ms after Ctrl-C`);
    const last = JSON.parse(readFileSync(trajectory, 'utf8').trim().split('\n').at(-1)!) as { type: string; status: string };
    assert.equal(last.type, 'run.finished');
    assert.equal(last.status, 'cancelled');
    assert.match(out.stderr, /cancelled/);
  });

  it('exits at once on a second Ctrl-C', async () => {
    const server = await startFakeModelServer({ protocol: 'openai', respond: () => '```repl\nimport time\ntime.sleep(60)\n```' });
    servers.push(server);
    let signalledAt = 0;
    const out = await runCli(['ask', 'notes.txt', '-q', 'q', '--base-url', server.baseUrl, '--model', 'm', '--verbose', '--trajectory', join(dir, 'twice.rlm.jsonl')], dir, {}, (text, child) => {
      if (signalledAt === 0 && /turn 1/.test(text)) {
        signalledAt = Date.now();
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 20);
      }
    });
    assert.equal(out.code, 130, out.stderr);
    // The cell sleeps 60 s: exiting well before shows the second Ctrl-C did not wait for it.
    assert.ok(Date.now() - signalledAt < 30_000);
  });

  it('a sub-call limit mid-cell: per-item limit errors, one last turn, and the answer (exit 0), or no answer and labelled partial findings (exit 3)', async () => {
    const answers = await startFakeModelServer({
      protocol: 'openai',
      respond: (r) => {
        if (!r.system?.includes('persistent Python REPL')) return 'ok';
        const last = r.messages.at(-1)?.content ?? '';
        if (/This is your last turn/.test(last)) return r.messages[0]?.content.includes('stubborn') ? '```repl\nprint("still no answer")\n```' : '```repl\nFINAL(f"{answered} of 17 answered")\n```';
        return '```repl\nrs = llm_query_batched(["q"] * 17)\nanswered = sum(not x.startswith("[ERROR] limit:") for x in rs)\nprint(answered, "answered")\n```';
      },
    });
    servers.push(answers);
    const common = ['--provider', 'openai', '--base-url', answers.baseUrl, '--model', 'fake-model', '--max-sub-calls', '5'];
    const ok = await runCli(['ask', 'notes.txt', '-q', 'How many?', ...common, '--trajectory', join(dir, 'limit-ok.rlm.jsonl')], dir, {});
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, '5 of 17 answered\n');
    assert.match(ok.stderr, /Sub-call limit reached: 5 of 5; the answer above was given in the last turn it allowed/);
    const stubborn = await runCli(['ask', 'notes.txt', '-q', 'stubborn: how many?', ...common, '--trajectory', join(dir, 'limit-no.rlm.jsonl')], dir, {});
    assert.equal(stubborn.code, 3, stubborn.stderr);
    assert.equal(stubborn.stdout, '', 'a printout is never printed as the answer');
    assert.match(stubborn.stderr, /rlm ask: limit: Sub-call limit reached: 5 of 5; no answer/);
    assert.match(stubborn.stderr, /partial findings \(the run's last output, not an answer\):\nstill no answer/);
    const json = await runCli(['ask', 'notes.txt', '-q', 'stubborn again', ...common, '--json', '--trajectory', join(dir, 'limit-json.rlm.jsonl')], dir, {});
    const parsed = JSON.parse(json.stdout) as { answer: unknown; status: string; partial: string; error: { kind: string; limit: string } };
    assert.equal(parsed.answer, null);
    assert.equal(parsed.status, 'limit');
    assert.equal(parsed.partial, 'still no answer');
    assert.deepEqual([parsed.error.kind, parsed.error.limit], ['limit', 'subCalls']);
  });

  it('fails with a one-line reason: no key for a remote endpoint, a missing path, bad flags', async () => {
    const noKey = await runCli(['ask', 'notes.txt', '-q', 'q', '--model', 'gpt-4.1-mini'], dir, {});
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /^rlm ask: no API key for openai model gpt-4\.1-mini: set the OPENAI_API_KEY environment variable/);
    assert.equal(noKey.stderr.trim().split('\n').length, 1);
    const missing = await runCli(['ask', 'nope.txt', '-q', 'q', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], dir, {});
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.txt: no such file or folder/);
    const usage = await runCli(['ask', 'notes.txt'], dir, {});
    assert.equal(usage.code, 2);
    const help = await runCli(['--help'], dir, {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /rlm ask <path>/);
    const askHelp = await runCli(['ask', '--help'], dir, {});
    assert.match(askHelp.stdout, /--max-sub-calls/);
  });
});
