// Python lines for REPL tests that feed context frames to a binder without the worker: `frame(kind,
// meta, data)` builds one frame of the context stream, and FakeChannel serves a stream's bytes as the
// channel device would (read_into) and refuses every text target (request).
export const FAKE_CHANNEL_PY = [
  'def frame(kind, meta=b"", data=b""):',
  "    return kind + len(meta).to_bytes(4, 'little') + len(data).to_bytes(4, 'little') + meta + data",
  'class FakeChannel:',
  '    def __init__(self, data):',
  '        self.data, self.pos = data, 0',
  "    def read_into(self, op, buf, payload=b''):",
  '        buf[:] = self.data[self.pos:self.pos + len(buf)]',
  '        self.pos += len(buf)',
  "    def request(self, op, payload=b''):",
  "        return b'0'",
];
