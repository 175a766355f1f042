import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidViewMessageError, parseWebviewMessage } from '../../../src/shared/trajectoryProtocolGuards';
import { TRAJECTORY_PROTOCOL_VERSION } from '../../../src/shared/trajectoryProtocol';

describe('parseWebviewMessage', () => {
  it('accepts every well-formed message type', () => {
    const valid: unknown[] = [
      { type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION },
      { type: 'ready', protocolVersion: TRAJECTORY_PROTOCOL_VERSION, embedded: 4 },
      { type: 'requestTurns', requestId: 1, runId: 'r', from: 0, count: 12 },
      { type: 'requestOutline', requestId: 2, runId: 'r', from: 200, count: 5000 },
      { type: 'requestRun', requestId: 3, runId: 'child' },
      { type: 'requestCell', requestId: 3, runId: 'r', cellId: 'c' },
      { type: 'requestText', requestId: 4, ref: { kind: 'stdout', runId: 'r', cellId: 'c1' }, offset: 0, length: 100 },
      { type: 'requestText', requestId: 5, ref: { kind: 'reasoning', runId: 'r', turnIndex: 3 }, offset: 10, length: 1 },
      { type: 'search', requestId: 6, query: 'x', filters: { errorsOnly: true, model: 'm', depth: 1 } },
      { type: 'stop' },
      { type: 'export', format: 'ipynb' },
      { type: 'copy', ref: { kind: 'prompt', runId: 'r', callId: 'k' } },
    ];
    for (const message of valid) assert.deepEqual(parseWebviewMessage(message), message);
  });

  it('rejects malformed messages with a reason naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /must be an object/],
      ['ready', /must be an object/],
      [{ type: 'nope' }, /unknown message type "nope"/],
      [{ type: 'ready' }, /protocolVersion/],
      [{ type: 'ready', protocolVersion: 1, embedded: -1 }, /embedded/],
      [{ type: 'requestCell', requestId: 1, runId: 'r' }, /`cellId`/],
      [{ type: 'requestTurns', requestId: 1, runId: 'r', from: -1, count: 1 }, /`from`/],
      [{ type: 'requestTurns', requestId: 1, runId: 'r', from: 0, count: 201 }, /`count` must be an integer from 0 to 200$/],
      [{ type: 'requestOutline', requestId: 1, runId: 'r', from: 0, count: 5001 }, /`count` must be an integer from 0 to 5000$/],
      [{ type: 'requestOutline', runId: 'r', from: 0, count: 1 }, /`requestId`/],
      [{ type: 'requestText', requestId: 1, ref: { kind: 'stdout', runId: 'r' }, offset: 0, length: 5 }, /ref.cellId/],
      [{ type: 'requestText', requestId: 1, ref: { kind: 'bogus', runId: 'r' }, offset: 0, length: 5 }, /unknown text kind/],
      [{ type: 'requestText', requestId: 1, ref: { kind: 'answer', runId: 'r' }, offset: 0, length: 0 }, /`length`/],
      [{ type: 'search', requestId: 1, query: 'x', filters: { errorsOnly: 'yes' } }, /errorsOnly/],
      [{ type: 'search', requestId: 1, query: 'x', filters: { errorsOnly: false, depth: 1.5 } }, /filters.depth/],
      [{ type: 'export', format: 'pdf' }, /ipynb/],
    ];
    for (const [raw, reason] of cases) {
      assert.throws(
        () => parseWebviewMessage(raw),
        (error: unknown) => error instanceof InvalidViewMessageError && reason.test(error.message) && error.received === raw,
        `expected ${JSON.stringify(raw)} to be rejected with ${reason}`,
      );
    }
  });

  it('keeps the rules for hostile messages: extra fields ignored, prototype keys inert, sizes and names bounded', () => {
    const extra = { type: 'requestRun', requestId: 1, runId: 'r', newerField: { deep: true } };
    assert.deepEqual(parseWebviewMessage(extra), extra);
    const proto = JSON.parse('{"__proto__":{"requestId":1,"runId":"r"},"type":"requestRun"}') as unknown;
    assert.throws(() => parseWebviewMessage(proto), /`requestId` must be a non-negative integer/);
    assert.equal(({} as Record<string, unknown>).runId, undefined);
    const rejected: Array<[unknown, RegExp]> = [
      [{ type: 'runUserCell', code: 'x'.repeat(200_001) }, /`code` must be a string of at most 200000 characters/],
      [{ type: 'openSetting', setting: 'editor.fontSize' }, /`setting` must be the name of an rlm\.\* setting/],
      [{ type: 'openReference', runId: 'r', index: 1.5 }, /`index` must be a non-negative integer/],
      [{ type: 'requestTurns', requestId: 1, runId: 'r', from: Number.POSITIVE_INFINITY, count: 1 }, /`from`/],
      [{ type: 'copy', ref: 'stdout' }, /`ref` must be an object/],
      [{ type: 'continueRun', fork: 'yes' }, /`fork` must be true or false/],
    ];
    for (const [raw, reason] of rejected) assert.throws(() => parseWebviewMessage(raw), reason, JSON.stringify(raw).slice(0, 80));
    assert.deepEqual(parseWebviewMessage({ type: 'runUserCell', code: 'x'.repeat(200_000) }), { type: 'runUserCell', code: 'x'.repeat(200_000) });
  });
});
