// The host side of the trajectory protocol (TrajectorySession), driven through its front door with
// real run trees, as the webview would drive it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostToWebview, UserCellState } from '../../../src/shared/trajectoryProtocol';
import { PAGE, TRAJECTORY_PROTOCOL_VERSION } from '../../../src/shared/trajectoryProtocol';
import type { RunNode } from '../../../src/core/trajectory/treeTypes';
import { TrajectorySession, type SessionActions } from '../../../src/vscode/trajectory/trajectorySession';
import { syntheticRun } from '../webview/trajectory/runFixtures';

function harness(root: RunNode, options: { live?: boolean; stop?: () => void } = {}) {
  const posted: HostToWebview[] = [];
  const copied: string[] = [];
  const exported: string[] = [];
  const actions: SessionActions = {
    stop: options.stop,
    exportAs: async (format) => void exported.push(format),
    copyText: async (text) => void copied.push(text),
  };
  const session = new TrajectorySession({
    post: (m) => posted.push(m),
    root: () => root,
    info: () => ({ source: 'a.rlm.jsonl', format: 'rlm', problems: { count: 0, first: [] } }),
    isLive: () => options.live ?? false,
    actions,
  });
  const last = <T extends HostToWebview['type']>(type: T): Extract<HostToWebview, { type: T }> => {
    const found = [...posted].reverse().find((m) => m.type === type);
    assert.ok(found, `no ${type} message was posted`);
    return found as Extract<HostToWebview, { type: T }>;
  };
  return { session, posted, copied, exported, last, ready: () => session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION }) };
}

