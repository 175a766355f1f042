// `rlm ask --json` references, and `rlm continue` / `--from-turn` end to end: the built dist/cli.js, the
// real REPL and SDKs, a fake model server. A continued needle run answers from the replayed variables
// with no sub-call sent; a fork takes another path from turn 2; a changed file is a divergence.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrajectory } from '../../../src/core/trajectory/trajectoryReader';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');
const turnOf = (r: FakeModelRequest): number => r.messages.filter((m) => m.role === 'assistant').length;
const NEEDLE_LINE = 3001;

/** The recorded run: find the needle, have a sub model read it, answer citing it (and one line that is not there). */
function original(r: FakeModelRequest): string {
  if (!isRoot(r)) return 'The secret is the number 4242.';
  if (turnOf(r) === 0) return 'Let me look.\n```repl\nhits = search(r"secret code")\nsummary = llm_query("What does this say? " + hits[0]["text"])\nprint(hits[0]["line"], summary)\nprint(hits[0]["text"])\n```';
  return '```repl\nFINAL(f"The code is 4242 (needle.txt:{hits[0][\'line\']}, see also needle.txt:{hits[0][\'line\'] - 1}-{hits[0][\'line\']} and needle.txt:99999).")\n```';
}

/** The follow-up: uses the variables the replay restored, asks no sub model. */
function followUp(r: FakeModelRequest): string {
  if (!isRoot(r)) return 'SHOULD NOT BE ASKED';
  if (turnOf(r) === 0) return '```repl\nprint(repr(summary), hits[0]["line"])\n```';
  return '```repl\nFINAL("From the earlier run: " + summary + f" (context:{hits[0][\'line\']})")\n```';
}

/** A fork at turn 2: the root goes another way (counts hits) instead of answering. */
function forked(r: FakeModelRequest): string {
  if (!isRoot(r)) return 'SHOULD NOT BE ASKED';
  if (turnOf(r) === 1) return '```repl\ncount = len(search(r"filler", max_hits=10000))\nprint(count)\n```';
  return '```repl\nFINAL(f"Forked: {count} filler lines, and {summary}")\n```';
}

function writeNeedle(dir: string, secret: string): void {
  const lines: string[] = [];
  for (let i = 1; i <= 5000; i++) lines.push(i === NEEDLE_LINE ? `the secret code is ${secret}` : `filler line ${i}`);
  writeFileSync(join(dir, 'needle.txt'), `${lines.join('\n')}\n`);
}

