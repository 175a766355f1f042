// Layer 1's routes from the second attack pass (issue 30, item 3), each taken as a cell through the real
// REPL as far as it goes: Pyodide's types found through the collector, __subclasses__(), __mro__ and an
// exception's traceback, JsException called to build a JS Error, the proxy methods that make JS values
// (captureThis, getBuffer, create_proxy, to_js...) looked up by name across the object graph, and the
// protections record's probe for each route. The control gives Python its JS route back (layer 1
// weakened) and shows the same cells then reach JavaScript, so these tests can fail.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { FULL_GRAPH_WALK, startSession } from './replTestKit';

async function run(session: ReplSession, code: string): Promise<string> {
  const r = await session.execute(code, { timeoutMs: 30_000 });
  assert.equal(r.restarted, undefined, `the REPL was lost: ${JSON.stringify(r.restarted)}`);
  assert.equal(r.error, undefined, `${r.error?.type}: ${r.error?.message}\n${r.error?.traceback ?? ''}`);
  return r.stdout.trim();
}

/** Every Pyodide type a cell can find, by the routes the attack pass used. */
const FIND_TYPES = `
import gc
def _pyodide_type(t):
    m = t.__dict__.get('__module__', '')
    return isinstance(m, str) and (m.split('.')[0] in ('pyodide', '_pyodide', '_pyodide_core', 'js', 'pyodide_js') or t.__name__.startswith('Js') and m == 'builtins')
found = {}
for o in gc.get_objects():
    if isinstance(o, type) and _pyodide_type(o):
        found[id(o)] = o
seen, stack = {id(object)}, [object]
while stack:
    t = stack.pop()
    try:
        subs = type.__subclasses__(t)
    except TypeError:
        continue
    for s in subs:
        if id(s) not in seen:
            seen.add(id(s))
            stack.append(s)
            for m in s.__mro__:
                if _pyodide_type(m):
                    found[id(m)] = m
pyodide_types = list(found.values())
names = {t.__name__ for t in pyodide_types}
print(len(pyodide_types), 'types; JsException' if 'JsException' in names else 'types; no JsException', '; JsProxy' if 'JsProxy' in names else '')
`;

/** Calls each type as JsException's constructor is called; prints what came back. */
const CALL_TYPES = `
made = []
for t in pyodide_types:
    for args in ((), ('Error', 'boom'), ('boom',)):
        try:
            v = t(*args)
        except BaseException:
            continue
        made.append(t.__name__)
        holder = getattr(v, 'js_error', v)
        try:
            made.append('Function reached: ' + str(holder.constructor.constructor))
        except BaseException:
            pass
print('made:', sorted(set(made)))
`;

/** The proxy methods that make or expose JS values, looked up by name on every type and object. */
const FIND_METHODS = `
names = ('captureThis', 'getBuffer', 'create_proxy', 'create_once_callable', 'to_js', 'to_py', 'run_js', 'js_error', 'new', 'bind', 'as_object_map', 'callSyncifying', 'then')
hits = []
for t in pyodide_types:
    for n in names:
        try:
            v = getattr(t, n)
        except BaseException:
            continue
        hits.append(t.__name__ + '.' + n)
for o in gc.get_objects():
    if callable(o) and getattr(o, '__name__', None) in names and type(o).__name__ == 'builtin_function_or_method':
        hits.append('function ' + o.__name__)
print('methods:', sorted(set(hits)))
`;

/** The route through an exception: its type, traceback frames, their globals and builtins. */
const THROUGH_TRACEBACK = `
import sys
reached = []
try:
    def deeper():
        import js
    deeper()
except BaseException as e:
    caught = type(e).__name__
    tb = e.__traceback__
    while tb is not None:
        f = tb.tb_frame
        while f is not None:
            for space in (f.f_globals, f.f_builtins, f.f_locals):
                for k, v in list(space.items()):
                    if any(c.__name__ in ('JsProxy', 'JsException') for c in getattr(type(v), '__mro__', ())):
                        reached.append(k)
            f = f.f_back
        tb = tb.tb_next
    reached += [c.__name__ for c in type(e).__mro__ if c.__name__.startswith('Js')]
print('through the traceback:', reached, caught)
`;

describe('layer 1: every route the attack pass took from a cell to JavaScript is closed (all layers on)', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  it("finds Pyodide's types through gc and __subclasses__, as the attack did", async () => {
    assert.match(await run(session, FIND_TYPES), /^\d+ types; JsException ; JsProxy$/);
  });

  it('none of them can be called: JsException builds no JS Error, no Function is reached', async () => {
    assert.equal(await run(session, CALL_TYPES), 'made: []');
  });

  it('no type or object offers captureThis, getBuffer, create_proxy, to_js or another JS-making method', async () => {
    assert.equal(await run(session, FIND_METHODS), 'methods: []');
  });

  it("a cell cannot give Pyodide's types their methods back", async () => {
    const out = await run(session, "errs = []\nfor t in pyodide_types:\n    try:\n        t.__call__ = lambda *a: 1\n    except TypeError as e:\n        errs.append(1)\nprint(len(errs) == len(pyodide_types))");
    assert.equal(out, 'True');
  });

  it('an exception, its traceback frames, their globals and builtins hold no JS value', async () => {
    assert.equal(await run(session, THROUGH_TRACEBACK), 'through the traceback: [] ModuleNotFoundError');
    assert.equal(await run(session, FULL_GRAPH_WALK), 'JS values: 0');
  });

  it('the protections record has a probe for each route, each saying how it was tried, and all held', () => {
    const python = session.protections.layers.find((l) => l.id === 'python')!;
    const names = python.probes.map((p) => p.name);
    for (const route of [/types .*gc\.get_objects\(\) and __subclasses__\(\)/, /JsException/, /put a method back/, /getter planted on Object\.prototype/, /Symbol\.toPrimitive/, /Array\.prototype or Function\.prototype/, /timer functions or process\.nextTick/, /whole object graph/]) {
      assert.ok(names.some((n) => route.test(n)), `a probe for ${route}`);
    }
    assert.deepEqual(python.probes.filter((p) => !p.held), []);
    assert.ok(python.probes.every((p) => p.detail.length > 0));
    assert.equal(python.on, true);
  });
});

describe('control: with layer 1 weakened, the same cells reach JavaScript', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession({ osIsolation: false, allowWeakerSandbox: true, weakenForTest: { python: true } });
  });
  after(async () => {
    await session?.close();
  });

  it('JsException from gc builds a JS Error whose constructor leads to Function', async () => {
    await run(session, FIND_TYPES);
    assert.match(await run(session, CALL_TYPES), /Function reached: function Function\(\) \{ \[native code\] \}/);
    assert.match(await run(session, FIND_METHODS), /JsProxy\.(new|bind|to_py)/);
  });
});
