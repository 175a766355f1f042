// The trajectory view's host on a file holding a conversation: the header carries every question and
// answer with its figures and the total, and a follow-up's turns page like the first run's.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostToWebview } from '../../../../src/shared/trajectoryProtocol';
import { TRAJECTORY_PROTOCOL_VERSION } from '../../../../src/shared/trajectoryProtocol';
import { FileLoad } from '../../../../src/vscode/trajectory/fileLoad';
import { TrajectorySession } from '../../../../src/vscode/trajectory/trajectorySession';
import { SESSION_ANSWERS, SESSION_QUESTIONS, referenceSessionLog } from '../../../fixtures/trajectories/referenceSession';
import { tempDir } from '../../core/trajectory/tempDir';

const dir = tempDir('view-conversation');

async function openSession(text: string) {
  const path = join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, text);
  const load = new FileLoad(path, { source: 'log.jsonl', flushMs: 1 });
  await load.done;
  const posted: HostToWebview[] = [];
  const exported: string[] = [];
  const session = new TrajectorySession({
    post: (m) => posted.push(m),
    root: () => load.root(),
    runs: () => load.runs(),
    info: () => load.info(),
    isLive: () => false,
    actions: { exportAs: async (f) => void exported.push(f), copyText: async () => undefined },
  });
  await session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
  return { load, session, posted };
}

describe('a conversation in the trajectory view', () => {
  it('puts every question and answer, each run\'s figures and the total in the header', async () => {
    const { posted } = await openSession(referenceSessionLog());
    const state = posted.find((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.header.question.text, SESSION_QUESTIONS[0]!.prompt);
    const conversation = state.header.conversation!;
    assert.deepEqual(conversation.runs.map((r) => r.question.text), SESSION_QUESTIONS.map((q) => q.prompt));
    assert.deepEqual(conversation.runs.map((r) => r.answer?.text), SESSION_ANSWERS);
    assert.deepEqual(conversation.runs.map((r) => r.iterations), [3, 2, 3, 1, 2, 2]);
    assert.equal(conversation.runs[1]!.totals.inputTokens, 120);
    assert.equal(conversation.totals.inputTokens, 120);
    assert.equal(conversation.totals.subCalls, 1);
    assert.match(conversation.runs[1]!.session!, /REPL kept from question 1 \(found words\)/);
    assert.match(conversation.runs[3]!.session!, /chat turn/);
  });

  it('pages a follow-up\'s turns and texts by its run id', async () => {
    const { session, posted, load } = await openSession(referenceSessionLog());
    const sixth = load.runs()[5]!;
    await session.handle({ type: 'requestTurns', requestId: 7, runId: sixth.runId, from: 0, count: 12 });
    const turns = posted.find((m) => m.type === 'turns' && m.requestId === 7);
    assert.ok(turns?.type === 'turns');
    assert.equal(turns.turns.length, 2);
    assert.match(turns.turns[0]!.cells[0]!.code.text, /y = y \* 3/);
    await session.handle({ type: 'requestText', requestId: 8, ref: { kind: 'answer', runId: sixth.runId }, offset: 0, length: 100 });
    const text = posted.find((m) => m.type === 'text' && m.requestId === 8);
    assert.ok(text?.type === 'text');
    assert.equal(text.text, '21');
  });

  it('a file of one run has no conversation in its header', async () => {
    const { posted } = await openSession(referenceSessionLog(SESSION_QUESTIONS.slice(0, 1)));
    const state = posted.find((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.header.conversation, undefined);
  });
});
