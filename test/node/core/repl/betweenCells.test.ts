// Nothing of Python runs between cells, even for JavaScript in the worker. The attacker here has every
// JS value (layers 1 and 2 weakened: `import js` is the worker's globalThis, `process` unrestricted) and
// arms a Python callback on every scheduler it can reach, including the `timers` module's own
// setInterval, which the worker's timer tracking (cellTimers.ts) never sees. The worker holds Python's
// GIL only inside its own calls (pythonGate.ts), so none of them enters Python after the cell. The
// control keeps the GIL between cells and shows the same callbacks do run there.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import type { WeakenedLayers } from '../../../../src/core/repl/replProtocol';
import { startSession } from './replTestKit';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Arms `tick` (which counts its runs in `ran`) on each scheduler; prints the count when the cell ends. */
const ARM = `
import js
from pyodide.ffi import create_proxy
ran = []
tick = create_proxy(lambda *a: ran.append(1))
armed = []
for name, arm in [
    ('timers module setInterval', lambda: js.process.getBuiltinModule('timers').setInterval(tick, 5)),
    ('globalThis.setInterval', lambda: js.setInterval(tick, 5)),
    ('setImmediate', lambda: js.setImmediate(tick)),
    ('queueMicrotask', lambda: js.queueMicrotask(tick)),
    ('process.nextTick', lambda: js.process.nextTick(tick)),
    ('MessagePort', lambda: (lambda ch: (setattr(ch.port1, 'onmessage', tick), ch.port2.postMessage(1), ch.port1.unref()))(js.MessageChannel.new())),
]:
    try:
        arm()
        armed.append(name)
    except Exception as e:
        print('could not arm', name, type(e).__name__, str(e)[:80])
print(len(armed), 'armed;', len(ran), 'ran in the cell')
`;

async function attack(weaken: WeakenedLayers): Promise<{ armed: string; later: number[]; restarted: boolean }> {
  const session: ReplSession = await startSession({ weakenForTest: weaken, osIsolation: false, allowWeakerSandbox: true });
  try {
    const armed = await session.execute(ARM, { timeoutMs: 20_000 });
    assert.equal(armed.error, undefined, armed.error?.message);
    const atEnd = Number(/; (\d+) ran in the cell/.exec(armed.stdout)?.[1]);
    const later: number[] = [];
    let restarted = false;
    for (let i = 0; i < 2; i++) {
      await pause(300);
      const r = await session.execute('print(len(ran))', { timeoutMs: 20_000 });
      restarted ||= r.restarted !== undefined;
      later.push(Number(r.stdout.trim()) - atEnd);
    }
    return { armed: armed.stdout.trim(), later, restarted };
  } finally {
    await session.close();
  }
}

describe('JS armed by a cell runs no Python after the cell ends', () => {
  let outcome: Awaited<ReturnType<typeof attack>>;
  before(async () => {
    outcome = await attack({ python: true, runtime: true });
  });

  it('arms every scheduler, and none of them runs Python between cells; the REPL lives on', () => {
    assert.match(outcome.armed, /^6 armed;/, outcome.armed);
    assert.equal(outcome.restarted, false);
    assert.deepEqual(outcome.later, [0, 0], 'no callback ran between cells');
  });
});

describe('control: with the GIL kept between cells, the same callbacks run there', () => {
  let outcome: Awaited<ReturnType<typeof attack>>;
  before(async () => {
    outcome = await attack({ python: true, runtime: true, betweenCells: true });
  });
  after(() => undefined);

  it('runs them, so the test above can fail', () => {
    assert.match(outcome.armed, /^6 armed;/, outcome.armed);
    assert.ok(outcome.later[0]! > 0 && outcome.later[1]! > outcome.later[0]!, `ran ${outcome.later.join(', ')} times after the cell`);
  });
});