describe('rlm ask references and rlm continue (dist/cli.js)', () => {
  let dir: string;
  const servers: FakeModelServer[] = [];
  let record: string;
  const start = async (respond: (r: FakeModelRequest) => string): Promise<FakeModelServer> => {
    const server = await startFakeModelServer({ protocol: 'openai', respond });
    servers.push(server);
    return server;
  };
  const subRequests = (server: FakeModelServer): number => server.completionRequests.filter((r) => !r.parsed?.system?.includes('persistent Python REPL')).length;

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-continue-'));
    writeNeedle(dir, '4242');
    const server = await start(original);
    record = join(dir, 'needle.rlm.jsonl');
    const out = await runCli(['ask', 'needle.txt', '-q', 'What is the secret code?', '--base-url', server.baseUrl, '--model', 'fake-root', '--json', '--trajectory', record], dir);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    assert.deepEqual(json.references, [
      { path: 'needle.txt', line: NEEDLE_LINE, text: 'the secret code is 4242' },
      { path: 'needle.txt', line: NEEDLE_LINE - 1, endLine: NEEDLE_LINE, text: `filler line ${NEEDLE_LINE - 1}\nthe secret code is 4242` },
    ]);
    assert.deepEqual(
      (json.unresolvedReferences as Array<Record<string, unknown>>).map((u) => [u.citation, u.reason, u.detail]),
      [['needle.txt:99999', 'line-out-of-range', 'needle.txt has 5000 lines']],
    );
    assert.equal(subRequests(server), 1);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the references in the trajectory, and the reader rebuilds them', async () => {
    const read = await readTrajectory(record);
    assert.deepEqual(read.problems, []);
    assert.equal(read.tree?.references?.[0]?.line, NEEDLE_LINE);
    assert.equal(read.tree?.unresolvedReferences?.[0]?.reason, 'line-out-of-range');
    // The coverage strip's data: the needle line was printed, and it and the line before were cited.
    const coverage = read.tree?.coverage;
    assert.equal(coverage?.totalLines, 5000);
    assert.equal(coverage?.seenLines, 1);
    assert.equal(coverage?.citedLines, 2);
    const bucket = coverage!.buckets[Math.floor(((NEEDLE_LINE - 1) * coverage!.buckets.length) / 5000)]!;
    assert.equal(bucket.cell, 1);
    assert.ok(bucket.cited >= 1);
  });

  it('continue: replays the cells, answers the follow-up from the replayed variables, and sends no sub-call', async () => {
    const server = await start(followUp);
    const next = join(dir, 'follow-up.rlm.jsonl');
    const out = await runCli(['continue', record, '-q', 'What did the sub model say?', '--base-url', server.baseUrl, '--model', 'follow-up-model', '--json', '--trajectory', next], dir);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    assert.equal(json.answer, `From the earlier run: The secret is the number 4242. (context:${NEEDLE_LINE})`);
    assert.equal(json.subCalls, 0);
    assert.equal(subRequests(server), 0);
    assert.deepEqual(json.parent, { trajectory: record, runId: (await readTrajectory(record)).tree!.runId, mode: 'continue' });
    assert.deepEqual(json.references, [{ path: 'needle.txt', line: NEEDLE_LINE, text: 'the secret code is 4242' }]);
    // The root was told the earlier question and answer and which variables it has; it is the model given now.
    const first = server.completionRequests[0]!.parsed!;
    assert.equal(first.model, 'follow-up-model');
    assert.match(first.messages[0]!.content, /Q: What is the secret code\?/);
    assert.match(first.messages[0]!.content, /its 2 cells were run again.*\bhits\b.*\bsummary\b/s);

    const read = await readTrajectory(next);
    assert.deepEqual(read.problems, []);
    const run = read.tree!;
    assert.equal(run.continuedFrom?.mode, 'continue');
    assert.equal(run.continuedFrom?.trajectory, record);
    assert.deepEqual(run.turns.map((t) => [t.turn, !!t.replayed]), [[1, true], [2, true], [3, false], [4, false]]);
    const replayedCalls = run.turns.flatMap((t) => t.cells.flatMap((c) => c.subCalls));
    assert.equal(replayedCalls.length, 1);
    assert.equal(replayedCalls[0]!.replayed, true);
    assert.equal(replayedCalls[0]!.response, 'The secret is the number 4242.');
    assert.equal(run.totals.costUsd ?? 0, 0);
  });

  it('fork from turn 2: turn 1 is replayed, the root takes over at turn 2 and takes another path', async () => {
    const server = await start(forked);
    const next = join(dir, 'fork.rlm.jsonl');
    const out = await runCli(['continue', record, '--from-turn', '2', '--base-url', server.baseUrl, '--model', 'fork-model', '--json', '--trajectory', next], dir);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    assert.equal(json.answer, 'Forked: 4999 filler lines, and The secret is the number 4242.');
    assert.equal(subRequests(server), 0);
    // The root saw turn 1 as its own history: its code and the replayed observation.
    const first = server.completionRequests[0]!.parsed!;
    assert.equal(first.model, 'fork-model');
    assert.match(first.messages[0]!.content, /Question: What is the secret code\?/);
    assert.match(first.messages[1]!.content, /hits = search/);
    assert.match(first.messages[2]!.content, new RegExp(`${NEEDLE_LINE} The secret is the number 4242`));
    const run = (await readTrajectory(next)).tree!;
    assert.equal(run.continuedFrom?.mode, 'fork');
    assert.equal(run.continuedFrom?.fromTurn, 2);
    assert.deepEqual(run.turns.map((t) => [t.turn, !!t.replayed]), [[1, true], [2, false], [3, false]]);
    assert.match(run.turns[1]!.cells[0]!.code, /filler/);
  });

  it('a changed file is a divergence: the run stops (exit 1) unless --allow-divergence', async () => {
    const copy = join(dir, 'changed');
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy);
    writeNeedle(copy, '9999');
    const server = await start(followUp);
    const stopped = join(dir, 'diverged.rlm.jsonl');
    const out = await runCli(['continue', record, '-q', 'Again?', '--context', join(copy, 'needle.txt'), '--base-url', server.baseUrl, '--model', 'm', '--trajectory', stopped], dir);
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stderr, /diverged from the record at turn 1: llm_query was asked a prompt the record does not have: "What does this say\? the secret code is 9999"/);
    assert.match(out.stderr, /--allow-divergence/);
    assert.equal(server.completionRequests.length, 0);
    const lines = readFileSync(stopped, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const diverged = lines.find((l) => l.type === 'replay.diverged');
    assert.equal(diverged?.kind, 'subcall');
    // The replayed cell's output is the parent's, never this run's partial findings.
    assert.doesNotMatch(out.stderr, /partial findings/);
    assert.equal(diverged?.continued, false);

    const allowed = await runCli(['continue', record, '-q', 'Again?', '--context', join(copy, 'needle.txt'), '--allow-divergence', '--base-url', server.baseUrl, '--model', 'm', '--json', '--trajectory', join(dir, 'allowed.rlm.jsonl')], dir);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match((JSON.parse(allowed.stdout) as { answer: string }).answer, /From the earlier run/);
  });

  it('refuses a fork past the record, and a missing follow-up question, as usage errors', async () => {
    const past = await runCli(['continue', record, '--from-turn', '9', '--base-url', 'http://127.0.0.1:9', '--model', 'm'], dir);
    assert.equal(past.code, 2);
    assert.match(past.stderr, /has 2 turns; --from-turn can be at most 3/);
    const noQuestion = await runCli(['continue', record], dir);
    assert.equal(noQuestion.code, 2);
    assert.match(noQuestion.stderr, /missing the follow-up question/);
  });
});
