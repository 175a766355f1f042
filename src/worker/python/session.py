# What the parts of the REPL share about one session: the model's namespace (__main__), the names
# reserved for the REPL's API, the bound `context`, the model's `answer`, the cell counter, the answer a
# FINAL gave, and the output limits and _out. The model-facing API, the binding and the cell runner
# each hold this one object instead of reaching for each other's state.
import gc, linecache, builtins
import __main__

from _rlm_output import OutputLimits, OutStore
from _rlm_context_views import LineIndex

NO_CONTEXT_META = {'type': 'none', 'total_chars': 0, 'file_count': 0}


class FinalGiven(BaseException):
    """Raised by FINAL and FINAL_VAR to stop the cell at once; the runner takes it as the answer."""


def child_namespace():
    """A child run's namespace: empty but for what a module's globals need. A dict of its own, never
    __main__'s, so no variable passes between a parent and its child or between two children."""
    return {'__name__': '__main__', '__doc__': None, '__builtins__': builtins}


class Session:
    def __init__(self, ns=None):
        self.ns = __main__.__dict__ if ns is None else ns
        # Name -> the REPL's object; rebinding one in a cell is undone after the cell (restore()).
        self.reserved = {}
        # What a fresh process holds before any cell: binding a new context returns to exactly this.
        self.baseline = {}
        self.cell = 0
        self.final = None
        self.meta = dict(NO_CONTEXT_META)
        # The model's `answer` dict: {'content': draft, 'ready': True} ends the run (docs/rlm-contract.md).
        self.answer = {'content': '', 'ready': False}
        self.limits = OutputLimits()
        self.out_store = OutStore(self.limits)
        self.lines = LineIndex()

    @property
    def context(self):
        return self.reserved.get('context')

    def reserve(self, names):
        """Adds the REPL's own names (in order: restore() reports them in this order)."""
        self.reserved.update(names)

    def take_baseline(self):
        self.baseline = {k: v for k, v in self.ns.items() if k not in self.reserved}

    def set_context(self, value):
        # `ctx` is `context` itself (the name another RLM system's prompts use), never a copy, in
        # every binding mode; both are reserved, so rebinding either is undone after the cell.
        for name in ('context', 'ctx'):
            self.reserved[name] = value
            self.ns[name] = value

    def give_final(self, value, via):
        # The first FINAL of a cell wins, even if a bare `except:` swallowed its stop.
        if self.final is None:
            self.final = {'value': value, 'via': via}
        raise FinalGiven()

    def take_answer(self):
        """The cell's final answer: a FINAL, else an `answer` marked ready (which is then unmarked)."""
        final = self.final
        if final is None and self.answer.get('ready'):
            final = {'value': str(self.answer.get('content', '')), 'via': 'answer'}
            self.answer['ready'] = False
        return final

    def restore(self):
        """Puts back every reserved name a cell rebound; returns their names. An `answer` rebound to a
        dict is read first, so `answer = {'content': ..., 'ready': True}` still counts."""
        restored = []
        cur = self.ns.get('answer')
        if cur is not self.answer and isinstance(cur, dict):
            self.answer.update({k: cur[k] for k in ('content', 'ready') if k in cur})
        for name, obj in self.reserved.items():
            if self.ns.get(name) is not obj:
                self.ns[name] = obj
                restored.append(name)
        return restored

    def user_names(self):
        """Names a cell defined: not the REPL's, not what a fresh process holds."""
        return [k for k in self.ns if k not in self.baseline and k not in self.reserved]

    def reset_for_bind(self):
        """Binding again (same session, same user: a follow-up about another target) starts clean."""
        for name in self.user_names():
            del self.ns[name]
        self.answer.clear()
        self.answer.update({'content': '', 'ready': False})
        self.out_store.clear()
        self.final = None
        self.set_context(None)
        self.lines.clear()
        gc.collect()

    def forget_cells(self, prefix='<cell-'):
        """After the warm-up cell: the counter and _out start again, so the first real cell is cell 1.
        A child that ends forgets only its own cells' sources (prefix <cell-cN.)."""
        self.out_store.clear()
        self.cell = 0
        for name in [k for k in linecache.cache if isinstance(k, str) and k.startswith(prefix)]:
            linecache.cache.pop(name, None)

    def end(self, prefix):
        """A child run is over: everything it held goes, so nothing of it can reach a later child."""
        self.forget_cells(prefix)
        self.ns.clear()
        self.reserved.clear()
        self.baseline = {}
        self.final = None
        self.lines.clear()
        gc.collect()
