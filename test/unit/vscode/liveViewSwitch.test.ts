// Issue 31: a view opens as its question is asked ("starting", before the run exists) and moves on to
// the run, or a conversation's view to its follow-up, by a state message to the running page (no
// reload). The host side of that move, and the header a starting view shows, driven as the page would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostToWebview } from '../../../src/shared/trajectoryProtocol';
import { TRAJECTORY_PROTOCOL_VERSION } from '../../../src/shared/trajectoryProtocol';
import type { RunNode } from '../../../src/core/trajectory/treeTypes';
import { emptyRunningRun } from '../../../src/vscode/trajectory/liveFeed';
import { headerView } from '../../../src/vscode/trajectory/runHeaderProjection';
import type { RunSourceInfo } from '../../../src/vscode/trajectory/runProjection';
import { TrajectorySession } from '../../../src/vscode/trajectory/trajectorySession';
import { syntheticRun } from '../webview/trajectory/runFixtures';

const starting = (): RunNode => {
  const node = emptyRunningRun('starting-1', 1000);
  node.question = 'Which lines mention alpha?';
  return node;
};
const startingInfo: RunSourceInfo = { source: 'live', format: 'live', problems: { count: 0, first: [] }, rootModel: 'gpt-root', subModel: 'gpt-sub', target: 'file notes.txt (1 file, 24 B)' };

function viewOf(first: { root: RunNode; info: RunSourceInfo }) {
  let shown = first;
  const posted: HostToWebview[] = [];
  const session = new TrajectorySession({
    post: (m) => posted.push(m),
    root: () => shown.root,
    info: () => shown.info,
    isLive: () => shown.root.status === 'running',
    actions: { exportAs: async () => undefined, copyText: async () => undefined },
  });
  return {
    session,
    posted,
    moveTo(next: { root: RunNode; info: RunSourceInfo }) {
      shown = next;
      session.pushState();
    },
    ready: (embedded?: number) => session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, ...(embedded !== undefined ? { embedded } : {}) }),
  };
}

test('a starting view names the question, the models and the target, and no cost, before its run records any of them', () => {
  const header = headerView(starting(), startingInfo);
  assert.equal(header.question.text, 'Which lines mention alpha?');
  assert.equal(header.rootModel, 'gpt-root');
  assert.equal(header.subModel, 'gpt-sub');
  assert.equal(header.target, 'file notes.txt (1 file, 24 B)');
  assert.equal(header.outcome.headline, 'Starting');
  assert.equal(header.totals.costUsd, 0, 'nothing charged: the view words it "no cost yet" (costText)');
  assert.equal(header.status, 'running');
});

test('once the run records its models and target, the header shows the recorded ones', () => {
  const run = syntheticRun({ cells: 2 });
  const header = headerView(run, startingInfo);
  assert.notEqual(header.target, startingInfo.target, 'the recorded target wins');
  assert.equal(header.subModel, run.config?.sub.model ?? startingInfo.subModel);
});

test('moving a ready view on to its run posts the run\'s whole state to the page, nothing else needed', async () => {
  const view = viewOf({ root: starting(), info: startingInfo });
  const stamp = view.session.embeddedState().stamp;
  await view.ready(stamp);
  assert.equal(view.posted.filter((m) => m.type === 'state').length, 0, 'the page carried the starting state itself');
  const run = syntheticRun({ cells: 3 });
  view.moveTo({ root: run, info: { source: '/tmp/r.rlm.jsonl', format: 'live', problems: { count: 0, first: [] } } });
  const state = view.posted.filter((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state');
  assert.equal(state.length, 1);
  assert.equal(state[0]!.header.runId, run.runId);
  assert.equal(state[0]!.turnCount, 3);
  assert.equal(state[0]!.header.source, '/tmp/r.rlm.jsonl');
});

test('a view moved on before its page said ready gets the new run in the answer to ready, not the embedded one', async () => {
  const view = viewOf({ root: starting(), info: startingInfo });
  const stamp = view.session.embeddedState().stamp;
  const run = syntheticRun({ cells: 2 });
  view.moveTo({ root: run, info: startingInfo });
  assert.equal(view.posted.length, 0, 'nothing is posted to a page that is not ready');
  await view.ready(stamp);
  const state = view.posted.find((m): m is Extract<HostToWebview, { type: 'state' }> => m.type === 'state');
  assert.equal(state?.header.runId, run.runId, 'the page\'s embedded state is stale: the host sends the run');
});
