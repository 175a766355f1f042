// References in the trajectory view's protocol: the header carries them (resolved and not), the view
// opens one by index (never by a path it names), and a large file's slice is the lines around the line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostToWebview } from '../../../src/shared/trajectoryProtocol';
import { TRAJECTORY_PROTOCOL_VERSION } from '../../../src/shared/trajectoryProtocol';
import type { Reference } from '../../../src/core/trajectory/events';
import { TrajectorySession } from '../../../src/vscode/trajectory/trajectorySession';
import { syntheticRun } from '../webview/trajectory/runFixtures';

describe('references in the trajectory view', () => {
  const run = syntheticRun({ cells: 2 });
  run.references = [{ path: 'src/a.ts', line: 3, text: '<b>not markup</b>' }, { path: 'big.log', line: 9000, endLine: 9002, text: 'x' }];
  run.unresolvedReferences = [{ citation: 'nope.ts:1', path: 'nope.ts', line: 1, reason: 'unknown-path', detail: 'no file nope.ts in the context' }];
  run.continuedFrom = { mode: 'fork', runId: 'run-parent', question: 'How many\n errors?', fromTurn: 2, allowDivergence: false, trajectory: 'parent.rlm.jsonl' };

  function harness() {
    const posted: HostToWebview[] = [];
    const opened: Reference[] = [];
    const session = new TrajectorySession({
      post: (m) => posted.push(m),
      root: () => run,
      info: () => ({ source: 'a.rlm.jsonl', format: 'rlm', problems: { count: 0, first: [] } }),
      isLive: () => false,
      actions: { exportAs: async () => undefined, copyText: async () => undefined, openReference: async (r) => void opened.push(r) },
    });
    return { session, posted, opened };
  }

  it('the header lists resolved and unresolved references and where the run was forked from', async () => {
    const h = harness();
    await h.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
    const state = h.posted.find((m) => m.type === 'state');
    assert.ok(state && state.type === 'state');
    assert.deepEqual(state.header.references, run.references);
    assert.deepEqual(state.header.unresolvedReferences, [{ citation: 'nope.ts:1', reason: 'unknown-path', detail: 'no file nope.ts in the context' }]);
    // Named by its question, not by its file's path; the view offers it as a link.
    assert.deepEqual(state.header.continuedFrom, { relation: 'Forked at turn 2 from', question: 'How many errors?', openable: true });
  });

  it('openParent opens the parent by the file the record names, and only when the record names one', async () => {
    const opened: string[] = [];
    const session = new TrajectorySession({
      post: () => undefined,
      root: () => run,
      info: () => ({ source: 'a.rlm.jsonl', format: 'rlm', problems: { count: 0, first: [] } }),
      isLive: () => false,
      actions: { exportAs: async () => undefined, copyText: async () => undefined, openParent: async (path) => void opened.push(path) },
    });
    await session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
    await session.handle({ type: 'openParent' });
    assert.deepEqual(opened, ['parent.rlm.jsonl']);
    const orphan = { ...run, continuedFrom: { ...run.continuedFrom!, trajectory: undefined } };
    const notices: HostToWebview[] = [];
    const other = new TrajectorySession({ post: (m) => notices.push(m), root: () => orphan, info: () => ({ source: 'b', format: 'rlm', problems: { count: 0, first: [] } }), isLive: () => false, actions: { exportAs: async () => undefined, copyText: async () => undefined, openParent: async (path) => void opened.push(path) } });
    await other.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
    await other.handle({ type: 'openParent' });
    assert.equal(opened.length, 1, 'nothing opened without a file');
    assert.ok(notices.some((m) => m.type === 'notice' && /does not say which recorded file/.test(m.message)));
  });

  it('opens a reference by its index; an index past the list or a message naming a path is refused', async () => {
    const h = harness();
    await h.session.handle({ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION });
    await h.session.handle({ type: 'openReference', runId: run.runId, index: 1 });
    assert.deepEqual(h.opened, [run.references![1]]);
    await h.session.handle({ type: 'openReference', runId: run.runId, index: 7 });
    await h.session.handle({ type: 'openReference', runId: run.runId, path: '/etc/passwd' });
    assert.equal(h.opened.length, 1);
    const notices = h.posted.filter((m) => m.type === 'notice').map((m) => (m.type === 'notice' ? m.message : ''));
    assert.match(notices[0]!, /No reference 8/);
    assert.match(notices[1]!, /`index` must be a non-negative integer/);
  });
});
