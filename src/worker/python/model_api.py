# The names the model's code calls (docs/rlm-contract.md): sub-calls (llm_query[_batched], sub_query,
# rlm_query[_batched]), reading the input (peek, search, context_meta) and the workspace (SHOW_VARS,
# FINAL, FINAL_VAR). Each group is an object given what it needs (the session, a send function), so it
# can be exercised alone; model_names() lists them under the names a cell sees.
import sys, re, json, keyword

from _rlm_context_views import LINE_BLOCK, LazyContext
from _rlm_output import _ShownText, flush_output

PEEK_MAX_CHARS = 20_000
SEARCH_LINE_MAX = 300


def _plain(value):
    # A peek() slice is sent as the text it holds, not as its printed (numbered) view.
    return str.__str__(value) if isinstance(value, str) else str(value)


def _one_prompt(prompt, what):
    text = _plain(prompt)
    if not text.strip():
        raise ValueError(what + ': the prompt is empty; nothing was sent (an empty prompt would be billed for nothing)')
    return text


def _prompt_list(prompts, what):
    if isinstance(prompts, (str, bytes)) or not hasattr(prompts, '__iter__'):
        raise TypeError(what + ' expects a list of prompts, got ' + type(prompts).__name__)
    ps = [_plain(p) for p in prompts]
    empty = [i for i, p in enumerate(ps) if not p.strip()]
    if empty:
        raise ValueError('%s: prompt%s %s %s empty; nothing was sent (an empty prompt would be billed for nothing)'
                         % (what, 's' if len(empty) > 1 else '', ', '.join('#%d' % i for i in empty[:10]), 'are' if len(empty) > 1 else 'is'))
    return ps


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


class SubCalls:
    """llm_query, llm_query_batched, sub_query, rlm_query, rlm_query_batched. `send(payload)` takes the
    request as JSON bytes and returns the host's reply as JSON bytes; `flush` shows the cell's output so
    far before the cell waits."""

    def __init__(self, send, flush=flush_output):
        self._send, self._flush = send, flush

    def _bridge(self, call):
        self._flush()
        reply = json.loads(self._send(json.dumps(call).encode('utf-8', 'surrogatepass')))
        if reply.get('interrupted'):
            raise KeyboardInterrupt('interrupted while waiting for a sub-call')
        n = len(call['prompts'])
        if not reply.get('ok'):
            return ['[ERROR] ' + str(reply.get('message', 'sub-call failed'))] * n
        return [str(r) for r in reply['result']]

    def llm_query(self, prompt, model=None):
        """Ask a sub-model one question; returns its answer, or a string starting with "[ERROR] "."""
        return self._bridge({'kind': 'llm_query', 'prompts': [_one_prompt(prompt, 'llm_query')], 'model': _check_model(model), 'batched': False})[0]

    def llm_query_batched(self, prompts, model=None):
        """Ask many questions concurrently; answers come back in input order, failures as "[ERROR] ..." items."""
        ps = _prompt_list(prompts, 'llm_query_batched')
        if not ps:
            return []
        return self._bridge({'kind': 'llm_query', 'prompts': ps, 'model': _check_model(model), 'batched': True})

    def sub_query(self, prompt, slice):
        """Ask the sub-model `prompt` about `slice` (a str, a peek(), or search() hits): like
        llm_query(prompt + slice), with the same limits, cache and cost, and the question and the slice
        kept apart in the record. Returns its answer, or a string starting with "[ERROR] "."""
        question = _one_prompt(prompt, 'sub_query')
        text = _slice_text(slice)
        head = question + '\n\n--- slice (%d characters) ---\n' % len(text)
        start = _utf16_len(head)
        return self._bridge({'kind': 'llm_query', 'prompts': [head + text], 'model': None, 'batched': False,
                             'slices': [[start, start + _utf16_len(text)]]})[0]

    def rlm_query(self, prompt, context=None):
        """Run a recursive RLM over context (default: none); returns its answer or "[ERROR] ..."."""
        return self._bridge({'kind': 'rlm_query', 'prompts': [_one_prompt(prompt, 'rlm_query')], 'contexts': [_jsonable(context, 'context')], 'batched': False})[0]

    def rlm_query_batched(self, prompts, contexts=None):
        """Run several recursive RLMs concurrently; one context per prompt (or None)."""
        ps = _prompt_list(prompts, 'rlm_query_batched')
        cs = [None] * len(ps) if contexts is None else list(contexts)
        if len(cs) != len(ps):
            raise ValueError('rlm_query_batched: %d prompts but %d contexts' % (len(ps), len(cs)))
        if not ps:
            return []
        return self._bridge({'kind': 'rlm_query', 'prompts': ps, 'contexts': [_jsonable(c, 'contexts') for c in cs], 'batched': True})


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


