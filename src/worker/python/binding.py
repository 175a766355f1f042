# Binding the input: the host streams `context` as frames (src/core/repl/contextFrames.ts): a 9-byte
# head (kind, meta length, data length, little-endian), the meta (a file's path) and the data. 'T' is
# the one text, 'F' one file of a dict, 'L' one file of a lazy folder (its size only), 'Z' the lazy
# folder's settings, 'M' what the input is (JSON: format, and parts, pages or cells; added to
# context_meta()), 'E' the end, 'A' an abort (the host could not read what it announced). The bytes
# come in chunks of at most a few MB, so no side ever holds the input twice in full: each entry is
# decoded the moment its last byte arrives, and its bytes are dropped.
# An entry of TEXT_TARGET_MIN bytes or more that spans chunks is written by the worker straight into
# the str it becomes (src/worker/textTarget.ts), while its bytes are ASCII: feed() returns 'N<size>'
# to ask for that str and '+' when it is full, and the worker hands it to adopt(). At the first other
# byte the prefix comes back and the entry is decoded from a buffer as any other.
import codecs, json

from _rlm_context_views import ContextDict, LazyContext

HEAD = 9
TEXT_TARGET_MIN = 1 << 20
META_FILES_MAX = 100


class _ReplacementCounter:
    """The 'rlm_count_replace' decoding error handler: U+FFFD for each invalid byte run, counted."""

    def __init__(self):
        self.count = 0

    def __call__(self, exc):
        self.count += 1
        return ('\ufffd', exc.end)


_replacements = _ReplacementCounter()
codecs.register_error('rlm_count_replace', _replacements)


def decode(view):
    """UTF-8 text of `view` with invalid bytes replaced, and how many replacements were made."""
    _replacements.count = 0
    text = str(view, 'utf-8', 'rlm_count_replace')
    return text, _replacements.count


class Entry:
    """One frame's data arriving over several chunks: into `buf`, or (a large text while its bytes
    are ASCII) into the worker's text target, with `carry` the bytes read before the target exists."""

    def __init__(self, kind, path, size):
        self.kind, self.path, self.size = kind, path, size
        self.filled = 0
        self.buf = None
        self.carry = None  # bytes (maybe empty) while a text target is being asked for

    @property
    def asking(self):
        return self.carry is not None


class Files:
    """The entries decoded so far, in order: paths, texts, lengths in characters, replacement counts."""

    def __init__(self):
        self.names, self.texts, self.chars, self.repl = [], [], [], []

    def add(self, path, text, replacements):
        self.names.append(path)
        self.texts.append(text)
        self.chars.append(len(text))
        self.repl.append(replacements)

    def add_planned(self, path, chars):
        self.names.append(path)
        self.chars.append(chars)


