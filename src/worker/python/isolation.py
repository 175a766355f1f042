# Sandbox layer 1, the Python half: after Pyodide has booted (from a snapshot or cold), every way from
# Python to a JavaScript object is cut before the first cell, and then probed.
#
# Pyodide leaves JS values where Python can reach them: the `js` and `pyodide_js` modules, the loader's
# `loadedPackages`, the asyncio WebLoop's `scheduleCallback`, and the `_pyodide_core` functions that
# make new ones (`to_js`, `create_proxy`, `run_sync`, ...), which `_imp.create_builtin` can bring back
# even after the module is gone from sys.modules. The worker has already made the dangerous built-in
# modules unimportable at the C level (src/worker/builtinModules.ts); this file empties Pyodide's own
# Python modules, the extension-module cache copy of `_pyodide_core`, and any container still holding
# a JS value, then walks the whole object graph to prove none is left.
import sys as _iso_sys
import gc as _iso_gc

_PYODIDE_TOPS = ('pyodide', '_pyodide', '_pyodide_core', 'js', 'pyodide_js')


def _iso_is_js_type(t):
    # JsProxy types are made on demand, one per combination of JS traits, so they are recognised by
    # their base class rather than listed; JsException carries a JsProxy of the JS error.
    for c in getattr(t, '__mro__', ()):
        if c.__name__ in ('JsProxy', 'JsException') and str(getattr(c, '__module__', '')).startswith(('pyodide', '_pyodide')):
            return True
    return False


def _iso_is_core_callable(o):
    return type(o).__name__ == 'builtin_function_or_method' and getattr(o, '__module__', None) == '_pyodide_core'


def _iso_reachable_types():
    """Types of every object the collector can see, and of everything they hold, down through the
    untracked containers (tuples of atoms, JsProxies) that gc.get_objects() does not list. Runs at C
    speed: about 30 ms after boot."""
    from itertools import filterfalse
    objs = _iso_gc.get_objects()
    refs = _iso_gc.get_referents(*objs)
    types = set(map(type, objs))
    types.update(map(type, refs))
    level = list(filterfalse(_iso_gc.is_tracked, refs))
    depth = 0
    while level and depth < 64:
        nxt = _iso_gc.get_referents(*level)
        types.update(map(type, nxt))
        level = list(filterfalse(_iso_gc.is_tracked, nxt))
        depth += 1
    return types


def _iso_js_objects():
    """The JS-backed objects themselves (slower than the type walk; used only while cutting)."""
    from itertools import filterfalse
    objs = _iso_gc.get_objects()
    refs = _iso_gc.get_referents(*objs)
    found, seen = [], set()
    level = refs
    depth = 0
    while level and depth < 64:
        for r in level:
            if (_iso_is_js_type(type(r)) or _iso_is_core_callable(r)) and id(r) not in seen:
                seen.add(id(r))
                found.append(r)
        level = list(filterfalse(_iso_gc.is_tracked, _iso_gc.get_referents(*filterfalse(_iso_gc.is_tracked, level))))
        depth += 1
    for o in objs:
        if _iso_is_core_callable(o) and id(o) not in seen:
            seen.add(id(o))
            found.append(o)
    return found


def _iso_cut_holders(targets):
    """Removes each target from whatever holds it. Returns descriptions of holders it could not edit."""
    stuck = []
    ids = {id(t) for t in targets}
    frame = _iso_sys._getframe()
    for holder in _iso_gc.get_referrers(*targets):
        if holder is targets or holder is frame or holder is frame.f_locals:
            continue
        kind = type(holder).__name__
        if isinstance(holder, dict):
            for key in [k for k, v in holder.items() if id(v) in ids]:
                del holder[key]
        elif isinstance(holder, list):
            for i, v in enumerate(holder):
                if id(v) in ids:
                    holder[i] = None
        elif kind == 'cell':
            holder.cell_contents = None
        elif kind == 'function':
            if holder.__defaults__ and any(id(v) in ids for v in holder.__defaults__):
                holder.__defaults__ = tuple(None if id(v) in ids else v for v in holder.__defaults__)
            if holder.__kwdefaults__:
                for key in [k for k, v in holder.__kwdefaults__.items() if id(v) in ids]:
                    holder.__kwdefaults__[key] = None
        elif kind in ('frame', 'generator', 'coroutine'):
            continue  # our own call stack
        elif not _iso_clear_attributes(holder, ids):
            stuck.append(kind)
    return stuck


