// The host's reading of the REPL process's channel, fed hostile byte sequences directly: truncated and
// oversized frames, bytes that are not UTF-8 or not JSON, messages of the wrong shape or with extra
// fields, floods and dribbles. Whatever comes in, the reader either yields checked messages or reports
// one ChannelViolation, never throws anything else, and holds no more than the frame bound.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Duplex } from 'node:stream';
import { ChildMessageCheck, checkBridgeFrame, MAX_CHANNEL_FRAME_BYTES } from '../../../../src/core/repl/childMessages';
import { ChannelViolation, encodeFrame, encodeRawFrame, FrameReader, parseJsonBody } from '../../../../src/core/repl/frameCodec';
import { ReplChannel } from '../../../../src/core/repl/replChannel';
import type { ChildToHost } from '../../../../src/core/repl/replProtocol';

const frame = (body: Buffer | string): Buffer => {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(4);
  header.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([header, bytes]);
};

function bodies(chunks: Buffer[], max = 1024): Buffer[] {
  const reader = new FrameReader('test', () => max);
  const out: Buffer[] = [];
  for (const chunk of chunks) reader.push(chunk, (body) => out.push(Buffer.from(body)));
  return out;
}

const result = { stdout: 'hi\n', stderr: '', stdoutChars: 3, stderrChars: 0, newVariables: ['x'], outIndex: 1, interrupted: false, error: null, final: null };

describe('FrameReader: hostile byte sequences', () => {
  it('a truncated frame yields nothing and holds only what arrived', () => {
    const reader = new FrameReader('test', () => 1 << 30);
    const seen: Buffer[] = [];
    reader.push(Buffer.from([0x10, 0, 0, 0]), (b) => seen.push(b)); // announces 256 MB
    reader.push(Buffer.from('abc'), (b) => seen.push(b));
    assert.deepEqual(seen, []);
    assert.equal(reader.buffered, 3, 'nothing is allocated for bytes that never came');
  });

  it('an oversized length is refused at its header, before any body byte', () => {
    for (const header of [[0xff, 0xff, 0xff, 0xff], [0, 0, 4, 1]]) {
      assert.throws(() => bodies([Buffer.from(header)]), (e: unknown) => e instanceof ChannelViolation && /over the 1024-byte bound/.test(e.message));
    }
  });

  // How fast (a megabyte byte by byte, a flood of small frames) is measured in bench/hostPathsBench.ts.
  it('reassembles frames cut anywhere, dribbled byte by byte, holding each byte once', () => {
    const big = 'é'.repeat(300_000);
    const bytes = Buffer.concat([frame('{"a":1}'), frame(JSON.stringify({ big })), frame('[3]')]);
    for (const cut of [1, 3, 4, 5, 9, 4096, bytes.length - 2]) {
      const got = bodies([bytes.subarray(0, cut), bytes.subarray(cut)], 1 << 20).map((b) => parseJsonBody('test', b));
      assert.deepEqual(got, [{ a: 1 }, { big }, [3]], `cut at ${cut}`);
    }
    const reader = new FrameReader('test', () => 1 << 21);
    const payload = frame(Buffer.alloc(1 << 20, 0x61));
    let got = 0;
    let drift = 0;
    for (let i = 0; i < payload.length; i++) {
      reader.push(payload.subarray(i, i + 1), (b) => (got = b.length));
      // Held: exactly the bytes of the unfinished header or body, never a growing copy of them.
      const expected = i < 3 ? i + 1 : i === payload.length - 1 ? 0 : i - 3;
      if (reader.buffered !== expected) drift++;
    }
    assert.equal(got, 1 << 20);
    assert.equal(drift, 0, 'the reader held other than the bytes of the frame being read');
  });

  it('a flood of small frames is read in one pass', () => {
    const one = frame('{}');
    const flood = Buffer.concat(Array.from({ length: 200_000 }, () => one));
    let bounds = 0;
    const reader = new FrameReader('test', () => (bounds++, 1024));
    let frames = 0;
    reader.push(flood, () => frames++);
    assert.equal(frames, 200_000);
    assert.equal(bounds, 200_000, 'each header is read once');
    assert.equal(reader.buffered, 0);
  });

  it('bodies that are not UTF-8 or not JSON are ChannelViolations, not thrown SyntaxErrors', () => {
    for (const body of [Buffer.from([0xc3, 0x28]), Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from('{'), Buffer.from(''), Buffer.from('NaN'), Buffer.from('{"a":1}garbage')]) {
      assert.throws(() => parseJsonBody('test', body), ChannelViolation, body.toString('hex'));
    }
  });
});

