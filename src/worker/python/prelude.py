# The Python side of the RLM REPL, assembled: the names the model's code can call (context_meta, peek,
# search, llm_query[_batched], sub_query, rlm_query[_batched], SHOW_VARS, FINAL, FINAL_VAR, answer) and
# the entry points the worker calls (bind_*, run_cell, recover, warm, warm_paths, attach).
#
# The parts are modules of their own, loaded before this one by src/worker/preludeInstall.ts, each
# under its name in sys.modules: _rlm_channel (the device to the host), _rlm_output (output capture),
# _rlm_context_views (context's dict, lazy folder and line index), _rlm_session (the shared state),
# _rlm_model_api (the model-facing API), _rlm_binding (binding the input) and _rlm_cell_runner
# (running a cell and recovering). This module only puts them together.
#
# It runs in its own module namespace (sys.modules['_rlm_prelude']); the model's namespace is __main__.
# Installing it holds no JavaScript object, so it runs before the memory snapshot is taken and a start
# from the snapshot finds the API already built.
import _rlm_channel as channel
from _rlm_session import Session, child_namespace
from _rlm_model_api import SubCalls, ContextTools, Workspace, model_names
from _rlm_binding import Binder
from _rlm_cell_runner import CellRunner, Guards


class Api:
    """What the worker calls (src/worker/preludeInstall.ts, PreludeApi). The root's Api also opens child
    runs' (open_child): each an Api of its own over a fresh namespace, run nested in this interpreter."""

    def __init__(self, session, binder, runner):
        self._session, self._binder, self._runner = session, binder, runner
        self._children = {}

    def open_child(self, n):
        """A child run's Api (instance `n`, unique while it is open): its own namespace, `context`,
        FINAL, `answer`, _out and output capture, with this run's output limits."""
        n = int(n)
        if n in self._children or n < 1:
            raise ValueError('child instance %d is already open or invalid' % n)
        limits = self._session.limits
        child = _build(Session(child_namespace()), self._runner.guards, n)
        child.attach(limits.display, limits.out_cell, limits.out_total)
        self._children[n] = child
        return child

    def close_child(self, n):
        """Ends child `n`: its namespace is emptied and its cells' sources forgotten."""
        child = self._children.pop(int(n), None)
        if child is not None:
            child._session.end('<cell-%s' % child._runner.prefix)

    def open_children(self):
        return len(self._children)

    def bind_begin(self):
        self._binder.begin()

    def bind_feed(self, n, opened=None):
        return self._binder.feed(n, opened)

    def bind_adopt(self, text):
        self._binder.adopt(text)

    def run_cell(self, code):
        return self._runner.run(code)

    def recover(self):
        self._runner.recover()

    def warm(self):
        self._runner.warm()

    def warm_paths(self):
        return self._runner.warm_paths()

    def attach(self, max_chars, out_cell_chars=None, out_total_chars=None):
        self._session.limits.set(max_chars, out_cell_chars, out_total_chars)


def _build(session, guards, child=None):
    session.reserve(model_names(
        session,
        SubCalls(channel.bridge_request),
        ContextTools(session, channel.context_call),
        Workspace(session),
    ))
    runner = CellRunner(session, guards, channel.send_output, child)
    runner.install()
    return Api(session, Binder(session, channel, channel.context_read), runner)


def _rlm_install():
    return _build(Session(), Guards(channel.host_sleep))
