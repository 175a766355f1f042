# The REPL's one way out (sandbox layer 1: Python reaches no JavaScript object). Everything the
# prelude sends out or receives travels as bytes through one Emscripten device file (DEVICE_PATH),
# whose handlers live in the worker (src/worker/pythonChannel.ts). Python holds only file descriptors,
# so there is no JS function in any closure, default or frame for a cell to walk to. A request is one
# write(2) of an opcode byte and a payload; a reply is a 4-byte big-endian length and that many bytes,
# read back with read(2).
import json, os

DEVICE_PATH = '/dev/rlm'
# Bound once, so a cell that rebinds os.write cannot intercept the prelude's own channel.
_os_open, _os_close, _os_read, _os_write, _os_readv, _O_RDWR = os.open, os.close, os.read, os.write, os.readv, os.O_RDWR


def request(op, payload=b''):
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


def read_into(op, buf, payload=b''):
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


def bridge_request(payload):
    """A bridge request (sub-calls, context reads and searches): JSON bytes in, JSON bytes out."""
    return request(b'B', payload)


def context_call(call, send=bridge_request):
    """A request about the bound folder, answered by the host (reads, search): JSON in, JSON out."""
    reply = json.loads(send(json.dumps(call).encode('utf-8', 'surrogatepass')))
    if reply.get('interrupted'):
        raise KeyboardInterrupt('interrupted while reading context')
    if not reply.get('ok'):
        raise OSError('context: ' + str(reply.get('message', 'the host could not answer')))
    return json.loads(reply['result'][0])


def context_read(paths):
    """The texts of `paths` in the bound folder, and for each one left out the reason (else None)."""
    out = context_call({'kind': 'context_read', 'paths': list(paths)})
    return out['texts'], out['errors']


def host_sleep(ms):
    """Waits `ms` milliseconds on the host; True when the cell was interrupted meanwhile."""
    return request(b'S', b'%d' % ms) == b'1'


def send_output(opcode, payload):
    """Live output of a cell: b'O' stdout, b'E' stderr (no reply)."""
    request(opcode, payload)