describe('TrajectorySession', () => {
  const big = syntheticRun({ cells: 450, subCallsPerCell: 2 });

  it('answers ready with the header and only the first outline chunk', async () => {
    const h = harness(big);
    await h.ready();
    const state = h.last('state');
    assert.equal(state.turnCount, 450);
    assert.equal(state.outline.length, PAGE.outlineFirstChunk);
    assert.equal(state.header.iterations, 450);
    assert.equal(state.header.totals.subCalls, 900);
    assert.equal(state.header.status, 'completed');
    assert.equal(state.header.answer?.text, '42 distinct errors');
    assert.deepEqual(state.firstTurns.map((t) => t.index), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'the first page comes with the state');
    assert.ok(JSON.stringify(state).length < 200_000, 'the first message stays small');
  });

  it('sends a live run\'s newest page and whole outline with the state', async () => {
    const run = syntheticRun({ cells: 30 });
    const h = harness(run, { live: true });
    await h.ready();
    const state = h.last('state');
    assert.equal(state.live, true);
    assert.equal(state.outline.length, 30);
    assert.deepEqual(state.firstTurns.map((t) => t.index), [24, 25, 26, 27, 28, 29]);
  });

  it('queues before the handshake: updates are superseded by the state, notices and answers survive', async () => {
    const h = harness(big, { live: true });
    h.session.pushChanges([{ runId: big.runId, changedTurns: [1] }]);
    await h.session.handle({ type: 'stop' }); // not stoppable: produces a notice
    await h.session.handle({ type: 'requestOutline', requestId: 9, runId: big.runId, from: 0, count: 2 });
    assert.equal(h.posted.length, 0, 'nothing is posted before ready');
    await h.ready();
    assert.deepEqual(h.posted.map((m) => m.type), ['state', 'notice', 'outline'], 'answers to early requests are kept');
    // A re-created webview says ready again and gets the full state again.
    await h.ready();
    assert.equal(h.posted.filter((m) => m.type === 'state').length, 2);
  });

  it('does not resend the state the page already carries, unless the run changed since', async () => {
    const h = harness(big, { live: true });
    const { stamp, state } = h.session.embeddedState();
    assert.equal(state.type, 'state');
    assert.equal(state.turnCount, 450);
    await h.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: stamp });
    assert.deepEqual(h.posted.map((m) => m.type), [], 'the embedded state was current');
    h.session.pushChanges([{ runId: big.runId, changedTurns: [449] }]);
    assert.deepEqual(h.posted.map((m) => m.type), ['update'], 'changes after the handshake are pushed');
    // A re-created webview renders the same (now stale) HTML: it gets the full state.
    await h.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: stamp });
    assert.deepEqual(h.posted.map((m) => m.type), ['update', 'state']);
  });

  it('sends the state when the run changed between building the page and its handshake', async () => {
    const h = harness(big, { live: true });
    const { stamp } = h.session.embeddedState();
    h.session.pushChanges([{ runId: big.runId, changedTurns: [3] }]);
    await h.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: stamp });
    assert.deepEqual(h.posted.map((m) => m.type), ['state']);
    // A stamp this session never embedded is not trusted either.
    const other = harness(big);
    await other.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: 0 });
    assert.deepEqual(other.posted.map((m) => m.type), ['state']);
  });

  it('pages turns, outline and text on request, and says when something is missing', async () => {
    const h = harness(big);
    await h.ready();
    await h.session.handle({ type: 'requestTurns', requestId: 7, runId: big.runId, from: 440, count: 20 });
    const turns = h.last('turns');
    assert.equal(turns.requestId, 7);
    assert.deepEqual(turns.turns.map((t) => t.index), [440, 441, 442, 443, 444, 445, 446, 447, 448, 449]);
    const cell = turns.turns[0]!.cells[0]!;
    assert.ok(cell.code.text.startsWith('chunks = split(context, 441)'));
    await h.session.handle({ type: 'requestOutline', requestId: 8, runId: big.runId, from: 200, count: 1000 });
    const outline = h.last('outline');
    assert.equal(outline.outline.length, 250);
    assert.equal(outline.outline[0]!.index, 200);
    await h.session.handle({ type: 'requestText', requestId: 9, ref: { kind: 'stdout', runId: big.runId, cellId: cell.cellId }, offset: 10, length: 20 });
    const text = h.last('text');
    assert.equal(text.text, big.turns[440]!.cells[0]!.stdout!.slice(10, 30));
    assert.equal(text.totalChars, big.turns[440]!.cells[0]!.stdout!.length);
    await h.session.handle({ type: 'requestTurns', requestId: 10, runId: 'nope', from: 0, count: 1 });
    assert.match(h.last('requestFailed').message, /No run nope/);
    await h.session.handle({ type: 'requestText', requestId: 11, ref: { kind: 'prompt', runId: big.runId, callId: 'missing' }, offset: 0, length: 5 });
    assert.equal(h.last('requestFailed').requestId, 11);
  });

  it('keeps a page small when a cell made many calls, and gives the whole cell on request', async () => {
    const run = syntheticRun({ cells: 1, subCallsPerCell: PAGE.maxSubCallsPerCell + 50 });
    const h = harness(run);
    await h.ready();
    const cell = h.last('state').firstTurns[0]!.cells[0]!;
    assert.equal(cell.subCalls.length, PAGE.maxSubCallsPerCell);
    assert.equal(cell.subCallsOmitted, 50);
    await h.session.handle({ type: 'requestCell', requestId: 5, runId: run.runId, cellId: cell.cellId });
    const full = h.last('cell');
    assert.equal(full.cell.subCalls.length, PAGE.maxSubCallsPerCell + 50);
    assert.equal(full.cell.subCallsOmitted, undefined);
    await h.session.handle({ type: 'requestCell', requestId: 6, runId: run.runId, cellId: 'nope' });
    assert.match(h.last('requestFailed').message, /No cell nope/);
  });

  it('caps a text page at the protocol page size', async () => {
    const run = syntheticRun({ cells: 1, outputChars: PAGE.textPageChars * 2 + 5 });
    const h = harness(run);
    await h.ready();
    const cellId = run.turns[0]!.cells[0]!.cellId;
    await h.session.handle({ type: 'requestText', requestId: 1, ref: { kind: 'stdout', runId: run.runId, cellId }, offset: 0, length: 10_000_000 });
    assert.equal(h.last('text').text.length, PAGE.textPageChars);
  });

  it('serves child runs nested under rlm_query calls', async () => {
    const run = syntheticRun({ cells: 3, subCallsPerCell: 2, childEvery: 2, childTurns: 2 });
    const h = harness(run);
    await h.ready();
    await h.session.handle({ type: 'requestTurns', requestId: 1, runId: run.runId, from: 0, count: 1 });
    const entry = h.last('turns').turns[0]!.cells[0]!.subCalls[1]!;
    assert.equal(entry.kind, 'call');
    const child = entry.kind === 'call' ? entry.call.child : undefined;
    assert.ok(child, 'the rlm_query call references its child run');
    assert.equal(child.turns, 2);
    await h.session.handle({ type: 'requestRun', requestId: 2, runId: child.runId });
    const answer = h.last('run');
    assert.equal(answer.header.depth, 1);
    assert.equal(answer.outline.length, 2);
    await h.session.handle({ type: 'requestTurns', requestId: 3, runId: child.runId, from: 0, count: 5 });
    assert.equal(h.last('turns').turns.length, 2);
  });

  it('stops a live run, exports and copies full texts through the injected actions', async () => {
    let stopped = 0;
    const run = syntheticRun({ cells: 2 });
    const h = harness(run, { live: true, stop: () => stopped++ });
    await h.ready();
    await h.session.handle({ type: 'stop' });
    assert.equal(stopped, 1);
    await h.session.handle({ type: 'export', format: 'markdown' });
    assert.deepEqual(h.exported, ['markdown']);
    await h.session.handle({ type: 'copy', ref: { kind: 'answer', runId: run.runId } });
    await h.session.handle({ type: 'copy', ref: { kind: 'code', runId: run.runId, cellId: run.turns[1]!.cells[0]!.cellId } });
    assert.deepEqual(h.copied, ['42 distinct errors', run.turns[1]!.cells[0]!.code]);
  });

  it('answers an invalid message with an error notice instead of throwing', async () => {
    const h = harness(syntheticRun({ cells: 1 }));
    await h.ready();
    await h.session.handle({ type: 'requestTurns', requestId: 'x' });
    assert.match(h.last('notice').message, /requestId/);
    await h.session.handle({ type: 'copy', ref: { kind: 'answer', runId: 'ghost' } });
    assert.match(h.last('notice').message, /Nothing to copy/);
  });

  it('searches the tree and returns excerpts', async () => {
    const run = syntheticRun({ cells: 30, subCallsPerCell: 1 });
    const h = harness(run);
    await h.ready();
    await h.session.handle({ type: 'search', requestId: 4, query: 'split(context, 22)', filters: { errorsOnly: false } });
    const result = h.last('searchResults');
    // Found once, in the cell's code: the same text in the reasoning's executed block is not repeated.
    assert.equal(result.total, 1);
    assert.equal(result.hits[0]!.where, 'code');
    assert.equal(result.hits[0]!.rootTurnIndex, 21);
    assert.match(result.hits[0]!.excerpt, /split\(context, 22\)/);
  });

  it('pushes live changes with the outline from the first changed turn', async () => {
    const run = syntheticRun({ cells: 5 });
    const h = harness(run, { live: true });
    await h.ready();
    h.session.pushChanges([{ runId: run.runId, changedTurns: [4, 3, 4] }]);
    const update = h.last('update');
    assert.equal(update.outlineFrom, 3);
    assert.deepEqual(update.outline.map((s) => s.index), [3, 4]);
    assert.deepEqual(update.changedTurns, [3, 4]);
    assert.equal(update.live, true);
    h.session.pushStreaming(run.runId, 4, 'partial');
    assert.deepEqual(h.last('streaming'), { type: 'streaming', runId: run.runId, turnIndex: 4, text: 'partial' });
  });
});