def _iso_empty_object(holder):
    """Empties one of Pyodide's import-machinery objects: JS-backed attributes become None, and the
    dicts and lists it holds (its registry of JS modules) are cleared."""
    names = set()
    for klass in type(holder).__mro__:
        slots = klass.__dict__.get('__slots__', ())
        names.update((slots,) if isinstance(slots, str) else slots)
    names.update(getattr(holder, '__dict__', {}) or {})
    for name in names:
        try:
            value = object.__getattribute__(holder, name)
        except (AttributeError, TypeError):
            continue
        if _iso_is_js_type(type(value)):
            try:
                object.__setattr__(holder, name, None)
            except (AttributeError, TypeError):
                pass
        elif isinstance(value, (dict, list)):
            value.clear()


def _iso_clear_attributes(holder, ids):
    """An object holding a target in a slot or attribute (Pyodide's JsLoader): set it to None."""
    cleared = False
    names = set()
    for klass in type(holder).__mro__:
        slots = klass.__dict__.get('__slots__', ())
        names.update((slots,) if isinstance(slots, str) else slots)
    names.update(getattr(holder, '__dict__', {}) or {})
    for name in names:
        try:
            if id(object.__getattribute__(holder, name)) in ids:
                object.__setattr__(holder, name, None)
                cleared = True
        except (AttributeError, TypeError):
            continue
    return cleared


def _iso_prepare():
    """Before the memory snapshot (cold start only): the extension-module cache keeps a copy of
    `_pyodide_core`'s namespace, from which `_imp.create_builtin` would rebuild the module with working
    functions. Its functions are removed from that copy; the live module keeps them until the lock-down."""
    core = _iso_sys.modules.get('_pyodide_core')
    if core is None:
        return 0
    live = vars(core)
    functions = [v for v in live.values() if _iso_is_core_callable(v)]
    removed = 0
    for holder in _iso_gc.get_referrers(*functions):
        if isinstance(holder, dict) and holder is not live and holder.get('__name__') == '_pyodide_core':
            for key in [k for k, v in holder.items() if _iso_is_core_callable(v)]:
                del holder[key]
                removed += 1
    return removed


def _iso_lock_down():
    """Cuts every route from Python to JS that Pyodide leaves, by emptying the known holders (fast).
    Returns a JSON report; the probe then says whether it held (and _iso_cut_generic is the fallback)."""
    import json
    report = {'modulesEmptied': 0, 'finders': 0}
    # asyncio: Pyodide's policy schedules callbacks on JS timers, which would also run code between
    # cells. The standard policy is put back (its selector loop needs sockets, which are refused).
    import asyncio.events as _events
    setter = getattr(_events, '_set_event_loop_policy', None)
    if setter is not None:
        setter(None)
    else:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            _events.set_event_loop_policy(None)
    _events._set_running_loop(None)
    # Pyodide's import hooks: they would break every import once their module is emptied.
    ours = lambda o: str(getattr(type(o), '__module__', '')).startswith(_PYODIDE_TOPS)
    holders = [f for f in _iso_sys.meta_path if ours(f)]
    report['finders'] = len(holders)
    _iso_sys.meta_path[:] = [f for f in _iso_sys.meta_path if not ours(f)]
    for name in [n for n in _iso_sys.modules if n.split('.')[0] in _PYODIDE_TOPS]:
        _iso_sys.modules.pop(name)
    # Module objects outlive sys.modules when Pyodide's JS side holds them (pyodide_js), and instances
    # of Pyodide's classes (JsFinder, JsLoader, WebLoop...) outlive their modules, held in cycles with
    # the JS values they wrap: one pass over the collector's objects finds both.
    module_type = type(_iso_sys)
    pyodide_modules = []
    pyodide_type = {}  # decided once per type: most objects are dicts, functions and tuples
    for o in _iso_gc.get_objects():
        t = type(o)
        if t is module_type:
            if str(getattr(o, '__name__', '')).split('.')[0] in _PYODIDE_TOPS:
                pyodide_modules.append(o)
            continue
        mine = pyodide_type.get(t)
        if mine is None:
            mine = pyodide_type[t] = str(getattr(t, '__module__', '')).split('.')[0] in _PYODIDE_TOPS and t.__name__ != 'JsProxy'
        if mine:
            holders.append(o)
    report['holders'] = len(holders)
    for module in pyodide_modules:
        namespace = getattr(module, '__dict__', None)
        if isinstance(namespace, dict):
            keep = {'__name__': namespace.get('__name__', module.__name__)}
            namespace.clear()
            namespace.update(keep)
            report['modulesEmptied'] += 1
    for holder in holders:
        _iso_empty_object(holder)
    del holders, pyodide_modules
    return json.dumps(report)


