// Model servers are hostile: every reply, streamed or not, of any content type, encoding or status,
// is capped in bytes and in time at the transport, below the SDKs' parsing. Each case here goes
// through the real SDKs to a server at 127.0.0.1 that lies about what it sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import { ModelResponseTooLargeError, ModelStallError, ModelTimeoutError } from '../../../../src/core/models/modelErrors';
import type { ChatMessage, CompleteOptions, ModelConfig, ProviderKind } from '../../../../src/core/models/modelTypes';
import { errorKindOf } from '../../../../src/core/errorKind';
import { startHostileServer } from '../../../fakes/fakeHostileServer';
import type { HostileBehaviour, HostileServer } from '../../../fakes/fakeHostileServer';
import { forEachProviderAtOnce, rejection } from './modelTestSupport';

const ask: ChatMessage[] = [{ role: 'user', content: 'question' }];
/** Unguarded, the cases below spin or wait far longer than this. */
const LIMIT = 30_000;
const HUNDRED_MB = 100 * 1024 * 1024;

async function failure(
  provider: Exclude<ProviderKind, 'vscode' | 'mcp'>,
  behaviour: HostileBehaviour,
  config: Partial<ModelConfig>,
  options: CompleteOptions,
): Promise<{ error: unknown; ms: number; cpuMs: number; server: HostileServer }> {
  const server = await startHostileServer(provider, behaviour);
  try {
    const client = createModelClient({ provider, baseUrl: server.baseUrl, model: 'test-model', maxRetries: 0, ...config });
    const started = Date.now();
    const cpu = process.cpuUsage();
    const error = await rejection(client.complete(ask, options));
    const used = process.cpuUsage(cpu);
    return { error, ms: Date.now() - started, cpuMs: (used.user + used.system) / 1000, server };
  } finally {
    await server.close();
  }
}

function assertTooLarge(error: unknown, limit: number): asserts error is ModelResponseTooLargeError {
  assert.ok(error instanceof ModelResponseTooLargeError, String(error));
  assert.equal(errorKindOf(error), 'bad_response');
  assert.equal(error.limitBytes, limit);
  assert.match(error.message, /limit .*--max-response-mb \/ rlm\.maxResponseMb/);
}

forEachProviderAtOnce((provider) => {
  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'plain';
    const options = (): CompleteOptions => (stream ? { onDelta: () => undefined } : {});
    // The other content type from the one the request implies: the SDK parses by the request.
    const lie = stream ? 'application/json' : 'text/event-stream';

    test(`${provider} ${how}: a 100 MB line labelled ${lie} stops at the cap, quickly and cheaply`, { timeout: LIMIT }, async () => {
      // Before: the streamed OpenAI call spun at full CPU (the SDK rescanned one growing line per chunk).
      const { error, ms, cpuMs } = await failure(provider, { kind: 'huge-line', bytes: HUNDRED_MB, contentType: lie }, {}, options());
      assertTooLarge(error, 64 * 1024 * 1024);
      assert.ok(ms < 15_000, `took ${ms} ms`);
      assert.ok(cpuMs < 10_000, `used ${cpuMs} ms of CPU`);
    });

    test(`${provider} ${how}: a gzip body is counted after decompression (100 MB from about 100 KB on the wire)`, { timeout: LIMIT }, async () => {
      const limit = 2 * 1024 * 1024;
      const { error, ms } = await failure(provider, { kind: 'huge-line', bytes: HUNDRED_MB, gzip: true }, { maxResponseBytes: limit }, options());
      assertTooLarge(error, limit);
      assert.ok(error.receivedBytes > limit && error.receivedBytes < 4 * limit, `counted ${error.receivedBytes} bytes`);
      assert.ok(ms < 15_000, `took ${ms} ms`);
    });

    test(`${provider} ${how}: an error status with an endless body is capped too`, { timeout: LIMIT }, async () => {
      const limit = 1024 * 1024;
      const { error } = await failure(provider, { kind: 'huge-line', bytes: HUNDRED_MB, status: 500 }, { maxResponseBytes: limit }, options());
      assertTooLarge(error, limit);
    });

    test(`${provider} ${how}: a body that trickles a byte every 100 ms (never silent, never large) ends at --response-timeout`, { timeout: LIMIT }, async () => {
      // Before: nothing bounded it; the call waited as long as the server kept trickling.
      const { error, ms, server } = await failure(provider, { kind: 'trickle', intervalMs: 100 }, { stallTimeoutMs: 1000, responseTimeoutMs: 1500 }, options());
      assert.ok(error instanceof ModelTimeoutError && !(error instanceof ModelStallError), String(error));
      assert.equal(errorKindOf(error), 'timeout');
      assert.equal(error.timeoutMs, 1500);
      assert.match(error.message, /not complete after 1\.5 s.*--response-timeout \/ rlm\.modelResponseTimeoutSeconds/);
      assert.ok(ms >= 1400 && ms < 6000, `failed after ${ms} ms`);
      assert.equal(server.requests.length, 1, 'a reply that had begun is not retried');
    });
  }

  test(`${provider}: a slow answer within the response timeout still passes (a control)`, { timeout: LIMIT }, async () => {
    const server = await startHostileServer(provider, { kind: 'dribble', intervalMs: 100, fillerBytes: 6, text: 'in time' });
    try {
      const client = createModelClient({ provider, baseUrl: server.baseUrl, model: 'test-model', maxRetries: 0, responseTimeoutMs: 5000 });
      assert.equal((await client.complete(ask, { onDelta: () => undefined })).text, 'in time');
    } finally {
      await server.close();
    }
  });

  test(`${provider}: the response timeout must be positive`, () => {
    for (const bad of [0, -1, Number.NaN, Infinity]) {
      assert.throws(() => createModelClient({ provider, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', responseTimeoutMs: bad }), /responseTimeoutMs must be a positive number/);
    }
  });
});
