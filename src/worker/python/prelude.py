# The Python side of the RLM REPL: the names the model's code can call (context_meta, peek, search,
# llm_query[_batched], rlm_query[_batched], SHOW_VARS, FINAL, FINAL_VAR, answer) and the cell runner.
#
# It runs in its own module namespace (sys.modules['_rlm_prelude']); the model's namespace is __main__.
# Installing it holds no JavaScript object, so it runs before the memory snapshot is taken and a start
# from the snapshot finds the API already built.
#
# Sandbox layer 1: Python reaches no JavaScript object. Everything this module sends out or receives
# travels as bytes through one Emscripten device file (DEVICE_PATH), whose handlers live in the worker
# (src/worker/pythonChannel.ts). Python holds only file descriptors, so there is no JS function in any
# closure, default or frame for a cell to walk to. A request is one write(2) of an opcode byte and a
# payload; a reply is a 4-byte big-endian length and that many bytes, read back with read(2).
import sys, re, json, ast, traceback, linecache, codecs, time, keyword, os, signal, gc
from collections import OrderedDict
from collections.abc import Mapping
import __main__

DEVICE_PATH = '/dev/rlm'
# Bound once, so a cell that rebinds os.write cannot intercept the prelude's own channel.
_os_open, _os_close, _os_read, _os_write, _os_readv, _O_RDWR = os.open, os.close, os.read, os.write, os.readv, os.O_RDWR

def _device_request(op, payload=b''):
    """One request and its reply over the device; b'' when the operation has no reply."""
    fd = _os_open(DEVICE_PATH, _O_RDWR)
    try:
        _os_write(fd, op + payload)
        head = _os_read(fd, 4)
        if len(head) < 4:
            return b''
        left = int.from_bytes(head, 'big')
        parts = []
        while left > 0:
            chunk = _os_read(fd, left)
            if not chunk:
                raise OSError('the REPL channel closed in the middle of a reply')
            parts.append(chunk)
            left -= len(chunk)
        return b''.join(parts)
    finally:
        _os_close(fd)

def _device_read_into(op, buf, payload=b''):
    """Sends `op` and reads its reply straight into `buf` (the context bytes: no second copy)."""
    fd = _os_open(DEVICE_PATH, _O_RDWR)
    try:
        _os_write(fd, op + payload)
        head = _os_read(fd, 4)
        size = int.from_bytes(head, 'big') if len(head) == 4 else -1
        if size != len(buf):
            raise OSError('the REPL channel offered %d bytes of context, expected %d' % (size, len(buf)))
        view, got = memoryview(buf), 0
        try:
            while got < size:
                n = _os_readv(fd, [view[got:]])
                if n <= 0:
                    raise OSError('the REPL channel closed after %d of %d context bytes' % (got, size))
                got += n
        finally:
            view.release()
    finally:
        _os_close(fd)

_MISSING = object()
_PEEK_MAX_CHARS = 20_000
_SEARCH_LINE_MAX = 300
_META_FILES_MAX = 100
_LINE_BLOCK = 1 << 12
# _out[n] keeps a cell's whole stdout up to this many characters (docs/rlm-contract.md); a longer one
# keeps its first and last halves and says which ranges it holds. All of _out together keeps at most
# _OUT_TOTAL_CHARS, newest first.
_OUT_CELL_CHARS = 16_000_000
_OUT_TOTAL_CHARS = 64_000_000

class ContextDict(dict):
    """The dict form of context: read-only, so every follow-up question sees the same files."""
    __slots__ = ()
    def _read_only(self, *args, **kwargs):
        raise TypeError('context is read-only; make a copy with dict(context) to change it')
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only
    # Copies are plain, editable dicts (the values are immutable str, so a shallow copy is deep).
    def __copy__(self):
        return dict(self)
    def __deepcopy__(self, memo):
        return dict(self)
    def __reduce__(self):
        return (dict, (dict(self),))

class ContextBudgetError(MemoryError):
    """An operation on a lazy context would hold more file text at once than the REPL's budget."""

def _context_call(call):
    """A request about the bound folder, answered by the host (reads, search): JSON in, JSON out."""
    reply = json.loads(_device_request(b'B', json.dumps(call).encode('utf-8', 'surrogatepass')))
    if reply.get('interrupted'):
        raise KeyboardInterrupt('interrupted while reading context')
    if not reply.get('ok'):
        raise OSError('context: ' + str(reply.get('message', 'the host could not answer')))
    return json.loads(reply['result'][0])

def _context_read(paths):
    out = _context_call({'kind': 'context_read', 'paths': list(paths)})
    return out['texts'], out['errors']

def _refcount_baseline():
    # What sys.getrefcount reports for a text only the eviction code holds (it varies across Python
    # versions), measured the way _keep measures: an evicted text above it is still held elsewhere.
    from collections import OrderedDict
    d = OrderedDict()
    d['k'] = ''.join(['base', 'line'])
    _, old = d.popitem(last=False)
    return sys.getrefcount(old)

