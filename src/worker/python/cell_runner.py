# Running a cell and recovering: the cell is parsed and run in the model's namespace with its output
# captured, its last expression shown, FINAL taken as the answer, errors and interrupts (the soft
# timeout) turned into a traceback trimmed to the cell, the REPL's reserved names put back and
# anything the cell armed (timers, signal handlers) disarmed. The guards below are conveniences and
# defence in depth only: the barriers are the layers in docs/security.md.
import sys, re, json, ast, traceback, linecache, time, os, signal

from _rlm_output import Capture, NoStdin, _ShownText, flush_output
from _rlm_context_views import LazyContext
from _rlm_session import FinalGiven

# Measured: past ~12,000 nested Python frames the wasm stack overflows and the REPL crashes (all
# variables lost); a RecursionError is the answer the model can act on, so the limit is capped.
MAX_RECURSION = 10_000
_PROCESS_FUNCTIONS = ('fork', 'forkpty', 'execv', 'execve', 'spawnv', 'spawnve', 'posix_spawn', 'posix_spawnp')


def _no_process(*args, **kwargs):
    raise OSError('starting processes is not available in the RLM sandbox')


def _no_exit(*args, **kwargs):
    raise OSError('exiting the interpreter is not available in the RLM REPL; end the run with FINAL(answer)')


class Guards:
    """What the REPL patches into the standard library before each cell: time.sleep that flushes the
    output and can be interrupted, a capped recursion limit, signal handlers remembered so they can be
    disarmed after the cell, and no process start or exit. `sleep_request(ms)` waits on the host and
    returns True when the cell was interrupted meanwhile."""

    def __init__(self, sleep_request, flush=flush_output):
        self._sleep_request, self._flush = sleep_request, flush
        self.real_signal = signal.signal
        self.real_setrecursionlimit = sys.setrecursionlimit
        self.armed_handlers = {}

    def sleep(self, seconds):
        if seconds < 0:
            raise ValueError('sleep length must be non-negative')
        self._flush()
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            if self._sleep_request(int(min(left, 0.25) * 1000.0)):
                raise KeyboardInterrupt('interrupted')

    def setrecursionlimit(self, limit):
        limit = int(limit)
        if limit > MAX_RECURSION:
            sys.stderr.write('[rlm] recursion limit capped at %d (asked for %d): deeper recursion would crash the REPL; use an explicit stack instead.\n' % (MAX_RECURSION, limit))
        self.real_setrecursionlimit(min(limit, MAX_RECURSION))

    def signal(self, sig, handler):
        # Remembered, so end_cell_timers can put the default back without probing every signal.
        previous = self.real_signal(sig, handler)
        if sig != signal.SIGINT and callable(handler):
            self.armed_handlers[sig] = handler
        return previous

    def harden(self):
        time.sleep = self.sleep
        sys.setrecursionlimit = self.setrecursionlimit
        signal.signal = self.signal
        os.system = _no_process
        os.popen = _no_process
        os._exit = os.abort = _no_exit
        # A handler that ignores SIGINT would turn every soft timeout into a hard one (and lose state).
        self.real_signal(signal.SIGINT, signal.default_int_handler)
        for name in _PROCESS_FUNCTIONS:
            if hasattr(os, name):
                setattr(os, name, _no_process)
        for mod in [m for m in sys.modules if m in ('js', 'pyodide_js') or m.startswith(('js.', 'pyodide_js.'))]:
            sys.modules.pop(mod, None)
        sub = sys.modules.get('subprocess')
        if sub is not None:
            sub.Popen = _no_process
            sub.run = sub.call = sub.check_call = sub.check_output = sub.getoutput = sub.getstatusoutput = _no_process

    def armed(self):
        """The signals with a handler armed now: a child's cell (run nested inside its parent's) disarms
        only the ones it armed itself (after_cell(kept=...))."""
        return dict(self.armed_handlers)

    def after_cell(self, kept=None):
        # Also here, not only in harden(): an interrupt that arrives before the next cell reaches
        # harden() must not meet a handler this cell set to ignore it.
        self.real_signal(signal.SIGINT, signal.default_int_handler)
        self.end_cell_timers(kept or {})

    def end_cell_timers(self, kept):
        # Nothing a cell arms may run after it (the worker also clears the JS timers behind these):
        # interval timers and alarms are disarmed, and signal handlers other than the interrupt one go
        # back to their defaults. `kept`: handlers the enclosing (parent's) cell armed, which stay.
        setitimer = getattr(signal, 'setitimer', None)
        for which in ('ITIMER_REAL', 'ITIMER_VIRTUAL', 'ITIMER_PROF'):
            if setitimer is not None and hasattr(signal, which):
                try:
                    setitimer(getattr(signal, which), 0)
                except (OSError, ValueError):
                    pass
        alarm = getattr(signal, 'alarm', None)
        if alarm is not None:
            try:
                alarm(0)
            except (OSError, ValueError):
                pass
        for sig, handler in list(self.armed_handlers.items()):
            if kept.get(sig) is handler or signal.getsignal(sig) is not handler:
                continue
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        self.armed_handlers.clear()
        self.armed_handlers.update(kept)