def _iso_cut_generic():
    """The slow path, for when the probe still finds a JS value after _iso_lock_down: searches the
    whole object graph for JS-backed objects and removes them from whatever holds them."""
    import json
    report = {'cut': 0, 'stuck': []}
    for _ in range(3):
        targets = _iso_js_objects()
        if not targets:
            break
        report['cut'] += len(targets)
        report['stuck'] = sorted(set(_iso_cut_holders(targets)))
        del targets
        _iso_gc.collect()
    return json.dumps(report)


def _iso_probe(disabled_builtins):
    """Layer 1 as a cell would try it. Each probe: [name, held, detail]."""
    import json
    import importlib.machinery as machinery
    probes = []

    def tried(name, attempt, held_when):
        try:
            outcome = attempt()
            probes.append([name, bool(held_when(outcome)), 'returned ' + repr(outcome)[:120]])
        except BaseException as e:  # noqa: BLE001 - any failure is the probe's answer
            probes.append([name, True, '%s: %s' % (type(e).__name__, str(e)[:120])])

    js_types = sorted({t.__name__ for t in _iso_reachable_types() if _iso_is_js_type(t)})
    probes.append(['no JS object reachable from Python (whole object graph)', not js_types,
                   'found ' + ', '.join(js_types) if js_types else 'none found'])
    for name in ('js', 'pyodide_js', '_pyodide_core', '_ctypes'):
        tried('import ' + name, lambda name=name: __import__(name), lambda m: False)

    import _imp

    def revived(name):
        had = name in _iso_sys.modules
        module = _imp.create_builtin(machinery.ModuleSpec(name, machinery.BuiltinImporter, origin='built-in'))
        if not had:
            _iso_sys.modules.pop(name, None)  # the cache's copy registers itself; leave no trace
        if module is None:
            return None
        # Classes copied from the cache are inert; functions would call into C and JS.
        return sorted(k for k, v in vars(module).items() if type(v).__name__ == 'builtin_function_or_method')

    for name in disabled_builtins:
        tried('_imp.create_builtin(%r)' % name, lambda name=name: revived(name), lambda functions: not functions)
    import asyncio.events as events
    policy = getattr(events, '_event_loop_policy', None)
    probes.append(["asyncio runs no callbacks on JS timers (Pyodide's WebLoop removed)", not str(type(policy).__module__).startswith(_PYODIDE_TOPS), 'policy: ' + type(policy).__name__])
    _iso_type_probes(probes, tried)
    return json.dumps(probes)


# ---- Pyodide's types made inert ----
# Cutting every JS value out of the object graph is not enough: the types themselves stay reachable
# (gc.get_objects(), __subclasses__(), __mro__, an exception's type) and some make JS values from
# nothing: calling JsException builds a real JS Error. Every type Pyodide defines loses its methods,
# descriptors and slot wrappers (so the C slots behind them fall back to object's: generic attribute
# access, no call, no buffer, no iteration) and refuses to be instantiated. Pyodide's C types are
# immutable, so the worker lifts that flag in wasm memory for the length of the edit and sets it again
# (src/worker/typeFlags.ts); a cell then can put nothing back.
_ISO_CORE_TYPE_NAMES = ('Js2PyConverter', 'Py2JsConverter', 'JsFuncSignature')
_ISO_IMMUTABLE = 1 << 8
# Kept: what names the type, and the ABC bookkeeping that isinstance() on unrelated ABCs walks through.
# __dict__ and __weakref__ only reach an instance's own dict and weak references.
_ISO_KEEP = ('__module__', '__doc__', '__qualname__', '__slots__', '__abstractmethods__', '_abc_impl', '__parameters__', '__protocol_attrs__', '__dict__', '__weakref__')


