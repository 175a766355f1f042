// The bridge pipe's two ends in isolation: the host's frame decoder and call handling (holding a call
// for earlier output, cancelling, refusing malformed frames), and the worker's synchronous fd I/O.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { BridgePipe, isBridgeCall } from '../../../../src/core/repl/bridgePipe';
import { ChannelViolation, encodeFrame, FrameReader, parseJsonBody } from '../../../../src/core/repl/frameCodec';
import type { BridgeReply } from '../../../../src/core/repl/replProtocol';
import type { BridgeCall } from '../../../../src/core/repl/replTypes';
import { BridgePipeClosedError, fdFrameIo, probeBridgePipe } from '../../../../src/worker/bridgePipeSync';

const call: BridgeCall = { kind: 'llm_query', prompts: ['q'], batched: false };

/** The host's reader as a function of chunks: JSON bodies out, ChannelViolation thrown. */
class FrameDecoder {
  private readonly reader: FrameReader;
  constructor(max = 1024 * 1024 * 1024) {
    this.reader = new FrameReader('test', () => max);
  }
  push(chunk: Buffer): unknown[] {
    const out: unknown[] = [];
    this.reader.push(chunk, (body) => out.push(parseJsonBody('test', body)));
    return out;
  }
}

/** A socket stand-in: what the host writes is decoded into `written`; `feed` plays the worker. */
function fakeSocket() {
  const written: unknown[] = [];
  const decoder = new FrameDecoder();
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written.push(...decoder.push(chunk));
      done();
    },
  });
  return { socket, written, feed: (value: unknown) => socket.push(encodeFrame(value)) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FrameDecoder', () => {
  it('reassembles frames cut anywhere, and several in one chunk', () => {
    const bytes = Buffer.concat([encodeFrame({ a: 1 }), encodeFrame({ b: 'é'.repeat(70_000) }), encodeFrame([3])]);
    for (const cut of [1, 3, 5, 4096, bytes.length - 2]) {
      const decoder = new FrameDecoder();
      const frames = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut))];
      assert.deepEqual(frames, [{ a: 1 }, { b: 'é'.repeat(70_000) }, [3]], `cut at ${cut}`);
    }
    const decoder = new FrameDecoder();
    const one: unknown[] = [];
    for (const byte of encodeFrame({ x: 'y' })) one.push(...decoder.push(Buffer.from([byte])));
    assert.deepEqual(one, [{ x: 'y' }], 'byte by byte');
  });

  it('refuses a frame that announces more than the limit, before buffering it', () => {
    const decoder = new FrameDecoder(1024);
    assert.throws(() => decoder.push(Buffer.from([0, 0, 4, 1])), /1025 bytes announced, over the 1024-byte bound/);
  });

  it('refuses a body that is not JSON', () => {
    const frame = Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('{{{')]);
    assert.throws(() => new FrameDecoder().push(frame), ChannelViolation);
  });
});

describe('isBridgeCall', () => {
  it('accepts what the prelude sends and nothing else', () => {
    assert.ok(isBridgeCall(call));
    assert.ok(isBridgeCall({ kind: 'llm_query', prompts: ['a', 'b'], model: null, batched: true }));
    assert.ok(isBridgeCall({ kind: 'rlm_query', prompts: ['a'], contexts: [{ x: 1 }], batched: false }));
    for (const bad of [null, 'x', { kind: 'llm_query', prompts: 'q', batched: false }, { kind: 'llm_query', prompts: [1], batched: false }, { kind: 'rlm_query', prompts: ['a'], contexts: [], batched: false }, { kind: 'shell', prompts: [], batched: false }, { kind: 'llm_query', prompts: [], batched: false, model: 3 }]) {
      assert.equal(isBridgeCall(bad), false, JSON.stringify(bad));
    }
  });
});