class LazyContext(Mapping):
    """context for a folder larger than the eager limit: a read-only mapping path -> text whose keys
    are all known, and whose texts are fetched from the host when first read and kept in a least-
    recently-used cache of at most half the budget. An operation that holds more than the other half
    in texts read in one cell (a join, a list of every value, dict(context)) stops with
    ContextBudgetError, which says how to proceed."""
    _BASE = None

    def __init__(self, names, sizes, fetch, budget):
        self._names = list(names)
        self._sizes = dict(zip(self._names, sizes))
        self._fetch = fetch
        self.budget = max(1 << 20, int(budget))
        self._cache = OrderedDict()
        self._cached = 0
        self._escaped = 0
        self._gone = {}
        self.stats = {'files_read': 0, 'bytes_read': 0}
        if LazyContext._BASE is None:
            LazyContext._BASE = _refcount_baseline()

    def __repr__(self):
        return '<lazy context: %d files, %.1f MB; texts are fetched when read (context_meta() says more)>' % (
            len(self), sum(self._sizes.values()) / 1e6)
    __str__ = __repr__

    def _read_only(self, *args, **kwargs):
        raise TypeError('context is read-only; copy the files you need into your own dict')
    __setitem__ = __delitem__ = _read_only

    def __len__(self):
        return len(self._names) - len(self._gone)

    def __iter__(self):
        gone = self._gone
        for name in self._names:
            if name not in gone:
                yield name

    def __contains__(self, path):
        return path in self._sizes and path not in self._gone

    def planned_bytes(self, path):
        """The size of the file on disk when the folder was listed (no read)."""
        return self._sizes[path]

    @property
    def left_out(self):
        """Files listed but left out when read (binary by content, unreadable, gone): path -> reason."""
        return dict(self._gone)

    def __getitem__(self, path):
        text = self._cache.get(path)
        if text is not None:
            self._cache.move_to_end(path)
            return text
        if path not in self._sizes:
            raise KeyError(path)
        if path in self._gone:
            raise KeyError('%s was left out when read: %s' % (path, self._gone[path]))
        self._load([path])
        text = self._cache.get(path)
        if text is None:
            raise KeyError('%s was left out when read: %s' % (path, self._gone.get(path, 'unreadable')))
        return text

    def _load(self, paths):
        texts, errors = self._fetch(paths)
        for i, path in enumerate(paths):
            text, error = texts[i], errors[i]
            # The reply's list lets go of each text as it is kept, so eviction sees who else holds it.
            texts[i] = None
            if text is None:
                self._gone[path] = str(error or 'unreadable')
                continue
            self.stats['files_read'] += 1
            self.stats['bytes_read'] += self._sizes.get(path, 0)
            self._keep(path, text)

    def _keep(self, path, text):
        self._cache[path] = text
        self._cached += sys.getsizeof(text)
        half = self.budget // 2
        while self._cached > half and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            size = sys.getsizeof(old)
            self._cached -= size
            if sys.getrefcount(old) > LazyContext._BASE:
                self._escaped += size
            del old
        if self._escaped > half:
            held = self._escaped
            self._escaped = 0
            raise ContextBudgetError(
                'this would hold more than %.1f MB of file text at once (%.1f MB already read in this cell and still held). '
                'context is a lazy folder of %d files, %.1f MB in all: the REPL keeps at most %.1f MB of it. Instead: '
                'search(pattern, paths=[...]) runs on the host over every file; peek(start, end, path=p) reads a slice; '
                'iterate and keep only what you need (for path, text in context.items(): ...), or take files in groups '
                '(paths = list(context)[i:i+500]) and hand each group to llm_query_batched / rlm_query, then combine the answers.'
                % (half / 1e6, held / 1e6, len(self), sum(self._sizes.values()) / 1e6, self.budget / 1e6))

    def new_cell(self):
        self._escaped = 0

    def _stream(self, with_keys):
        names, cache, gone = self._names, self._cache, self._gone
        batch_bytes = max(1 << 16, self.budget // 8)
        i, n = 0, len(names)
        while i < n:
            batch, total, j = [], 0, i
            while j < n and len(batch) < 256 and total < batch_bytes:
                p = names[j]
                if p not in cache and p not in gone:
                    batch.append(p)
                    total += self._sizes[p]
                j += 1
            if batch:
                self._load(batch)
            for k in range(i, j):
                p = names[k]
                if p in gone:
                    continue
                text = cache.get(p)
                if text is None:
                    text = self[p]
                else:
                    cache.move_to_end(p)
                item = (p, text) if with_keys else text
                text = None
                yield item
                item = None
            i = j

    def values(self):
        """Texts in key order, fetched in batches as the iteration reaches them (within the budget)."""
        return self._stream(False)

    def items(self):
        """(path, text) in key order, fetched in batches as the iteration reaches them (within the budget)."""
        return self._stream(True)

    def __copy__(self):
        return dict(self.items())

    def __reduce__(self):
        raise TypeError('a lazy context cannot be pickled; copy the files you need into your own dict')

def _rlm_install():
    capture_max_chars = 200_000
    limits = {'out_cell': _OUT_CELL_CHARS, 'out_total': _OUT_TOTAL_CHARS}
    ns = __main__.__dict__
    state = {'cell': 0, 'final': None, 'meta': {'type': 'none', 'total_chars': 0, 'file_count': 0}}
    counter = [0]

    def _count_replacement(exc):
        counter[0] += 1
        return ('\ufffd', exc.end)
    codecs.register_error('rlm_count_replace', _count_replacement)

    class KeptOutput(str):
        """_out[n]: a cell's stdout. When it was longer than _OUT_CELL_CHARS, this holds its first and
        last halves; `total_chars` is the true length and `kept_ranges` the [start, end) ranges held."""
        total_chars = 0
        kept_ranges = ()
        @property
        def cut(self):
            return self.total_chars > len(self)

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

    no_stdin = NoStdin()
    sys.stdin = no_stdin

    class Capture:
        """One stream of one cell. It keeps three things apart: what the host is sent live (the first
        `cap` characters, the display limit), the head and tail the host gets with the result (so the
        root model sees the real end of the output), and the whole text for _out up to _OUT_CELL_CHARS."""
        encoding = 'utf-8'
        errors = 'strict'
        def __init__(self, stream, cap):
            self.stream, self.cap = stream, cap
            self.opcode = b'E' if stream == 'stderr' else b'O'
            self.head, self.head_len = [], 0          # first _OUT_CELL_CHARS // 2 characters
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
            half = limits['out_cell'] // 2
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
        def flush(self):
            if self.pending:
                _device_request(self.opcode, ''.join(self.pending).encode('utf-8', 'surrogatepass'))
                self.pending, self.pending_len = [], 0
                self.flushed = True
            self.last_flush = time.monotonic()
        def kept(self):
            """The text _out keeps: whole, or head and tail with their ranges."""
            head = ''.join(self.head)
            tail = ''.join(self.tail)
            half = limits['out_cell'] // 2
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
        def isatty(self): return False
        def writable(self): return True
        def readable(self): return False

    def _flush_output():
        # Show what the cell printed so far before it blocks on a sub-call or a sleep.
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, Capture):
                stream.flush()

    def _raise_if_interrupted(status):
        if status:
            raise KeyboardInterrupt('interrupted')

    def _sleep(seconds):
        if seconds < 0:
            raise ValueError('sleep length must be non-negative')
        _flush_output()
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            _raise_if_interrupted(_device_request(b'S', b'%d' % int(min(left, 0.25) * 1000.0)) == b'1')

    def _bridge(call):
        _flush_output()
        reply = json.loads(_device_request(b'B', json.dumps(call).encode('utf-8', 'surrogatepass')))
        if reply.get('interrupted'):
            raise KeyboardInterrupt('interrupted while waiting for a sub-call')
        n = len(call['prompts'])
        if not reply.get('ok'):
            return ['[ERROR] ' + str(reply.get('message', 'sub-call failed'))] * n
        return [str(r) for r in reply['result']]

    def _prompt_list(prompts, what):
        if isinstance(prompts, (str, bytes)) or not hasattr(prompts, '__iter__'):
            raise TypeError(what + ' expects a list of prompts, got ' + type(prompts).__name__)
        ps = [_plain(p) for p in prompts]
        empty = [i for i, p in enumerate(ps) if not p.strip()]
        if empty:
            raise ValueError('%s: prompt%s %s %s empty; nothing was sent (an empty prompt would be billed for nothing)'
                             % (what, 's' if len(empty) > 1 else '', ', '.join('#%d' % i for i in empty[:10]), 'are' if len(empty) > 1 else 'is'))
        return ps

    def _plain(value):
        # A peek() slice is sent as the text it holds, not as its printed (numbered) view.
        return str.__str__(value) if isinstance(value, str) else str(value)

    def _one_prompt(prompt, what):
        text = _plain(prompt)
        if not text.strip():
            raise ValueError(what + ': the prompt is empty; nothing was sent (an empty prompt would be billed for nothing)')
        return text

    def _check_model(model):
        if model is not None and not isinstance(model, str):
            raise TypeError('model must be a string or None')
        return model

    def _jsonable(value, what):
        try:
            json.dumps(value)
        except (TypeError, ValueError) as e:
            raise TypeError(what + ' must be made of str, int, float, bool, None, list and dict: ' + str(e)) from None
        return value

    def llm_query(prompt, model=None):
        """Ask a sub-model one question; returns its answer, or a string starting with "[ERROR] "."""
        return _bridge({'kind': 'llm_query', 'prompts': [_one_prompt(prompt, 'llm_query')], 'model': _check_model(model), 'batched': False})[0]

    def llm_query_batched(prompts, model=None):
        """Ask many questions concurrently; answers come back in input order, failures as "[ERROR] ..." items."""
        ps = _prompt_list(prompts, 'llm_query_batched')
        if not ps:
            return []
        return _bridge({'kind': 'llm_query', 'prompts': ps, 'model': _check_model(model), 'batched': True})

    def _slice_text(value):
        # A slice as peek() and search() give it: a str (a peek is sent as its text), one search hit,
        # or a list of them, each hit as "path:line: text" (no path for a single text).
        if isinstance(value, str):
            return _plain(value)
        if isinstance(value, dict) and 'text' in value:
            where = ('%s:%s: ' % (value['path'], value.get('line', '?'))) if value.get('path') else ('line %s: ' % value['line'] if 'line' in value else '')
            return where + str(value['text'])
        if isinstance(value, (list, tuple)):
            return '\n'.join(_slice_text(v) for v in value)
        raise TypeError('sub_query: the slice must be a str, a peek(), or search() hits, got ' + type(value).__name__)

    def _utf16_len(text):
        # The host indexes strings in UTF-16 code units; a character outside the BMP is two of them.
        return len(text.encode('utf-16-le', 'surrogatepass')) // 2

    def sub_query(prompt, slice):
        """Ask the sub-model `prompt` about `slice` (a str, a peek(), or search() hits): like
        llm_query(prompt + slice), with the same limits, cache and cost, and the question and the slice
        kept apart in the record. Returns its answer, or a string starting with "[ERROR] "."""
        question = _one_prompt(prompt, 'sub_query')
        text = _slice_text(slice)
        head = question + '\n\n--- slice (%d characters) ---\n' % len(text)
        start = _utf16_len(head)
        return _bridge({'kind': 'llm_query', 'prompts': [head + text], 'model': None, 'batched': False,
                        'slices': [[start, start + _utf16_len(text)]]})[0]

    def rlm_query(prompt, context=None):
        """Run a recursive RLM over context (default: none); returns its answer or "[ERROR] ..."."""
        return _bridge({'kind': 'rlm_query', 'prompts': [_one_prompt(prompt, 'rlm_query')], 'contexts': [_jsonable(context, 'context')], 'batched': False})[0]

    def rlm_query_batched(prompts, contexts=None):
        """Run several recursive RLMs concurrently; one context per prompt (or None)."""
        ps = _prompt_list(prompts, 'rlm_query_batched')
        cs = [None] * len(ps) if contexts is None else list(contexts)
        if len(cs) != len(ps):
            raise ValueError('rlm_query_batched: %d prompts but %d contexts' % (len(ps), len(cs)))
        if not ps:
            return []
        return _bridge({'kind': 'rlm_query', 'prompts': ps, 'contexts': [_jsonable(c, 'contexts') for c in cs], 'batched': True})

    def _text_for(path, who):
        ctx = reserved['context']
        if isinstance(ctx, (dict, LazyContext)):
            if path is None:
                raise ValueError(who + ': context is a dict of files; pass path=<one of context.keys()>')
            if path not in ctx:
                raise KeyError(who + ': no file %r in context' % (path,))
            return ctx[path]
        if path is not None:
            raise ValueError(who + ': context is a single str; call without path')
        return ctx

    class Peek(str):
        """peek()'s slice: a str like any other (slice it, search it, pass it to llm_query), shown with
        its file's path and line numbers when printed, so what the model reads is what it can cite."""

        def __new__(cls, text, where, line, start, total):
            self = str.__new__(cls, text)
            self.where, self.line, self.start, self.total = where, line, start, total
            return self

        def numbered(self):
            rows = str.split(self, '\n')
            if len(rows) > 1 and rows[-1] == '':
                rows.pop()
            last = self.line + len(rows) - 1
            width = len(str(last))
            span = 'line %d' % self.line if last == self.line else 'lines %d-%d' % (self.line, last)
            head = '%s, %s (chars %d-%d of %d):' % (self.where, span, self.start, self.start + len(self), self.total)
            return '\n'.join([head] + ['%*d| %s' % (width, self.line + i, row) for i, row in enumerate(rows)])

        def __str__(self):
            return self.numbered()

        __repr__ = __str__

    def peek(start, end, path=None):
        """Return context[start:end] (or context[path][start:end]), at most 20,000 characters; printed,
        it shows its path (`context` for a single text) and the line number of each line."""
        text = _text_for(path, 'peek')
        start, end = max(0, int(start)), min(len(text), int(end))
        if end <= start:
            return ''
        if len(text) > 4 * _LINE_BLOCK:
            b = start // _LINE_BLOCK
            line = _line_blocks(text, not isinstance(reserved['context'], LazyContext))[b] + text.count('\n', b * _LINE_BLOCK, start) + 1
        else:
            line = text.count('\n', 0, start) + 1
        return Peek(text[start:min(end, start + _PEEK_MAX_CHARS)], 'context' if path is None else str(path), line, start, len(text))

    line_blocks = {}

    def _line_blocks(text, keep=True):
        # Newlines before each 4K block, built once per text: counting from the start for every hit
        # doubled the cost of a search over 50 MB, and 64K blocks still cost ~3 ms per 100 hits.
        entry = line_blocks.get(id(text))
        if entry is None or entry[0] is not text:
            counts, total = [0], 0
            for start in range(0, len(text), _LINE_BLOCK):
                total += text.count('\n', start, start + _LINE_BLOCK)
                counts.append(total)
            entry = (text, counts)
            if keep:
                line_blocks[id(text)] = entry
        return entry[1]

    def _host_search(ctx, pattern, max_hits, paths):
        # A lazy folder is searched on the host, over the files as they are on disk, in key order.
        if isinstance(pattern, str):
            source, flags = pattern, re.MULTILINE
        else:
            source, flags = pattern.pattern, pattern.flags | re.MULTILINE
        if not isinstance(source, str):
            raise TypeError('search over a folder takes a str pattern')
        names = None
        if paths is not None:
            names = [paths] if isinstance(paths, str) else [str(p) for p in paths]
            missing = [p for p in names if p not in ctx]
            if missing:
                raise KeyError('search: no file %r in context' % (missing[0],))
        flag_names = [n for n, f in (('i', re.IGNORECASE), ('s', re.DOTALL), ('x', re.VERBOSE), ('a', re.ASCII)) if flags & f]
        out = _context_call({'kind': 'context_search', 'pattern': source, 'flags': ''.join(flag_names), 'maxHits': max_hits, 'paths': names})
        if out.get('fallback'):
            sys.stderr.write('[rlm] search: %s; scanning the files in Python instead (slower)\n' % out['fallback'])
            rx = re.compile(source, flags)
            return _scan(rx, ctx.items() if names is None else ((p, ctx[p]) for p in names), max_hits, False)
        changed = out.get('changed') or []
        if changed:
            shown = ', '.join(changed[:5]) + (' and %d more' % (len(changed) - 5) if len(changed) > 5 else '')
            sys.stderr.write('[rlm] search: %d file(s) changed on disk while searched and were left out: %s; '
                             'search them again with paths=[...] once the folder stops changing\n' % (len(changed), shown))
        if out.get('truncated'):
            sys.stderr.write('[rlm] search: stopped at %d hits (max_hits); narrow the pattern or pass paths=[...] for the rest\n' % max_hits)
        return out['hits']

    def search(pattern, max_hits=100, path=None, paths=None):
        """Regex search over context: a list of {path, line (1-based), start, text (the line, clipped)}.
        Over a folder, `paths` limits it to some files; over a lazy folder it runs on the host."""
        ctx = reserved['context']
        max_hits = int(max_hits)
        if isinstance(ctx, LazyContext):
            if path is not None:
                paths = [path]
            return _host_search(ctx, pattern, max_hits, paths)
        rx = re.compile(pattern, re.MULTILINE) if isinstance(pattern, str) else pattern
        if isinstance(ctx, dict):
            if paths is not None and path is None:
                names = [paths] if isinstance(paths, str) else list(paths)
                targets = [(p, _text_for(p, 'search')) for p in names]
            else:
                targets = [(path, _text_for(path, 'search'))] if path is not None else list(ctx.items())
        else:
            targets = [(None, _text_for(path, 'search'))]
        return _scan(rx, targets, max_hits)

    def _scan(rx, targets, max_hits, keep_blocks=True):
        # keep_blocks=False for a lazy folder's texts: the line index would hold each text alive.
        hits = []
        for p, text in targets:
            line, pos = 1, 0
            blocks = _line_blocks(text, keep_blocks) if len(text) > 4 * _LINE_BLOCK else None
            for m in rx.finditer(text):
                if len(hits) >= max_hits:
                    return hits
                s = m.start()
                if blocks is None:
                    line += text.count('\n', pos, s)
                    pos = s
                else:
                    b = s // _LINE_BLOCK
                    line = blocks[b] + text.count('\n', b * _LINE_BLOCK, s) + 1
                ls = text.rfind('\n', 0, s) + 1
                le = text.find('\n', s)
                le = len(text) if le < 0 else le
                if le - ls > _SEARCH_LINE_MAX:
                    ls = max(ls, s - _SEARCH_LINE_MAX // 3)
                    le = min(le, ls + _SEARCH_LINE_MAX)
                hits.append({'path': p, 'line': line, 'start': s, 'text': text[ls:le]})
        return hits

    def context_meta():
        """Type, size and file list of context (the same facts the root model was given)."""
        return dict(state['meta'])

    class _ShownText(str):
        """SHOW_VARS's listing: already printed, so printing it again adds nothing (not even "None")."""
        def __str__(self):
            return ''

    module_type = type(sys)

    def SHOW_VARS():
        """Print and return your variables (not modules, private names or the REPL's own), with types and sizes."""
        rows = []
        for name, value in ns.items():
            if name.startswith('_') or name in reserved or name in baseline or isinstance(value, module_type):
                continue
            size = ''
            try:
                size = ' len=%d' % len(value)
            except Exception:
                pass
            rows.append('%s: %s%s' % (name, type(value).__name__, size))
        text = '\n'.join(rows) if rows else '(no variables yet)'
        print(text)
        return _ShownText(text)

    class _FinalGiven(BaseException):
        """Raised by FINAL and FINAL_VAR to stop the cell at once; the runner takes it as the answer."""

    def _give_final(value, via):
        # The first FINAL of a cell wins, even if a bare `except:` swallowed its stop.
        if state['final'] is None:
            state['final'] = {'value': value, 'via': via}
        raise _FinalGiven()

    def FINAL(answer):
        """End the run with this answer. Code after it in the cell does not run."""
        _give_final(str(answer), 'FINAL')

    def FINAL_VAR(name_or_value):
        """End the run with the value of the variable named by the string, or with the value given."""
        if isinstance(name_or_value, str):
            name = name_or_value.strip()
            if not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError('FINAL_VAR expects the name of a variable, got %r; use FINAL(text) to answer with text' % (name_or_value[:80],))
            if name not in ns:
                raise NameError('FINAL_VAR: no variable named %r is defined; assign it first or use FINAL(text)' % (name,))
            value = ns[name]
        else:
            value = name_or_value
        _give_final(value if isinstance(value, str) else str(value), 'FINAL_VAR')

    answer = {'content': '', 'ready': False}

    class OutStore(dict):
        # _out[n]: each cell's captured stdout, so later cells can slice it without printing again. Kept
        # newest first up to 100 cells' worth at the capture limit in total, so a long run cannot grow the
        # REPL's memory without end; a dropped entry says why instead of a bare KeyError.
        def __init__(self):
            super().__init__()
            self.dropped = set()
        def record(self, n, text):
            self[n] = text
            keep = limits['out_total']
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
                raise KeyError('_out[%r] was dropped to bound memory (outputs are kept newest first, up to %d characters in all); recompute it' % (key, limits['out_total']))
            raise KeyError(key)

    out_store = OutStore()
    reserved = {
        'context': None, 'context_meta': context_meta, 'peek': peek, 'search': search,
        'ctx': None, 'llm_query': llm_query, 'llm_query_batched': llm_query_batched, 'sub_query': sub_query,
        'rlm_query': rlm_query, 'rlm_query_batched': rlm_query_batched,
        'SHOW_VARS': SHOW_VARS, 'FINAL': FINAL, 'FINAL_VAR': FINAL_VAR,
        'answer': answer, '_out': out_store,
    }

    def _no_process(*args, **kwargs):
        raise OSError('starting processes is not available in the RLM sandbox')

    def _no_exit(*args, **kwargs):
        raise OSError('exiting the interpreter is not available in the RLM REPL; end the run with FINAL(answer)')

    # Measured: past ~12,000 nested Python frames the wasm stack overflows and the REPL crashes (all
    # variables lost); a RecursionError is the answer the model can act on, so the limit is capped.
    max_recursion = 10_000
    real_setrecursionlimit = sys.setrecursionlimit

    def _setrecursionlimit(limit):
        limit = int(limit)
        if limit > max_recursion:
            sys.stderr.write('[rlm] recursion limit capped at %d (asked for %d): deeper recursion would crash the REPL; use an explicit stack instead.\n' % (max_recursion, limit))
        real_setrecursionlimit(min(limit, max_recursion))

    def _harden():
        # Conveniences and defence in depth only: the barriers are the layers in docs/security.md.
        time.sleep = _sleep
        sys.setrecursionlimit = _setrecursionlimit
        signal.signal = _signal
        os.system = _no_process
        os.popen = _no_process
        os._exit = os.abort = _no_exit
        # A handler that ignores SIGINT would turn every soft timeout into a hard one (and lose state).
        real_signal(signal.SIGINT, signal.default_int_handler)
        for name in ('fork', 'forkpty', 'execv', 'execve', 'spawnv', 'spawnve', 'posix_spawn', 'posix_spawnp'):
            if hasattr(os, name):
                setattr(os, name, _no_process)
        for mod in [m for m in sys.modules if m in ('js', 'pyodide_js') or m.startswith(('js.', 'pyodide_js.'))]:
            sys.modules.pop(mod, None)
        sub = sys.modules.get('subprocess')
        if sub is not None:
            sub.Popen = _no_process
            sub.run = sub.call = sub.check_call = sub.check_output = sub.getoutput = sub.getstatusoutput = _no_process

    def _restore():
        restored = []
        cur = ns.get('answer')
        if cur is not answer and isinstance(cur, dict):
            answer.update({k: cur[k] for k in ('content', 'ready') if k in cur})
        for name, obj in reserved.items():
            if ns.get(name) is not obj:
                ns[name] = obj
                restored.append(name)
        return restored

    def _format_error(e, type_name=None):
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith('<cell-')]
        lines = []
        if frames:
            lines.append('Traceback (most recent call last):\n')
            lines.extend(traceback.format_list(frames))
        lines.extend(traceback.format_exception_only(type(e), e))
        return {'type': type_name or type(e).__name__, 'message': str(e), 'traceback': ''.join(lines)}

    def _end_cell_timers():
        # Nothing a cell arms may run after it (the worker also clears the JS timers behind these):
        # interval timers and alarms are disarmed, and signal handlers other than the interrupt one go
        # back to their defaults.
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
        for sig, handler in list(armed_handlers.items()):
            if signal.getsignal(sig) is not handler:
                continue
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        armed_handlers.clear()

    armed_handlers = {}
    real_signal = signal.signal

    def _signal(sig, handler):
        # Remembered, so _end_cell_timers can put the default back without probing every signal.
        previous = real_signal(sig, handler)
        if sig != signal.SIGINT and callable(handler):
            armed_handlers[sig] = handler
        return previous

    # Binding: the host streams `context` as frames (src/core/repl/contextFrames.ts): a 9-byte head
    # (kind, meta length, data length, little-endian), the meta (a file's path) and the data. 'T' is
    # the one text, 'F' one file of a dict, 'E' the end, 'A' an abort (the host could not read what it
    # announced). The bytes come in chunks of at most a few MB, so no side ever holds the input twice
    # in full: each entry is decoded the moment its last byte arrives, and its bytes are dropped.
    # An entry of _TEXT_TARGET_MIN bytes or more that spans chunks is written by the worker straight
    # into the str it becomes (src/worker/textTarget.ts), while its bytes are ASCII: bind_feed returns
    # 'N<size>' to ask for that str and '+' when it is full, and the worker hands it to bind_adopt. At
    # the first other byte the prefix comes back and the entry is decoded from a buffer as any other.
    _HEAD = 9
    _TEXT_TARGET_MIN = 1 << 20
    binding = {}

    def _set_context(value):
        # `ctx` is `context` itself (the name another RLM system's prompts use), never a copy, in
        # every binding mode; both are reserved, so rebinding either is undone after the cell.
        for name in ('context', 'ctx'):
            reserved[name] = value
            ns[name] = value

    def bind_begin():
        # Binding again (same session, same user: a follow-up about another target) starts clean.
        for name in [k for k in ns if k not in baseline and k not in reserved]:
            del ns[name]
        answer.clear()
        answer.update({'content': '', 'ready': False})
        out_store.clear()
        state['final'] = None
        _set_context(None)
        line_blocks.clear()
        gc.collect()
        binding.clear()
        binding.update(head=bytearray(), entry=None, shape=None, names=[], texts=[], chars=[], repl=[], lazy=None, scratch=binding.get('scratch'))

    def _record_text(path, text, replacements):
        binding['names'].append(path)
        binding['texts'].append(text)
        binding['chars'].append(len(text))
        binding['repl'].append(replacements)

    def _decode_entry(path, view, kind='F'):
        if kind == 'Z':
            binding['lazy'] = json.loads(bytes(view).decode('utf-8'))
            return
        if kind == 'L':
            binding['names'].append(path)
            binding['chars'].append(int.from_bytes(bytes(view[:4]), 'little'))
            return
        counter[0] = 0
        text = str(view, 'utf-8', 'rlm_count_replace')
        _record_text(path, text, counter[0])

    def _open_entry(kind, path, size, view, pos):
        """Starts an entry; one that lies whole in this chunk is decoded from it without a copy."""
        if binding['shape'] is None:
            binding['shape'] = 'str' if kind == 'T' else 'dict'
        if len(view) - pos >= size:
            _decode_entry(path, view[pos:pos + size], kind)
            return pos + size
        entry = {'path': path, 'size': size, 'filled': 0, 'kind': kind, 'buf': None}
        if kind in ('T', 'F') and size >= _TEXT_TARGET_MIN:
            entry['carry'] = bytes(view[pos:])  # at most a chunk: written to the str once it exists
        else:
            entry['buf'] = bytearray(size)
            entry['buf'][:len(view) - pos] = view[pos:]
            entry['filled'] = len(view) - pos
        binding['entry'] = entry
        return len(view)

    def _to_buffer(entry, prefix):
        """The entry leaves the text target: a buffer of its size holding the `prefix` bytes written so far."""
        buf = entry['buf'] = bytearray(entry['size'])
        if prefix:
            _device_read_into(b'P', memoryview(buf)[:entry['filled']])
        carry = entry.pop('carry', b'')
        buf[entry['filled']:entry['filled'] + len(carry)] = carry
        entry['filled'] += len(carry)

    def _feed_entry(entry, left, opened):
        """Moves up to `left` pending bytes into the open entry; returns (bytes taken, reply or None)."""
        if 'carry' in entry:
            # The worker has just answered 'N': the str exists (opened) or could not be made.
            if not opened:
                _to_buffer(entry, False)
            elif _device_request(b'W', entry['carry']) == b'1':
                entry['filled'] = len(entry.pop('carry'))
            else:
                _to_buffer(entry, True)
        take = min(entry['size'] - entry['filled'], left)
        if entry['buf'] is None:
            if take and _device_request(b'T', b'%d' % take) != b'1':
                _to_buffer(entry, True)
                return 0, None
            entry['filled'] += take
        elif take:
            with memoryview(entry['buf']) as whole:
                _device_read_into(b'C', whole[entry['filled']:entry['filled'] + take], b'%d' % take)
            entry['filled'] += take
        if entry['filled'] < entry['size']:
            return take, None
        binding['entry'] = None
        if entry['buf'] is None:
            binding['adopt'] = entry
            return take, '+'
        _decode_entry(entry['path'], entry['buf'], entry['kind'])
        entry['buf'] = None
        return take, None

    def _finish_bind():
        names, texts, chars, repl = binding['names'], binding['texts'], binding['chars'], binding['repl']
        lazy = binding.get('lazy')
        if lazy is not None:
            # A folder larger than the eager limit: keys now, contents over the bridge when first read.
            ctx = LazyContext(names, chars, _context_read, int(lazy.get('budgetBytes', 64 << 20)))
            files = [{'path': p, 'chars': c} for p, c in zip(names[:_META_FILES_MAX], chars[:_META_FILES_MAX])]
            meta = {'type': 'dict', 'mode': 'lazy', 'total_chars': sum(chars), 'file_count': len(ctx),
                    'files': files, 'files_omitted': max(0, len(names) - _META_FILES_MAX),
                    'cache_budget_bytes': ctx.budget, 'approximate_chars': True}
            meta['invalid_utf8_replacements'] = 0
            state['meta'] = meta
            binding.update(names=[], texts=[], lazy=None)
            _set_context(ctx)
            return json.dumps({'chars': [], 'invalidUtf8Replacements': [], 'lazy': True})
        if binding['shape'] == 'str':
            ctx = texts[0] if texts else ''
            meta = {'type': 'str', 'total_chars': len(ctx), 'file_count': 1}
        else:
            ctx = ContextDict(zip(names, texts))
            files = [{'path': p, 'chars': c} for p, c in zip(names, chars)]
            meta = {'type': 'dict', 'mode': 'eager', 'total_chars': sum(chars), 'file_count': len(ctx),
                    'files': files[:_META_FILES_MAX], 'files_omitted': max(0, len(files) - _META_FILES_MAX)}
        meta['invalid_utf8_replacements'] = sum(repl)
        state['meta'] = meta
        binding.update(names=[], texts=[])
        _set_context(ctx)
        return json.dumps({'chars': chars, 'invalidUtf8Replacements': repl})

    def bind_feed(n, opened=None):
        """Takes the next `n` offered bytes of the frame stream. Returns the summary at the end, '' for
        more, 'N<size>' for a text target of that size (called again with `opened`), '+' when the text
        target is full (bind_adopt, then called again with what is left)."""
        left = n
        entry = binding['entry']
        if entry is not None and 'carry' in entry and opened is None:
            raise ValueError('a text target was asked for and not answered')
        while left > 0 or (entry is not None and 'carry' in entry):
            if entry is not None:
                took, reply = _feed_entry(entry, left, opened)
                left -= took
                if reply:
                    return reply
                entry = binding['entry']
                continue
            scratch = binding.get('scratch')
            if scratch is None or len(scratch) < left:
                scratch = binding['scratch'] = bytearray(max(left, 1 << 20))
            whole = memoryview(scratch)
            view = whole[:left]
            try:
                _device_read_into(b'C', view)
                left = 0
                pos = 0
                while pos < len(view):
                    if binding['entry'] is not None:
                        raise ValueError('context frames ran past an open entry')
                    head = binding['head']
                    want = _HEAD if len(head) < _HEAD else _HEAD + int.from_bytes(head[1:5], 'little')
                    take = min(want - len(head), len(view) - pos)
                    head += view[pos:pos + take]
                    pos += take
                    if len(head) < _HEAD or len(head) < _HEAD + int.from_bytes(head[1:5], 'little'):
                        continue
                    kind = chr(head[0])
                    size = int.from_bytes(head[5:9], 'little')
                    path = bytes(head[_HEAD:]).decode('utf-8')
                    head.clear()
                    if kind == 'E':
                        return _finish_bind()
                    if kind == 'A':
                        binding.update(names=[], texts=[], entry=None)
                        return json.dumps({'aborted': True})
                    if kind not in ('T', 'F', 'L', 'Z'):
                        raise ValueError('unknown context frame %r' % kind)
                    pos = _open_entry(kind, path if kind in ('F', 'L') else None, size, view, pos)
            finally:
                view.release()
                whole.release()
            entry = binding['entry']
            if entry is not None and 'carry' in entry:
                return 'N%d' % entry['size']
        return ''

    def bind_adopt(text):
        """The full text target from the worker: the entry's str, held once."""
        entry = binding.pop('adopt', None)
        if entry is None or type(text) is not str or len(text) != entry['size']:
            raise ValueError('no text target to adopt')
        _record_text(entry['path'], text, 0)

    def run_cell(code):
        state['cell'] += 1
        n = state['cell']
        if isinstance(reserved['context'], LazyContext):
            reserved['context'].new_cell()
        fname = '<cell-%d>' % n
        out, err = Capture('stdout', capture_max_chars), Capture('stderr', capture_max_chars)
        before = set(ns)
        draft_before = answer.get('content')
        state['final'] = None
        error, interrupted = None, False
        _harden()
        sys.stdout, sys.stderr, sys.stdin = out, err, no_stdin
        try:
            linecache.cache[fname] = (len(code), None, code.splitlines(True), fname)
            tree = ast.parse(code, fname, 'exec')
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, fname, 'exec'), ns)
            if last is not None:
                value = eval(compile(last, fname, 'eval'), ns)
                if value is not None and not isinstance(value, _ShownText):
                    print(repr(value))
        except _FinalGiven:
            pass  # FINAL / FINAL_VAR: the cell stops here, and its output so far stands
        except KeyboardInterrupt as e:
            interrupted = True
            error = _format_error(e, 'Interrupted')
        except BaseException as e:
            error = _format_error(e)
        finally:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
            # Also here, not only in _harden(): an interrupt that arrives before the next cell reaches
            # _harden() must not meet a handler this cell set to ignore it.
            real_signal(signal.SIGINT, signal.default_int_handler)
            _end_cell_timers()
        restored = _restore()
        if restored:
            err.write('[rlm] restored reserved name(s) %s: they belong to the REPL API; use other variable names.\n' % ', '.join(restored))
        out.flush()
        err.flush()
        final = state['final']
        if final is None and answer.get('ready'):
            final = {'value': str(answer.get('content', '')), 'via': 'answer'}
            answer['ready'] = False
        kept = out.kept()
        out_store.record(n, kept)
        new_vars = sorted(k for k in ns if k not in before and not k.startswith('__') and k not in reserved)
        err_kept = err.kept()
        result = {'stdout': out.for_host(kept), 'stderr': err.for_host(err_kept), 'stdoutChars': out.total, 'stderrChars': err.total,
                  'error': error, 'newVariables': new_vars, 'final': final, 'outIndex': n, 'interrupted': interrupted}
        # Where the host's copy jumps from the head to the tail, so views can mark the gap there.
        if out.total > capture_max_chars:
            result['stdoutCutAt'] = capture_max_chars // 2
        if err.total > capture_max_chars:
            result['stderrCutAt'] = capture_max_chars // 2
        draft = answer.get('content')
        if isinstance(draft, str) and draft.strip() and draft is not draft_before:
            result['answerDraft'] = draft[:capture_max_chars]
        if kept.cut:
            result['outKept'] = {'chars': len(kept), 'ranges': [list(r) for r in kept.kept_ranges]}
        return json.dumps(result)

    def recover():
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        _restore()

    _harden()
    _restore()
    # What a fresh process holds before any cell: binding a new context returns to exactly this.
    baseline = {k: v for k, v in ns.items() if k not in reserved}

    def warm():
        # One throwaway cell at start-up, so the first real cell does not pay for cold code paths; then
        # the counters and names it left are put back, so the first real cell is cell 1.
        run_cell('_rlm_warm = [1]\n_rlm_warm.clear()')
        ns.pop('_rlm_warm', None)
        out_store.clear()
        state['cell'] = 0
        for name in [k for k in linecache.cache if isinstance(k, str) and k.startswith('<cell-')]:
            linecache.cache.pop(name, None)

    def _hot_path_steps():
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

    hot_path_steps = _hot_path_steps()

    def warm_paths():
        """Runs the next warm-up step; False once there are none left (the strings are then freed)."""
        return next(hot_path_steps, None) is not None

    def attach(max_chars, out_cell_chars=_OUT_CELL_CHARS, out_total_chars=_OUT_TOTAL_CHARS):
        nonlocal capture_max_chars
        capture_max_chars = int(max_chars)
        # JS passes undefined (None here) for "the default".
        limits['out_cell'] = max(2, int(out_cell_chars if out_cell_chars is not None else _OUT_CELL_CHARS))
        limits['out_total'] = max(1, int(out_total_chars if out_total_chars is not None else _OUT_TOTAL_CHARS))

    class Api:
        pass
    api = Api()
    api.bind_begin, api.bind_feed, api.run_cell, api.recover, api.warm, api.attach = bind_begin, bind_feed, run_cell, recover, warm, attach
    api.warm_paths = warm_paths
    api.bind_adopt = bind_adopt
    return api