def _iso_is_pyodide_type(t):
    module = t.__dict__.get('__module__', '')
    module = module if isinstance(module, str) else ''
    return (module.split('.')[0] in _PYODIDE_TOPS or _iso_is_js_type(t)
            or (module in ('', 'builtins') and t.__name__ in _ISO_CORE_TYPE_NAMES))


def _iso_pyodide_types():
    """Every type Pyodide defines. Its types are heap types, which the collector always tracks, so
    gc.get_objects() lists each; __subclasses__() from those adds any subclass held only by its base."""
    found = {}
    for o in _iso_gc.get_objects():
        if isinstance(o, type) and _iso_is_pyodide_type(o):
            found[id(o)] = o
    stack = list(found.values())
    while stack:
        for s in type.__subclasses__(stack.pop()):
            if id(s) not in found:
                found[id(s)] = s
                stack.append(s)
    return list(found.values())


def _iso_type_records():
    """[address, tp_flags, tp_base address] of each, for the worker's flag edit: the C types are
    immutable already, Pyodide's Python classes become so after the edit."""
    import json
    global _iso_types_found
    _iso_types_found = _iso_pyodide_types()
    return json.dumps([[id(t), t.__flags__, id(t.__base__)] for t in _iso_types_found])


_iso_types_found = None


def _iso_refuse_new(cls, *args, **kwargs):
    raise TypeError('%s cannot be created in the RLM sandbox' % getattr(cls, '__name__', 'this type'))


def _iso_make_types_inert():
    """Run while the worker has lifted the immutable flag. Returns a JSON report."""
    import json
    report = {'types': 0, 'removed': 0, 'stuck': []}
    global _iso_types_found
    refuse = staticmethod(_iso_refuse_new)
    # The types whose flags the worker lifted, as _iso_type_records found them (one walk, not two).
    types, _iso_types_found = _iso_types_found or [], None
    for t in types:
        report['types'] += 1
        for name in [n for n in list(t.__dict__) if n not in _ISO_KEEP]:
            try:
                type.__delattr__(t, name)
                report['removed'] += 1
            except (AttributeError, TypeError) as e:
                report['stuck'].append('%s.%s: %s' % (t.__name__, name, e))
        try:
            type.__setattr__(t, '__new__', refuse)
        except (AttributeError, TypeError) as e:
            report['stuck'].append('%s.__new__: %s' % (t.__name__, e))
    _iso_sys._clear_type_cache()
    return json.dumps(report)


def _iso_type_probes(probes, tried):
    """Layer 1's probes for the type routes, as a cell would take them."""
    types = _iso_pyodide_types()
    callable_names = []
    for t in types:
        for args in ((), ('Error', 'probe')):
            try:
                t(*args)
                callable_names.append(t.__name__)
                break
            except BaseException:  # noqa: BLE001 - refusing is the point
                pass
        left = [n for n, v in vars(t).items() if n not in _ISO_KEEP and not (n == '__new__' and getattr(v, '__func__', None) is _iso_refuse_new)]
        if left:
            callable_names.append('%s.%s' % (t.__name__, left[0]))
    probes.append(["Pyodide's types (found through gc.get_objects() and __subclasses__()) create nothing and keep no method",
                   not callable_names and bool(types),
                   '%d types; %s' % (len(types), ('usable: ' + ', '.join(sorted(set(callable_names))[:8])) if callable_names else 'all inert')])

    def js_exception():
        made = []
        for c in [c for c in Exception.__subclasses__() if _iso_is_js_type(c)]:
            e = c('Error', 'probe')
            made.append(type(e).__name__ + (' with js_error' if hasattr(e, 'js_error') else ''))
        return made
    tried('JsException(...) from Exception.__subclasses__() builds a JS Error', js_exception, lambda made: not made)

    def put_back():
        for c in [c for c in Exception.__subclasses__() if _iso_is_js_type(c)]:
            type.__setattr__(c, '__call__', lambda *a: None)
            return 'set'
        return None
    tried("a cell cannot put a method back on Pyodide's types (immutable again)", put_back, lambda outcome: outcome is None)