describe('TrajectorySession: the user\'s cell input', () => {
  it('tells the view the input\'s state after ready and on changes, runs and stops cells, and refuses bad ones', async () => {
    const posted: HostToWebview[] = [];
    let state: UserCellState = { status: 'waiting', reason: 'the run is going' };
    const ran: string[] = [];
    let stopped = 0;
    const session = new TrajectorySession({
      post: (m) => posted.push(m),
      root: () => syntheticRun({ cells: 2 }),
      info: () => ({ source: 'live', format: 'live', problems: { count: 0, first: [] } }),
      isLive: () => false,
      actions: {
        exportAs: async () => undefined,
        copyText: async () => undefined,
        userCell: { state: () => state, run: async (code) => void ran.push(code), stop: () => void stopped++ },
      },
    });
    session.pushUserCellState();
    assert.equal(posted.length, 0, 'nothing goes out before the handshake');
    await session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
    assert.deepEqual(posted.at(-1), { type: 'userCell', state: { status: 'waiting', reason: 'the run is going' } });
    state = { status: 'ready' };
    session.pushUserCellState();
    assert.deepEqual(posted.at(-1), { type: 'userCell', state: { status: 'ready' } });
    await session.handle({ type: 'runUserCell', code: 'print(len(context))' });
    await session.handle({ type: 'stopUserCell' });
    assert.deepEqual(ran, ['print(len(context))']);
    assert.equal(stopped, 1);
    await session.handle({ type: 'runUserCell', code: 42 });
    assert.equal(posted.at(-1)?.type, 'notice', 'a malformed cell is refused with a notice');
    assert.deepEqual(ran, ['print(len(context))']);
  });

  it('says so when a view has no cell input', async () => {
    const h = harness(syntheticRun({ cells: 1 }));
    await h.ready();
    await h.session.handle({ type: 'runUserCell', code: 'x = 1' });
    const notice = h.last('notice');
    assert.match(notice.message, /not available/);
  });
});