describe('BridgePipe (host end)', () => {
  it('echoes the probe, answers a call, and holds a call until the output printed before it has arrived', async () => {
    const { socket, written, feed } = fakeSocket();
    const calls: Array<{ callId: number; reply: (r: BridgeReply) => void }> = [];
    const pipe = new BridgePipe(socket, { call: (callId, _call, reply) => calls.push({ callId, reply }), malformed: (e) => assert.fail(e.message) });
    feed({ callId: 0, hello: true });
    await tick();
    assert.deepEqual(written, [{ callId: 0, hello: true }]);
    feed({ callId: 1, afterOutputs: 0, call });
    await tick();
    calls[0]!.reply({ callId: 1, ok: true, result: ['a'] });
    assert.deepEqual(written[1], { callId: 1, ok: true, result: ['a'] });
    feed({ callId: 2, afterOutputs: 2, call });
    await tick();
    pipe.outputArrived();
    assert.equal(calls.length, 1, 'one of two earlier outputs is still on its way');
    pipe.outputArrived();
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.callId, 2);
  });

  it('cancels the call in flight on an interrupt, and drops its late answer', async () => {
    const { socket, written, feed } = fakeSocket();
    let late: ((r: BridgeReply) => void) | undefined;
    const pipe = new BridgePipe(socket, { call: (_id, _call, reply) => (late = reply), malformed: (e) => assert.fail(e.message) });
    pipe.cancelPending();
    assert.deepEqual(written, [], 'nothing to cancel');
    feed({ callId: 5, afterOutputs: 0, call });
    await tick();
    pipe.cancelPending();
    late?.({ callId: 5, ok: true, result: ['too late'] });
    assert.deepEqual(written, [{ callId: 5, cancelled: true }]);
  });

  it('reports frames that are not calls instead of dispatching them, once, and then reads nothing more', async () => {
    const bad: Array<(s: ReturnType<typeof fakeSocket>) => void> = [
      ({ feed }) => feed({ callId: 1, afterOutputs: 0, call: { kind: 'llm_query', prompts: 'not a list', batched: false } }),
      ({ feed }) => feed({ nothing: true }),
      ({ socket }) => socket.push(Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from('{')])),
      ({ feed }) => feed({ callId: 1, afterOutputs: 0, call, extra: 1 }),
      ({ feed }) => [1, 2].forEach((callId) => feed({ callId, afterOutputs: 0, call })),
      ({ feed }) => [1, 2].forEach(() => feed({ callId: 0, hello: true })),
    ];
    for (const [i, send] of bad.entries()) {
      const fake = fakeSocket();
      const problems: string[] = [];
      let calls = 0;
      new BridgePipe(fake.socket, { call: () => calls++, malformed: (e) => problems.push(e.detail) });
      send(fake);
      fake.feed({ callId: 9, afterOutputs: 0, call });
      await tick();
      assert.equal(problems.length, 1, `case ${i}: ${problems.join('; ')}`);
      assert.ok(calls <= 1, `case ${i}: nothing is read after the break`);
    }
  });
});

