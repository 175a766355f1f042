// Each part of the REPL's Python (src/worker/python/*.py) exercised alone, in the real Pyodide REPL: a
// cell imports the part's module (preludeInstall.ts loads each under its name in sys.modules) and builds
// it with fakes in place of the host (a send function, a channel serving bytes, a namespace of its own),
// so a failure points at one part instead of at the REPL as a whole.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../src/core/repl/replTypes';
import { startSession } from '../core/repl/replTestKit';
import { FAKE_CHANNEL_PY } from './fakeChannelPython';

describe('the prelude parts, each alone in the real REPL', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  /** Runs a cell that must not fail; its stdout. */
  async function run(code: string): Promise<string> {
    const r = await session.execute(code);
    assert.equal(r.error, undefined, r.error?.traceback);
    return r.stdout;
  }

  it('_rlm_output: a Capture sends the display part live and keeps head and tail; _out drops the oldest past its limit', async () => {
    const out = await run(
      [
        'import _rlm_output as O',
        'sent = []',
        'lim = O.OutputLimits()',
        'lim.set(10, 8, 20)',
        "c = O.Capture('stdout', lim, lambda op, payload: sent.append((op, payload)))",
        "c.write('abcdefghij'); c.write('klmnop'); c.flush()",
        'k = c.kept()',
        'print(c.total, str(k), k.kept_ranges, k.cut, sent)',
        "e = O.Capture('stderr', lim, lambda op, payload: sent.append((op, payload)))",
        "e.write('x'); print(sent[-1])",
        'store = O.OutStore(lim)',
        "store.record(1, 'a' * 15); store.record(2, 'b' * 10)",
        'print(sorted(store), 2 in store)',
        'try:\n    store[1]\nexcept KeyError as err:\n    print("dropped" in str(err))',
        'try:\n    O.NoStdin().readline()\nexcept EOFError as err:\n    print("nobody at a keyboard" in str(err))',
      ].join('\n'),
    );
    // The per-cell limit of 8 keeps the first 4 and the last 4 characters of 16; the display limit of 10
    // sends the first 10 characters live, in one flush (the first write of a stream is sent at once).
    assert.equal(
      out,
      "16 abcdmnop ((0, 4), (12, 16)) True [(b'O', b'abcdefghij')]\n(b'E', b'x')\n[2] True\nTrue\nTrue\n",
    );
  });

  it('_rlm_context_views: a read-only dict, a lazy folder that fetches on read and stops at its budget, and the line index', async () => {
    const out = await run(
      [
        'import copy, _rlm_context_views as V',
        "d = V.ContextDict({'a': 'x'})",
        "try:\n    d['b'] = 'y'\nexcept TypeError as err:\n    print('read-only' in str(err))",
        "print(type(copy.copy(d)).__name__)",
        'fetched = []',
        'def fetch(paths):',
        '    fetched.append(list(paths))',
        "    return [None if p == 'gone' else p * 300_000 for p in paths], ['binary' if p == 'gone' else None for p in paths]",
        "lazy = V.LazyContext(['a', 'b', 'c', 'd', 'gone'], [300_000] * 5, fetch, 1 << 20)",
        "print(len(lazy), len(lazy['a']), lazy['a'] is lazy['a'], fetched)",
        "try:\n    lazy['gone']\nexcept KeyError as err:\n    print('left out' in str(err), lazy.left_out, len(lazy))",
        'held = []',
        "try:\n    for p in ['a', 'b', 'c', 'd']:\n        held.append(lazy[p])\nexcept V.ContextBudgetError as err:\n    print('search(pattern' in str(err), len(held))",
        'held = None',
        "text = 'line\\n' * 10_000",
        'idx = V.LineIndex()',
        'print(all(idx.line_at(text, p) == text.count("\\n", 0, p) + 1 for p in (0, 4, 5, 4095, 4096, 20_001, 49_999)))',
        'print(idx.line_at("a\\nb", 2))',
      ].join('\n'),
    );
    // Half the budget (512 KB) caches texts: the third read evicts the first two, which the cell still
    // holds (600,000 characters, over the other half), so it stops with the error that says what to do.
    assert.equal(out, "True\ndict\n5 300000 True [['a']]\nTrue {'gone': 'binary'} 4\nTrue 2\nTrue\n2\n");
  });

  it('_rlm_model_api: sub-calls build the host request, peek and search read the session context, FINAL ends the cell', async () => {
    const out = await run(
      [
        'import json, _rlm_model_api as M, _rlm_session as S',
        'requests = []',
        'reply = {"ok": True}',
        'def send(payload):',
        '    call = json.loads(payload)',
        '    requests.append(call)',
        '    return json.dumps(dict(reply, result=["A:" + p for p in call["prompts"]])).encode()',
        'calls = M.SubCalls(send, flush=lambda: None)',
        "print(calls.llm_query('q'), calls.llm_query_batched(['x', 'y'], model='m'), calls.llm_query_batched([]))",
        "calls.sub_query('Q?', [{'path': 'f.py', 'line': 3, 'text': 'def f():'}])",
        "print(requests[-1]['prompts'][0].split('\\n')[-1], requests[-1]['slices'])",
        "try:\n    calls.rlm_query_batched(['a', 'b'], contexts=[None])\nexcept ValueError as err:\n    print(err)",
        "try:\n    calls.llm_query('  ')\nexcept ValueError as err:\n    print('empty' in str(err))",
        'reply = {"ok": False, "message": "no model"}',
        "print(calls.llm_query_batched(['a', 'b']))",
        'reply = {"interrupted": True}',
        "try:\n    calls.rlm_query('a')\nexcept KeyboardInterrupt:\n    print('interrupted')",
        'session = S.Session({})',
        "session.set_context('a\\nb\\nneedle here\\n')",
        'tools = M.ContextTools(session, context_call=None)',
        "print(tools.search('needle'), tools.context_meta()['type'])",
        'print(tools.peek(4, 10))',
        'work = M.Workspace(session)',
        "try:\n    work.FINAL('first')\nexcept S.FinalGiven:\n    pass",
        "try:\n    work.FINAL('second')\nexcept S.FinalGiven:\n    print(session.final)",
        "try:\n    work.FINAL_VAR('missing')\nexcept NameError as err:\n    print('no variable' in str(err))",
      ].join('\n'),
    );
    assert.equal(
      out,
      [
        "A:q ['A:x', 'A:y'] []",
        // The slice's span in the prompt, in UTF-16 units: after "Q?\n\n--- slice (16 characters) ---\n".
        'f.py:3: def f(): [[34, 50]]',
        'rlm_query_batched: 2 prompts but 1 contexts',
        'True',
        "['[ERROR] no model', '[ERROR] no model']",
        'interrupted',
        "[{'path': None, 'line': 3, 'start': 4, 'text': 'needle here'}] none",
        'context, line 3 (chars 4-10 of 16):',
        '3| needle',
        "{'value': 'first', 'via': 'FINAL'}",
        'True',
        '',
      ].join('\n'),
    );
  });

  it('_rlm_binding: frames fed in small pieces from a fake channel become a read-only dict and its metadata', async () => {
    const out = await run(
      [
        'import json, _rlm_binding as B, _rlm_session as S',
        ...FAKE_CHANNEL_PY,
        'def bind(stream, piece):',
        '    session = S.Session({})',
        '    binder = B.Binder(session, FakeChannel(stream), context_read=None)',
        '    binder.begin()',
        '    reply, left = "", len(stream)',
        '    while not reply and left:',
        '        reply = binder.feed(min(piece, left))',
        '        left -= min(piece, left)',
        '    return session, reply',
        "stream = frame(b'F', b'a.txt', b'hello') + frame(b'F', b'b.txt', b'\\xff ok') + frame(b'E')",
        'for piece in (1, 7, len(stream)):',
        '    session, reply = bind(stream, piece)',
        "    print(piece, reply, dict(session.context), type(session.context).__name__, session.meta['invalid_utf8_replacements'], session.ns['ctx'] is session.context)",
        "print(bind(frame(b'T', b'', b'one text') + frame(b'E'), 5)[0].context)",
        "print(bind(frame(b'F', b'a', b'x') + frame(b'A'), 100)[1])",
        "try:\n    bind(frame(b'Q', b'', b'x'), 100)\nexcept ValueError as err:\n    print(err)",
      ].join('\n'),
    );
    const summary = '{"chars": [5, 4], "invalidUtf8Replacements": [0, 1]}';
    const files = "{'a.txt': 'hello', 'b.txt': '\ufffd ok'}";
    assert.equal(
      out,
      `1 ${summary} ${files} ContextDict 1 True\n7 ${summary} ${files} ContextDict 1 True\n46 ${summary} ${files} ContextDict 1 True\none text\n{"aborted": true}\nunknown context frame 'Q'\n`,
    );
  });

  it('_rlm_cell_runner: a cell in a namespace of its own: output, new names, FINAL, errors trimmed to the cell, reserved names put back', async () => {
    const out = await run(
      [
        'import json, sys, _rlm_cell_runner as R, _rlm_session as S, _rlm_model_api as M',
        'sent = []',
        'session = S.Session({})',
        "session.reserve({'FINAL': M.Workspace(session).FINAL, 'answer': session.answer})",
        'sleeps = []',
        'guards = R.Guards(lambda ms: sleeps.append(ms) or len(sleeps) > 2, flush=lambda: None)',
        'runner = R.CellRunner(session, guards, lambda op, payload: sent.append(op))',
        'saved = sys.stdout, sys.stderr, sys.stdin',
        'try:',
        '    runner.install()',
        "    cells = [json.loads(runner.run(code)) for code in ('x = 1\\nprint(\"hi\")\\nx + 1', 'FINAL(\"done\")\\nprint(\"never\")', 'def f():\\n    return 1 / 0\\nf()', 'FINAL = 3', 'answer[\"content\"] = \"draft\"\\nanswer[\"ready\"] = True')]",
        'finally:',
        '    sys.stdout, sys.stderr, sys.stdin = saved',
        "print([(c['outIndex'], c['stdout'], c['newVariables'], c['final']) for c in cells])",
        "print(cells[2]['error']['type'], cells[2]['error']['traceback'].count('<cell-3>'), 'cell_runner' in cells[2]['error']['traceback'])",
        "print(cells[3]['stderr'].startswith('[rlm] restored reserved name(s) FINAL'), session.ns['FINAL'] is session.reserved['FINAL'])",
        "print(cells[4]['answerDraft'], sorted(set(sent)))",
        "try:\n    guards.sleep(10)\nexcept KeyboardInterrupt:\n    print('interrupted after', len(sleeps), 'waits of', sleeps[0], 'ms')",
        "print(R.format_error(ValueError('bad'))['traceback'])",
      ].join('\n'),
    );
    assert.equal(
      out,
      [
        "[(1, 'hi\\n2\\n', ['x'], None), (2, '', [], {'value': 'done', 'via': 'FINAL'}), (3, '', ['f'], None), (4, '', [], None), (5, '', [], {'value': 'draft', 'via': 'answer'})]",
        'ZeroDivisionError 2 False',
        'True True',
        "draft [b'E', b'O']",
        'interrupted after 3 waits of 250 ms',
        'ValueError: bad',
        '',
        '',
      ].join('\n'),
    );
  });
});