describe('ChildMessageCheck: every field typed and sized, nothing undeclared', () => {
  const check = new ChildMessageCheck(100);
  const refused = (value: unknown): void => assert.throws(() => check.message(value), ChannelViolation, JSON.stringify(value).slice(0, 200));

  it('accepts what the REPL process sends', () => {
    check.message({ type: 'output', stream: 'stdout', text: 'hello' });
    check.message({ type: 'result', id: 3, result });
    check.message({ type: 'result', id: 3, result: { ...result, final: { value: 'x'.repeat(10_000), via: 'FINAL' }, error: { type: 'E', message: 'm', traceback: 't' }, stdoutCutAt: 50, outKept: { chars: 3, ranges: [[0, 3]] } } });
    check.message({ type: 'bridgeCall', callId: 1, call: { kind: 'rlm_query', prompts: ['a'], contexts: [{ deep: [[1]] }], batched: false } });
    check.message({ type: 'bound', id: 1, summary: { chars: [3], invalidUtf8Replacements: [0] } });
    check.message({ type: 'bound', id: 1, summary: { chars: [], invalidUtf8Replacements: [], lazy: true } });
    check.message({ type: 'bound', id: 1, summary: { aborted: true } });
    check.message({ type: 'interruptApplied' });
    check.message({ type: 'snapshot', key: 'k', byteLength: 31_457_408 });
  });

  it('refuses wrong types, unknown types, missing and extra fields, oversized text', () => {
    refused(null);
    refused([1]);
    refused('output');
    refused({ type: 'shell', command: 'rm' });
    refused({ type: 'output', stream: 'stdout' });
    refused({ type: 'output', stream: 'stdin', text: 'x' });
    refused({ type: 'output', stream: 'stdout', text: 5 });
    refused({ type: 'output', stream: 'stdout', text: 'x', extra: true });
    refused({ type: 'output', stream: 'stdout', text: 'x'.repeat(101) });
    refused({ type: 'result', id: 1, result: { ...result, stdout: 'y'.repeat(101) } });
    refused({ type: 'result', id: -1, result });
    refused({ type: 'result', id: 1.5, result });
    refused({ type: 'result', id: 1, result: { ...result, subCalls: [{ tokens: 1e9 }] } });
    refused({ type: 'result', id: 1, result: { ...result, contextReads: { files: 1 } } });
    refused({ type: 'bridgeCall', callId: 1, call: { kind: 'llm_query', prompts: 'q', batched: false } });
    refused({ type: 'bridgeCall', callId: 1, call: { kind: 'rlm_query', prompts: ['a', 'b'], contexts: [null], batched: true } });
    refused({ type: 'snapshot', key: 'k', byteLength: 2 ** 40 });
    refused({ type: 'fatal', reason: 'crash' });
    refused({ type: 'bound', id: 1, summary: { lazy: true } });
    refused({ type: 'bound', id: 1, summary: { aborted: false } });
  });

  it('refuses a context nested deeper than the bound without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    assert.throws(() => check.message({ type: 'bridgeCall', callId: 1, call: { kind: 'rlm_query', prompts: ['a'], contexts: [deep], batched: false } }), /nested more than 64 deep/);
    assert.throws(() => checkBridgeFrame({ callId: 1, afterOutputs: 0, call: { kind: 'rlm_query', prompts: ['a'], contexts: [deep], batched: false } }), ChannelViolation);
  });
});

/** A socket stand-in for the channel: `feed` plays the REPL process. */
function channelPair(captureMaxChars = 100) {
  const socket = new Duplex({ read() {}, write: (_c, _e, done) => done() });
  const messages: ChildToHost[] = [];
  const violations: ChannelViolation[] = [];
  new ReplChannel(socket, captureMaxChars, { message: (m) => messages.push(m), violation: (v) => violations.push(v) });
  return { messages, violations, feed: (bytes: Buffer) => socket.push(bytes) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const ready = { type: 'ready', info: { loadMode: 'cold', loadMs: 1, pyodideVersion: 'v', snapshotKey: 'k', bridgeTransport: 'pipe', pythonProbes: [], runtimeProbes: [], networkProbes: [], processProbes: [], notes: [] } };

describe('ReplChannel: one violation, then nothing more is read', () => {
  it('passes checked messages, takes a snapshot as raw bytes before ready, and refuses one after', async () => {
    const { messages, violations, feed } = channelPair();
    const bytes = new Uint8Array([0, 1, 2, 255]);
    feed(Buffer.concat([encodeFrame({ type: 'snapshot', key: 'k', byteLength: 4 }), ...encodeRawFrame(bytes), encodeFrame(ready), encodeFrame({ type: 'output', stream: 'stdout', text: 'hi' })]));
    await tick();
    assert.equal(violations.length, 0);
    assert.deepEqual(
      messages.map((m) => m.type),
      ['snapshot', 'ready', 'output'],
    );
    assert.deepEqual([...(messages[0] as { bytes: Uint8Array }).bytes], [0, 1, 2, 255]);
    feed(encodeFrame({ type: 'snapshot', key: 'k', byteLength: 4 }));
    feed(encodeFrame({ type: 'output', stream: 'stdout', text: 'after' }));
    await tick();
    assert.equal(violations.length, 1);
    assert.match(violations[0]!.message, /snapshot message after the process was ready/);
    assert.equal(messages.length, 3, 'nothing after the violation is passed on');
  });

  it('a snapshot whose bytes differ from its announcement, or that announces over the bound, is a violation', async () => {
    const short = channelPair();
    short.feed(Buffer.concat([encodeFrame({ type: 'snapshot', key: 'k', byteLength: 4 }), frame(Buffer.alloc(3))]));
    const huge = channelPair();
    huge.feed(encodeFrame({ type: 'snapshot', key: 'k', byteLength: MAX_CHANNEL_FRAME_BYTES + 1 }));
    await tick();
    assert.equal(short.violations.length, 1);
    assert.equal(huge.violations.length, 1);
  });

  it('the 12 bytes that crashed the host through Node\'s IPC channel are one violation', async () => {
    const { messages, violations, feed } = channelPair();
    feed(Buffer.from([0, 0, 0, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    feed(encodeFrame({ type: 'interruptApplied' }));
    await tick();
    assert.equal(violations.length, 1);
    assert.deepEqual(messages, []);
  });
});