describe('BridgePipe: a child run nested in the parent call (issue 33)', () => {
  const rlm: BridgeCall = { kind: 'rlm_query', prompts: ['kid'], contexts: ['c'], batched: false };
  const exec = { child: 1, op: 'exec' as const, code: 'x = 1' };

  /** A pipe whose worker is blocked on call 1 (an rlm_query); `calls` records each call with its depth. */
  async function blockedOnRlmQuery(captureMaxChars = 100) {
    const fake = fakeSocket();
    const calls: Array<{ callId: number; depth: number; reply: (r: BridgeReply) => void }> = [];
    const problems: string[] = [];
    const pipe = new BridgePipe(fake.socket, { call: (callId, _call, reply, depth) => calls.push({ callId, depth, reply }), malformed: (e) => problems.push(e.detail) }, captureMaxChars);
    fake.feed({ callId: 1, afterOutputs: 0, call: rlm });
    await tick();
    return { ...fake, pipe, calls, problems };
  }

  it("runs a child's cell on the parent's call: its output and sub-calls one level deeper, the parent's reply held until the cell is done", async () => {
    const { pipe, calls, written, feed, problems } = await blockedOnRlmQuery();
    const outputs: string[] = [];
    const done: unknown[] = [];
    assert.equal(pipe.nestedOp(2, exec, { output: () => undefined, done: () => undefined }), false, 'only on the call the worker is blocked on');
    assert.equal(pipe.nestedOp(1, exec, { output: (_s, text) => outputs.push(text), done: (d) => done.push(d) }), true);
    assert.equal(pipe.nestedOp(1, exec, { output: () => undefined, done: () => undefined }), false, 'one op at a time');
    assert.deepEqual(written.at(-1), { callId: 1, nested: exec });
    feed({ callId: 1, nestedOutput: { child: 1, stream: 'stdout', text: 'hi' } });
    feed({ callId: 2, afterOutputs: 0, call });
    await tick();
    assert.deepEqual(outputs, ['hi']);
    assert.deepEqual(calls.map((c) => [c.callId, c.depth]), [[1, 0], [2, 1]]);
    calls[0]!.reply({ callId: 1, ok: true, result: ['early'] });
    assert.equal(written.length, 1, "the parent's answer waits: the worker is reading the child's call");
    calls[1]!.reply({ callId: 2, ok: true, result: ['inner'] });
    assert.deepEqual(written.at(-1), { callId: 2, ok: true, result: ['inner'] });
    const result = { stdout: 'hi', stderr: '', stdoutChars: 2, stderrChars: 0, newVariables: ['x'], outIndex: 1, interrupted: false };
    feed({ callId: 1, nestedDone: { child: 1, op: 'exec', result } });
    await tick();
    assert.deepEqual(done, [{ child: 1, op: 'exec', result }]);
    assert.deepEqual(written.at(-1), { callId: 1, ok: true, result: ['early'] }, 'and goes once the worker reads the parent call again');
    assert.deepEqual(problems, []);
  });

  it("an interrupt of the child cancels only the child's call; one of the parent waits for the child's cell to end", async () => {
    const { pipe, written, feed } = await blockedOnRlmQuery();
    pipe.nestedOp(1, exec, { output: () => undefined, done: () => undefined });
    feed({ callId: 2, afterOutputs: 0, call });
    await tick();
    pipe.cancelPending(1);
    assert.deepEqual(written.at(-1), { callId: 2, cancelled: true });
    pipe.cancelPending(0);
    assert.deepEqual(written.at(-1), { callId: 2, cancelled: true }, 'the parent call is not cancelled while the child cell runs');
    feed({ callId: 1, nestedDone: { child: 1, op: 'exec', result: { stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: 1, interrupted: true } } });
    await tick();
    assert.deepEqual(written.at(-1), { callId: 1, cancelled: true });
  });

  it('a forged nested frame is a protocol break: no op in flight, another child or op, output past the cap, a call too deep', async () => {
    const result = { stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], outIndex: 1, interrupted: false };
    const forged: Array<[string, boolean, unknown[]]> = [
      ['output with no op in flight', false, [{ callId: 1, nestedOutput: { child: 1, stream: 'stdout', text: 'x' } }]],
      ['an outcome with no op in flight', false, [{ callId: 1, nestedDone: { child: 1, op: 'close' } }]],
      ["another child's outcome", true, [{ callId: 1, nestedDone: { child: 2, op: 'exec', result } }]],
      ['the outcome of another op', true, [{ callId: 1, nestedDone: { child: 1, op: 'close' } }]],
      ['on another call', true, [{ callId: 7, nestedOutput: { child: 1, stream: 'stdout', text: 'x' } }]],
      ['output past the capture limit', true, [{ callId: 1, nestedOutput: { child: 1, stream: 'stdout', text: 'x'.repeat(101) } }]],
      ['a result past the capture limit', true, [{ callId: 1, nestedDone: { child: 1, op: 'exec', result: { ...result, stdout: 'x'.repeat(101) } } }]],
      ['a call two levels deep', true, [{ callId: 2, afterOutputs: 0, call }, { callId: 3, afterOutputs: 0, call }]],
      ['a call reusing an id in flight', true, [{ callId: 1, afterOutputs: 0, call }]],
      ['an outcome with an extra field', true, [{ callId: 1, nestedDone: { child: 1, op: 'exec', result, extra: 1 } }]],
    ];
    for (const [label, withOp, frames] of forged) {
      const { pipe, calls, feed, problems } = await blockedOnRlmQuery();
      const done: unknown[] = [];
      if (withOp) pipe.nestedOp(1, exec, { output: () => undefined, done: (d) => done.push(d) });
      for (const frame of frames) feed(frame);
      await tick();
      assert.equal(problems.length, 1, `${label}: ${problems.join('; ')}`);
      assert.deepEqual(done, [], `${label}: nothing reaches the child's session`);
      assert.ok(calls.length <= 2, `${label}: no call past the break`);
    }
  });
});

describe('fdFrameIo (worker end)', () => {
  it('writes frames the host decodes, reads frames of any size, and says when the pipe is closed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-frames-'));
    try {
      const out = openSync(join(dir, 'out'), 'w');
      fdFrameIo(out).write('{"callId":1,"x":"é"}');
      closeSync(out);
      assert.deepEqual(new FrameDecoder().push(readFileSync(join(dir, 'out'))), [{ callId: 1, x: 'é' }]);

      const big = 'z'.repeat(200_000);
      writeFileSync(join(dir, 'in'), Buffer.concat([encodeFrame({ callId: 0, hello: true }), encodeFrame({ n: 1 }), encodeFrame({ big }), encodeFrame({ n: 2 })]));
      const fd = openSync(join(dir, 'in'), 'r');
      const io = fdFrameIo(fd);
      assert.deepEqual(JSON.parse(io.read()), { callId: 0, hello: true });
      assert.deepEqual(JSON.parse(io.read()), { n: 1 });
      assert.equal((JSON.parse(io.read()) as { big: string }).big.length, 200_000);
      assert.deepEqual(JSON.parse(io.read()), { n: 2 });
      assert.throws(() => io.read(), BridgePipeClosedError);
      closeSync(fd);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the probe reports a pipe that cannot be used, rather than throwing', () => {
    const problem = probeBridgePipe(fdFrameIo(987_654));
    assert.match(problem ?? '', /EBADF/);
  });
});