def format_error(e, type_name=None):
    """The error as the host gets it, its traceback trimmed to the cell's own frames."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith('<cell-')]
    lines = []
    if frames:
        lines.append('Traceback (most recent call last):\n')
        lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(e), e))
    return {'type': type_name or type(e).__name__, 'message': str(e), 'traceback': ''.join(lines)}


def hot_path_steps():
    # What a run's first cells do to a large `context`: a regex over it, its lines, lower(). In a
    # fresh process that code runs in V8's baseline tier, 3-4x slower (a first regex over 50 MB: 100 ms
    # against 25), and a call is never moved up while it runs. A few MB of each, in small steps while
    # the REPL waits for its first cell, get it compiled first; the worker turns its event loop between
    # steps, which is when V8 compiles (bench: "a run's first regex over a 50 MB context").
    narrow = 'Lorem ipsum dolor, the secret is elsewhere and the key is 123\n' * 17000
    for text in (narrow, narrow[:500000] + '\u00e9\u4e2d' + narrow[:500000]):
        for _ in range(4):
            yield len(list(re.finditer(r'secret key', text)))
        for _ in range(3):
            yield len(re.findall(r'key is (\d+)', text)) + bool(re.search(r'zz+q', text))
        for _ in range(3):
            part = text[:100000]
            yield len(part.splitlines()) + len(part.lower()) + len(part.split('\n')) + part.count('\n')


class CellRunner:
    """run_cell, recover, warm and warm_paths. `send(opcode, payload)` delivers live output.

    A child run's runner (`child` is its instance number) runs its cells nested inside the parent's
    cell, which is blocked in rlm_query: it puts back the streams and signal handlers it found instead
    of the process's own, and names its cells <cell-cN.M> so tracebacks and linecache keep them apart."""

    def __init__(self, session, guards, send, child=None):
        self.session, self.guards, self.send = session, guards, send
        self.child = child
        self.prefix = '' if child is None else 'c%d.' % child
        self.stdin = NoStdin()
        self._outer = None
        self._warm_steps = hot_path_steps() if child is None else iter(())

    def install(self):
        """Takes over stdin and the guarded functions, puts the reserved names in the namespace and
        notes what a fresh process holds (binding a new context returns to exactly that)."""
        if self.child is None:
            sys.stdin = self.stdin
        self.guards.harden()
        self.session.restore()
        self.session.take_baseline()

    def run(self, code):
        s = self.session
        s.cell += 1
        n = s.cell
        if isinstance(s.context, LazyContext):
            s.context.new_cell()
        out, err = Capture('stdout', s.limits, self.send), Capture('stderr', s.limits, self.send)
        before = set(s.ns)
        draft_before = s.answer.get('content')
        s.final = None
        error, interrupted = self._execute(code, '<cell-%s%d>' % (self.prefix, n), out, err)
        restored = s.restore()
        if restored:
            err.write('[rlm] restored reserved name(s) %s: they belong to the REPL API; use other variable names.\n' % ', '.join(restored))
        out.flush()
        err.flush()
        final = s.take_answer()
        kept = out.kept()
        s.out_store.record(n, kept)
        new_vars = sorted(k for k in s.ns if k not in before and not k.startswith('__') and k not in s.reserved)
        result = {'stdout': out.for_host(kept), 'stderr': err.for_host(err.kept()), 'stdoutChars': out.total, 'stderrChars': err.total,
                  'error': error, 'newVariables': new_vars, 'final': final, 'outIndex': n, 'interrupted': interrupted}
        self._mark_cuts(result, out, err, kept, draft_before)
        return json.dumps(result)

    def _execute(self, code, fname, out, err):
        """Runs the cell with its streams captured; returns (error or None, interrupted)."""
        error, interrupted = None, False
        # A child's cell runs inside its parent's: what the parent's cell had is put back after it.
        outer = self._outer = (sys.stdout, sys.stderr, sys.stdin, self.guards.armed()) if self.child is not None else None
        self.guards.harden()
        sys.stdout, sys.stderr, sys.stdin = out, err, self.stdin
        try:
            linecache.cache[fname] = (len(code), None, code.splitlines(True), fname)
            tree = ast.parse(code, fname, 'exec')
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, fname, 'exec'), self.session.ns)
            if last is not None:
                value = eval(compile(last, fname, 'eval'), self.session.ns)
                if value is not None and not isinstance(value, _ShownText):
                    print(repr(value))
        except FinalGiven:
            pass  # FINAL / FINAL_VAR: the cell stops here, and its output so far stands
        except KeyboardInterrupt as e:
            interrupted = True
            error = format_error(e, 'Interrupted')
        except BaseException as e:
            error = format_error(e)
        finally:
            if outer is None:
                sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
                self.guards.after_cell()
            else:
                sys.stdout, sys.stderr, sys.stdin = outer[:3]
                self.guards.after_cell(outer[3])
        return error, interrupted

    def _mark_cuts(self, result, out, err, kept, draft_before):
        cap = self.session.limits.display
        # Where the host's copy jumps from the head to the tail, so views can mark the gap there.
        if out.total > cap:
            result['stdoutCutAt'] = cap // 2
        if err.total > cap:
            result['stderrCutAt'] = cap // 2
        draft = self.session.answer.get('content')
        if isinstance(draft, str) and draft.strip() and draft is not draft_before:
            result['answerDraft'] = draft[:cap]
        if kept.cut:
            result['outKept'] = {'chars': len(kept), 'ranges': [list(r) for r in kept.kept_ranges]}

    def recover(self):
        if self.child is None:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        elif self._outer is not None:
            sys.stdout, sys.stderr, sys.stdin = self._outer[:3]
            self.guards.after_cell(self._outer[3])
        self._outer = None
        self.session.restore()

    def warm(self):
        # One throwaway cell at start-up, so the first real cell does not pay for cold code paths; then
        # the counters and names it left are put back, so the first real cell is cell 1.
        self.run('_rlm_warm = [1]\n_rlm_warm.clear()')
        self.session.ns.pop('_rlm_warm', None)
        self.session.forget_cells()

    def warm_paths(self):
        """Runs the next warm-up step; False once there are none left (the strings are then freed)."""
        return next(self._warm_steps, None) is not None
