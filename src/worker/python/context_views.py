# Views of the bound input: the read-only dict of an eager folder (ContextDict), the lazy folder whose
# texts are fetched from the host when read (LazyContext), and the line index that turns a character
# offset into a line number without counting from the start of a large text each time (LineIndex).
import sys
from collections import OrderedDict
from collections.abc import Mapping

LINE_BLOCK = 1 << 12


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


def _refcount_baseline():
    # What sys.getrefcount reports for a text only the eviction code holds (it varies across Python
    # versions), measured the way _keep measures: an evicted text above it is still held elsewhere.
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



class LineIndex:
    """Newlines before each 4K block of a text, built once per text: counting from the start for every
    hit doubled the cost of a search over 50 MB, and 64K blocks still cost ~3 ms per 100 hits."""

    def __init__(self):
        self._texts = {}

    def blocks(self, text, keep=True):
        """Newline counts before each LINE_BLOCK of `text`; keep=False for a text the index must not
        hold alive (a lazy folder's, which the folder's cache may drop)."""
        entry = self._texts.get(id(text))
        if entry is None or entry[0] is not text:
            counts, total = [0], 0
            for start in range(0, len(text), LINE_BLOCK):
                total += text.count('\n', start, start + LINE_BLOCK)
                counts.append(total)
            entry = (text, counts)
            if keep:
                self._texts[id(text)] = entry
        return entry[1]

    def line_at(self, text, pos, keep=True):
        """The 1-based line of the character at `pos`."""
        if len(text) > 4 * LINE_BLOCK:
            b = pos // LINE_BLOCK
            return self.blocks(text, keep)[b] + text.count('\n', b * LINE_BLOCK, pos) + 1
        return text.count('\n', 0, pos) + 1

    def clear(self):
        self._texts.clear()
