// The webview end of the handshake: the state carried in the page is rendered before `ready`, and
// `ready` tells the host which state that was; without a usable block the host is asked for it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostBridge, type VsCodeApi } from '../../../../webview/trajectory/hostBridge';
import { INITIAL_STATE_ID, TRAJECTORY_PROTOCOL_VERSION } from '../../../../src/shared/trajectoryProtocol';

function fakePage(block?: { stamp: string; text: string }) {
  let removed = false;
  const element = block && {
    dataset: { stamp: block.stamp },
    textContent: block.text,
    remove: () => void (removed = true),
  };
  return {
    page: { getElementById: (id: string) => (id === INITIAL_STATE_ID && element && !removed ? element : null) } as unknown as Document,
    removed: () => removed,
  };
}

function bridge() {
  const posted: unknown[] = [];
  const api: VsCodeApi = { postMessage: (m) => posted.push(m), getState: () => undefined, setState: () => undefined };
  const b = new HostBridge(api, { addEventListener: () => undefined });
  const states: unknown[] = [];
  b.on('state', (m) => states.push(m));
  return { b, posted, states };
}

describe('HostBridge.ready', () => {
  it('echoes the embedded state\'s stamp, then renders that state, and drops the block', () => {
    const state = { type: 'state', header: { runId: 'r' }, outline: [], turnCount: 0, live: false, firstTurns: [] };
    const { b, posted, states } = bridge();
    // Rendering asks for more at once: that request must reach the host after `ready`.
    b.on('state', () => void b.request({ type: 'requestOutline', runId: 'r', from: 0, count: 1 }));
    const page = fakePage({ stamp: '7', text: JSON.stringify(state) });
    b.ready(page.page);
    assert.deepEqual(states, [state]);
    assert.deepEqual(posted.map((m) => (m as { type: string }).type), ['ready', 'requestOutline']);
    posted.pop();
    assert.deepEqual(posted, [{ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: 7 }]);
    assert.ok(page.removed());
  });

  it('asks for the state when the block is missing, unreadable or not a state', () => {
    for (const page of [fakePage(), fakePage({ stamp: '1', text: '{"type":"sta' }), fakePage({ stamp: '1', text: '{"type":"notice"}' }), fakePage({ stamp: 'x', text: '{"type":"state"}' })]) {
      const { b, posted, states } = bridge();
      b.ready(page.page);
      assert.deepEqual(states, []);
      assert.deepEqual(posted, [{ type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION }]);
    }
  });
});