class Binder:
    """bind_begin, bind_feed and bind_adopt: parses the frame stream into `context` and context_meta.
    `channel` reads the stream (channel.request, channel.read_into); `context_read` fetches a lazy
    folder's texts when read."""

    def __init__(self, session, channel, context_read):
        self.session, self.channel, self.context_read = session, channel, context_read
        self.scratch = None
        self._reset()

    def _reset(self):
        self.head = bytearray()
        self.entry = None
        self.shape = None
        self.files = Files()
        self.lazy = None
        self.format = None
        self.adopting = None

    def begin(self):
        """Starts a bind: the namespace is cleared and the frame parser reset."""
        self.session.reset_for_bind()
        self._reset()

    def feed(self, n, opened=None):
        """Takes the next `n` offered bytes of the frame stream. Returns the summary at the end, '' for
        more, 'N<size>' for a text target of that size (called again with `opened`), '+' when the text
        target is full (adopt, then called again with what is left)."""
        left = n
        entry = self.entry
        if entry is not None and entry.asking and opened is None:
            raise ValueError('a text target was asked for and not answered')
        while left > 0 or (entry is not None and entry.asking):
            if entry is not None:
                took, reply = self._feed_entry(entry, left, opened)
                left -= took
                if reply:
                    return reply
                entry = self.entry
                continue
            reply = self._read_frames(left)
            left = 0
            if reply is not None:
                return reply
            entry = self.entry
            if entry is not None and entry.asking:
                return 'N%d' % entry.size
        return ''

    def _read_frames(self, size):
        """Reads `size` bytes of frames: the end's summary or an abort, else None."""
        if self.scratch is None or len(self.scratch) < size:
            self.scratch = bytearray(max(size, 1 << 20))
        whole = memoryview(self.scratch)
        view = whole[:size]
        try:
            self.channel.read_into(b'C', view)
            pos = 0
            while pos < len(view):
                if self.entry is not None:
                    raise ValueError('context frames ran past an open entry')
                head = self.head
                want = HEAD if len(head) < HEAD else HEAD + int.from_bytes(head[1:5], 'little')
                take = min(want - len(head), len(view) - pos)
                head += view[pos:pos + take]
                pos += take
                if len(head) < HEAD or len(head) < HEAD + int.from_bytes(head[1:5], 'little'):
                    continue
                kind = chr(head[0])
                size = int.from_bytes(head[5:9], 'little')
                path = bytes(head[HEAD:]).decode('utf-8')
                head.clear()
                if kind == 'E':
                    return self._finish()
                if kind == 'A':
                    self.files = Files()
                    self.format = None
                    self.entry = None
                    return json.dumps({'aborted': True})
                if kind not in ('T', 'F', 'L', 'Z', 'M'):
                    raise ValueError('unknown context frame %r' % kind)
                pos = self._open_entry(kind, path if kind in ('F', 'L') else None, size, view, pos)
            return None
        finally:
            view.release()
            whole.release()

    def _decode_entry(self, path, view, kind):
        if kind == 'Z':
            self.lazy = json.loads(bytes(view).decode('utf-8'))
        elif kind == 'M':
            self.format = json.loads(bytes(view).decode('utf-8'))
        elif kind == 'L':
            self.files.add_planned(path, int.from_bytes(bytes(view[:4]), 'little'))
        else:
            text, replacements = decode(view)
            self.files.add(path, text, replacements)

    def _open_entry(self, kind, path, size, view, pos):
        """Starts an entry; one that lies whole in this chunk is decoded from it without a copy."""
        if self.shape is None and kind != 'M':
            self.shape = 'str' if kind == 'T' else 'dict'
        if len(view) - pos >= size:
            self._decode_entry(path, view[pos:pos + size], kind)
            return pos + size
        entry = Entry(kind, path, size)
        if kind in ('T', 'F') and size >= TEXT_TARGET_MIN:
            entry.carry = bytes(view[pos:])  # at most a chunk: written to the str once it exists
        else:
            entry.buf = bytearray(size)
            entry.buf[:len(view) - pos] = view[pos:]
            entry.filled = len(view) - pos
        self.entry = entry
        return len(view)

    def _to_buffer(self, entry, prefix):
        """The entry leaves the text target: a buffer of its size holding the `prefix` bytes written so far."""
        buf = entry.buf = bytearray(entry.size)
        if prefix:
            self.channel.read_into(b'P', memoryview(buf)[:entry.filled])
        carry = entry.carry or b''
        entry.carry = None
        buf[entry.filled:entry.filled + len(carry)] = carry
        entry.filled += len(carry)

    def _feed_entry(self, entry, left, opened):
        """Moves up to `left` pending bytes into the open entry; returns (bytes taken, reply or None)."""
        if entry.asking:
            # The worker has just answered 'N': the str exists (opened) or could not be made.
            if not opened:
                self._to_buffer(entry, False)
            elif self.channel.request(b'W', entry.carry) == b'1':
                entry.filled = len(entry.carry)
                entry.carry = None
            else:
                self._to_buffer(entry, True)
        take = min(entry.size - entry.filled, left)
        if entry.buf is None:
            if take and self.channel.request(b'T', b'%d' % take) != b'1':
                self._to_buffer(entry, True)
                return 0, None
            entry.filled += take
        elif take:
            with memoryview(entry.buf) as whole:
                self.channel.read_into(b'C', whole[entry.filled:entry.filled + take], b'%d' % take)
            entry.filled += take
        if entry.filled < entry.size:
            return take, None
        self.entry = None
        if entry.buf is None:
            self.adopting = entry
            return take, '+'
        self._decode_entry(entry.path, entry.buf, entry.kind)
        entry.buf = None
        return take, None

    def adopt(self, text):
        """The full text target from the worker: the entry's str, held once."""
        entry, self.adopting = self.adopting, None
        if entry is None or type(text) is not str or len(text) != entry.size:
            raise ValueError('no text target to adopt')
        self.files.add(entry.path, text, 0)

    def _format_meta(self):
        """What the input is (the 'M' frame): 'format' ('text' for plain text), and its parts, pages or cells."""
        sent, self.format = self.format, None
        if not isinstance(sent, dict) or 'format' not in sent:
            return {'format': 'text'}
        return sent

    def _finish(self):
        files, self.files = self.files, Files()
        if self.lazy is not None:
            lazy, self.lazy = self.lazy, None
            return self._finish_lazy(files, lazy)
        names, texts, chars = files.names, files.texts, files.chars
        if self.shape == 'str':
            ctx = texts[0] if texts else ''
            meta = {'type': 'str', 'total_chars': len(ctx), 'file_count': 1}
        else:
            ctx = ContextDict(zip(names, texts))
            listed = [{'path': p, 'chars': c} for p, c in zip(names, chars)]
            meta = {'type': 'dict', 'mode': 'eager', 'total_chars': sum(chars), 'file_count': len(ctx),
                    'files': listed[:META_FILES_MAX], 'files_omitted': max(0, len(listed) - META_FILES_MAX)}
        meta['invalid_utf8_replacements'] = sum(files.repl)
        meta.update(self._format_meta())
        self.session.meta = meta
        files.texts = texts = None
        self.session.set_context(ctx)
        return json.dumps({'chars': chars, 'invalidUtf8Replacements': files.repl})

    def _finish_lazy(self, files, lazy):
        # A folder larger than the eager limit: keys now, contents over the bridge when first read.
        names, chars = files.names, files.chars
        ctx = LazyContext(names, chars, self.context_read, int(lazy.get('budgetBytes', 64 << 20)))
        listed = [{'path': p, 'chars': c} for p, c in zip(names[:META_FILES_MAX], chars[:META_FILES_MAX])]
        meta = {'type': 'dict', 'mode': 'lazy', 'total_chars': sum(chars), 'file_count': len(ctx),
                'files': listed, 'files_omitted': max(0, len(names) - META_FILES_MAX),
                'cache_budget_bytes': ctx.budget, 'approximate_chars': True}
        meta['invalid_utf8_replacements'] = 0
        meta.update(self._format_meta())
        self.session.meta = meta
        self.session.set_context(ctx)
        return json.dumps({'chars': [], 'invalidUtf8Replacements': [], 'lazy': True})