def scan(rx, targets, max_hits, lines, keep_blocks=True):
    """Search hits of `rx` over (path, text) pairs, at most `max_hits`, each with its 1-based line.
    keep_blocks=False for a lazy folder's texts: the line index would hold each text alive."""
    hits = []
    for p, text in targets:
        line, pos = 1, 0
        blocks = lines.blocks(text, keep_blocks) if len(text) > 4 * LINE_BLOCK else None
        for m in rx.finditer(text):
            if len(hits) >= max_hits:
                return hits
            s = m.start()
            if blocks is None:
                line += text.count('\n', pos, s)
                pos = s
            else:
                b = s // LINE_BLOCK
                line = blocks[b] + text.count('\n', b * LINE_BLOCK, s) + 1
            ls = text.rfind('\n', 0, s) + 1
            le = text.find('\n', s)
            le = len(text) if le < 0 else le
            if le - ls > SEARCH_LINE_MAX:
                ls = max(ls, s - SEARCH_LINE_MAX // 3)
                le = min(le, ls + SEARCH_LINE_MAX)
            hits.append({'path': p, 'line': line, 'start': s, 'text': text[ls:le]})
    return hits


class ContextTools:
    """peek, search and context_meta over the session's bound `context`. `context_call(call)` asks the
    host about a lazy folder (channel.context_call)."""

    def __init__(self, session, context_call):
        self.session, self._context_call = session, context_call

    def _text_for(self, path, who):
        ctx = self.session.context
        if isinstance(ctx, (dict, LazyContext)):
            if path is None:
                raise ValueError(who + ': context is a dict of files; pass path=<one of context.keys()>')
            if path not in ctx:
                raise KeyError(who + ': no file %r in context' % (path,))
            return ctx[path]
        if path is not None:
            raise ValueError(who + ': context is a single str; call without path')
        return ctx

    def peek(self, start, end, path=None):
        """Return context[start:end] (or context[path][start:end]), at most 20,000 characters; printed,
        it shows its path (`context` for a single text) and the line number of each line."""
        text = self._text_for(path, 'peek')
        start, end = max(0, int(start)), min(len(text), int(end))
        if end <= start:
            return ''
        line = self.session.lines.line_at(text, start, not isinstance(self.session.context, LazyContext))
        return Peek(text[start:min(end, start + PEEK_MAX_CHARS)], 'context' if path is None else str(path), line, start, len(text))

    def search(self, pattern, max_hits=100, path=None, paths=None):
        """Regex search over context: a list of {path, line (1-based), start, text (the line, clipped)}.
        Over a folder, `paths` limits it to some files; over a lazy folder it runs on the host."""
        ctx = self.session.context
        max_hits = int(max_hits)
        if isinstance(ctx, LazyContext):
            if path is not None:
                paths = [path]
            return self._host_search(ctx, pattern, max_hits, paths)
        rx = re.compile(pattern, re.MULTILINE) if isinstance(pattern, str) else pattern
        if isinstance(ctx, dict):
            if paths is not None and path is None:
                names = [paths] if isinstance(paths, str) else list(paths)
                targets = [(p, self._text_for(p, 'search')) for p in names]
            else:
                targets = [(path, self._text_for(path, 'search'))] if path is not None else list(ctx.items())
        else:
            targets = [(None, self._text_for(path, 'search'))]
        return scan(rx, targets, max_hits, self.session.lines)

    def _host_search(self, ctx, pattern, max_hits, paths):
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
        out = self._context_call({'kind': 'context_search', 'pattern': source, 'flags': ''.join(flag_names), 'maxHits': max_hits, 'paths': names})
        if out.get('fallback'):
            sys.stderr.write('[rlm] search: %s; scanning the files in Python instead (slower)\n' % out['fallback'])
            rx = re.compile(source, flags)
            return scan(rx, ctx.items() if names is None else ((p, ctx[p]) for p in names), max_hits, self.session.lines, False)
        changed = out.get('changed') or []
        if changed:
            shown = ', '.join(changed[:5]) + (' and %d more' % (len(changed) - 5) if len(changed) > 5 else '')
            sys.stderr.write('[rlm] search: %d file(s) changed on disk while searched and were left out: %s; '
                             'search them again with paths=[...] once the folder stops changing\n' % (len(changed), shown))
        unreadable = out.get('unreadable') or []
        for entry in unreadable[:5]:
            sys.stderr.write('[rlm] search: %s was left out: %s\n' % (entry.get('path'), entry.get('detail')))
        if len(unreadable) > 5:
            sys.stderr.write('[rlm] search: %d more files could not be read and were left out\n' % (len(unreadable) - 5))
        if out.get('truncated'):
            sys.stderr.write('[rlm] search: stopped at %d hits (max_hits); narrow the pattern or pass paths=[...] for the rest\n' % max_hits)
        return out['hits']

    def context_meta(self):
        """Type, size and file list of context (the same facts the root model was given)."""
        return dict(self.session.meta)


class Workspace:
    """SHOW_VARS, FINAL and FINAL_VAR: the model's variables and how a run ends."""

    def __init__(self, session):
        self.session = session

    def SHOW_VARS(self):
        """Print and return your variables (not modules, private names or the REPL's own), with types and sizes."""
        s = self.session
        rows = []
        for name, value in s.ns.items():
            if name.startswith('_') or name in s.reserved or name in s.baseline or isinstance(value, type(sys)):
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

    def FINAL(self, answer):
        """End the run with this answer. Code after it in the cell does not run."""
        self.session.give_final(str(answer), 'FINAL')

    def FINAL_VAR(self, name_or_value):
        """End the run with the value of the variable named by the string, or with the value given."""
        if isinstance(name_or_value, str):
            name = name_or_value.strip()
            if not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError('FINAL_VAR expects the name of a variable, got %r; use FINAL(text) to answer with text' % (name_or_value[:80],))
            if name not in self.session.ns:
                raise NameError('FINAL_VAR: no variable named %r is defined; assign it first or use FINAL(text)' % (name,))
            value = self.session.ns[name]
        else:
            value = name_or_value
        self.session.give_final(value if isinstance(value, str) else str(value), 'FINAL_VAR')


def model_names(session, sub_calls, tools, workspace):
    """The API under the names a cell sees, in the order the REPL reserves them."""
    return {
        'context': session.context, 'context_meta': tools.context_meta, 'peek': tools.peek, 'search': tools.search,
        'ctx': session.context, 'llm_query': sub_calls.llm_query, 'llm_query_batched': sub_calls.llm_query_batched,
        'sub_query': sub_calls.sub_query, 'rlm_query': sub_calls.rlm_query, 'rlm_query_batched': sub_calls.rlm_query_batched,
        'SHOW_VARS': workspace.SHOW_VARS, 'FINAL': workspace.FINAL, 'FINAL_VAR': workspace.FINAL_VAR,
        'answer': session.answer, '_out': session.out_store,
    }
