// A child run's Python session (prelude.py, Api.open_child) in the real REPL: a namespace, `context`,
// FINAL and output capture of its own, run nested inside a parent cell that stands for the parent's cell
// blocked in rlm_query. Nothing of a child may reach the parent or another child (issue 33, item 1).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../src/core/repl/replTypes';
import { startSession } from '../core/repl/replTestKit';
import { FAKE_CHANNEL_PY } from './fakeChannelPython';

/** Python: binds child `c` to `stream` (context frames) through a fake channel, as the worker would. */
const FAKE_BIND = [
  'import json, _rlm_binding as B, _rlm_prelude as P',
  'api = P._rlm_api',
  ...FAKE_CHANNEL_PY,
  'def bind(c, text):',
  "    stream = frame(b'T', b'', text.encode()) + frame(b'E')",
  '    c._binder = B.Binder(c._session, FakeChannel(stream), context_read=None)',
  '    c.bind_begin()',
  '    return c.bind_feed(len(stream))',
  'def cell(c, code):',
  '    return json.loads(c.run_cell(code))',
].join('\n');

describe('child runs in the parent interpreter: a session of their own per child', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  async function run(code: string): Promise<{ stdout: string; stderr: string }> {
    const r = await session.execute(code);
    assert.equal(r.error, undefined, r.error?.traceback);
    return r;
  }

  it('variables, context, FINAL and output stay with each child; the parent cell goes on after them', async () => {
    await run(FAKE_BIND);
    const { stdout } = await run(
      [
        "secret = 'parent-only'",
        'one, two = api.open_child(1), api.open_child(2)',
        "print(bind(one, 'first input'), bind(two, 'second input'))",
        "a = cell(one, 'x = 41\\nprint(context)\\n\\'secret\\' in dir()')",
        "b = cell(two, 'print(context, \\'x\\' in dir())\\nFINAL(\\'two done\\')\\nprint(\\'never\\')')",
        "c = cell(one, 'x + 1')",
        "d = cell(one, 'def f():\\n    return 1 / 0\\nf()')",
        "print(a['stdout'], a['newVariables'], b['stdout'], b['final'], c['stdout'], c['outIndex'])",
        "print(d['error']['type'], d['error']['traceback'].count('<cell-c1.3>'), '<cell-' + str(1) + '>' in d['error']['traceback'])",
        "print('x' in dir(), 'f' in dir(), globals().get('context') != 'first input', one._session.ns['context'] is not two._session.ns['context'])",
        'api.close_child(1)',
        'api.close_child(2)',
        "import linecache\nprint(api.open_children(), one._session.ns, [k for k in linecache.cache if str(k).startswith('<cell-c')])",
        "three = api.open_child(1)",
        "print(cell(three, \"print('x' in dir(), 'secret' in dir(), globals().get('context'))\")['stdout'])",
        'api.close_child(1)',
        "print('after the children')",
      ].join('\n'),
    );
    assert.equal(
      stdout,
      [
        '{"chars": [11], "invalidUtf8Replacements": [0]} {"chars": [12], "invalidUtf8Replacements": [0]}',
        "first input\nFalse\n ['x'] second input False\n {'value': 'two done', 'via': 'FINAL'} 42\n 2",
        'ZeroDivisionError 2 False',
        'False False True True',
        '0 {} []',
        'False False None\n',
        'after the children',
        '',
      ].join('\n'),
    );
  });

  it('an interrupt while a child cell runs stops only the child cell; the parent cell finishes', async () => {
    await run(FAKE_BIND);
    const running = session.execute(
      ["kid = api.open_child(5)", "r = cell(kid, 'import sys\\nsys.stdout.write(\\'looping\\\\n\\')\\nwhile True:\\n    pass')", 'api.close_child(5)', "print('parent goes on', r['interrupted'], r['error']['type'], r['stdout'])"].join('\n'),
    );
    // Interrupted once the child's cell is seen running (its first output), as a soft timeout would.
    // One write, so the interrupt cannot land between print()'s text and its newline.
    let sent = false;
    const stopListening = session.onOutput((event) => {
      if (sent || !event.text.includes('looping')) return;
      sent = true;
      session.interrupt();
    });
    let result;
    try {
      result = await running;
    } finally {
      stopListening();
    }
    assert.equal(result.error, undefined, result.error?.traceback);
    // The child's live output went to the host as it printed; the parent's own capture holds only its line.
    assert.equal(result.stdout, 'parent goes on True Interrupted looping\n\n');
  });
});
