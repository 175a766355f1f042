# Output capture: what a cell prints, sent to the host live (up to the display limit), returned with
# the cell's result as head and tail, and kept for later cells in _out (docs/rlm-contract.md).
# Nothing here talks to the host itself: a Capture is given the function that sends its bytes.
import sys, time

# _out[n] keeps a cell's whole stdout up to this many characters; a longer one keeps its first and last
# halves and says which ranges it holds. All of _out together keeps at most OUT_TOTAL_CHARS, newest first.
OUT_CELL_CHARS = 16_000_000
OUT_TOTAL_CHARS = 64_000_000
DISPLAY_CHARS = 200_000


class OutputLimits:
    """The display limit per stream and cell, and _out's limits per cell and in all (the host sets them)."""

    def __init__(self):
        self.display = DISPLAY_CHARS
        self.out_cell = OUT_CELL_CHARS
        self.out_total = OUT_TOTAL_CHARS

    def set(self, max_chars, out_cell_chars=None, out_total_chars=None):
        self.display = int(max_chars)
        # JS passes undefined (None here) for "the default".
        self.out_cell = max(2, int(out_cell_chars if out_cell_chars is not None else OUT_CELL_CHARS))
        self.out_total = max(1, int(out_total_chars if out_total_chars is not None else OUT_TOTAL_CHARS))


class KeptOutput(str):
    """_out[n]: a cell's stdout. When it was longer than the per-cell limit, this holds its first and
    last halves; `total_chars` is the true length and `kept_ranges` the [start, end) ranges held."""
    total_chars = 0
    kept_ranges = ()

    @property
    def cut(self):
        return self.total_chars > len(self)


class _ShownText(str):
    """A listing a function has already printed (SHOW_VARS): printing it again adds nothing, not even "None".
    The class name is private because a cell sees it (`type(SHOW_VARS()).__name__`): it is the REPL's."""

    def __str__(self):
        return ''


class NoStdin:
    """sys.stdin of the REPL. Nobody is at a keyboard, so reading says so in words the model can act
    on (input(), help() and sys.stdin all read through it), instead of Pyodide's bare
    "OSError: [Errno 29] I/O error"."""
    encoding = 'utf-8'
    errors = 'strict'
    closed = False

    def _refuse(self, *args, **kwargs):
        raise EOFError('no input: the RLM REPL runs with nobody at a keyboard, so input() and sys.stdin '
                       'have nothing to read; the question is in your prompt and the data in `context`')
    read = readline = readlines = _refuse

    def __iter__(self):
        return self

    def __next__(self):
        self._refuse()

    def isatty(self):
        return False

    def readable(self):
        return True

    def fileno(self):
        raise OSError('the RLM REPL has no stdin')


class Capture:
    """One stream of one cell. It keeps three things apart: what the host is sent live (the first
    `cap` characters, the display limit), the head and tail the host gets with the result (so the
    root model sees the real end of the output), and the whole text for _out up to the per-cell limit.
    `send(opcode, payload)` delivers the live part: b'O' for stdout, b'E' for stderr."""
    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, stream, limits, send):
        self.stream, self.cap, self.limits, self.send = stream, limits.display, limits, send
        self.opcode = b'E' if stream == 'stderr' else b'O'
        self.head, self.head_len = [], 0          # first out_cell // 2 characters
        self.tail, self.tail_len = [], 0          # the latest characters after the head, bounded
        self.total = 0
        self.sent = 0
        self.pending, self.pending_len, self.last_flush = [], 0, time.monotonic()
        self.flushed = False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        n = len(s)
        if not n:
            return 0
        self.total += n
        self._keep(s)
        room = self.cap - self.sent
        if room > 0:
            part = s if n <= room else s[:room]
            self.sent += len(part)
            self.pending.append(part)
            self.pending_len += len(part)
            now = time.monotonic()
            if self.pending_len >= 16384 or now - self.last_flush >= 0.05 or not self.flushed:
                self.flush()
        return n

    def _keep(self, s):
        half = self.limits.out_cell // 2
        rest = s
        if self.head_len < half:
            part = rest[:half - self.head_len]
            self.head.append(part)
            self.head_len += len(part)
            rest = rest[len(part):]
        if rest:
            self.tail.append(rest)
            self.tail_len += len(rest)
            if self.tail_len > 2 * half:
                joined = ''.join(self.tail)[-half:]
                self.tail, self.tail_len = [joined], len(joined)

    def flush(self):
        if self.pending:
            self.send(self.opcode, ''.join(self.pending).encode('utf-8', 'surrogatepass'))
            self.pending, self.pending_len = [], 0
            self.flushed = True
        self.last_flush = time.monotonic()

    def kept(self):
        """The text _out keeps: whole, or head and tail with their ranges."""
        head = ''.join(self.head)
        tail = ''.join(self.tail)
        half = self.limits.out_cell // 2
        if self.total <= len(head) + len(tail):
            text = KeptOutput(head + tail)
            text.total_chars, text.kept_ranges = self.total, ((0, self.total),)
            return text
        tail = tail[-half:]
        text = KeptOutput(head + tail)
        text.total_chars = self.total
        text.kept_ranges = ((0, len(head)), (self.total - len(tail), self.total))
        return text

    def for_host(self, kept):
        """At most `cap` characters: the real head and the real tail, so a marker between them can
        state exactly how much was left out (the host knows the true length)."""
        if len(kept) <= self.cap and not kept.cut:
            return str(kept)
        h = self.cap // 2
        return str(kept[:h]) + str(kept[len(kept) - (self.cap - h):])

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False


def flush_output():
    """Shows what the cell printed so far, before it blocks on a sub-call or a sleep."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, Capture):
            stream.flush()


class OutStore(dict):
    """_out[n]: each cell's captured stdout, so later cells can slice it without printing again. Kept
    newest first up to the limits' out_total characters in all, so a long run cannot grow the REPL's
    memory without end; a dropped entry says why instead of a bare KeyError."""

    def __init__(self, limits):
        super().__init__()
        self.limits = limits
        self.dropped = set()

    def record(self, n, text):
        self[n] = text
        keep = self.limits.out_total
        total = sum(len(v) for v in self.values() if isinstance(v, str))
        for old in list(self.keys()):
            if total <= keep or old == n:
                break
            value = dict.pop(self, old)
            total -= len(value) if isinstance(value, str) else 0
            self.dropped.add(old)

    def clear(self):
        dict.clear(self)
        self.dropped.clear()

    def __missing__(self, key):
        if key in self.dropped:
            raise KeyError('_out[%r] was dropped to bound memory (outputs are kept newest first, up to %d characters in all); recompute it' % (key, self.limits.out_total))
        raise KeyError(key)
