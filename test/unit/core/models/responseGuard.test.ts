// Servers that go silent, never answer, stream forever or send one endless line, generated here,
// for both providers, streamed and plain, through the real SDKs: each ends in its typed error,
// quickly and cheaply, with the retries that are sound; a slow but living server is never cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import { ModelConfigError, ModelError, ModelResponseTooLargeError, ModelStallError, ModelTimeoutError } from '../../../../src/core/models/modelErrors';
import type { ChatMessage, CompleteOptions, ModelClient, ModelConfig, ProviderKind } from '../../../../src/core/models/modelTypes';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../../../src/core/models/responseGuard';
import { errorKindOf } from '../../../../src/core/errorKind';
import { startHostileServer } from '../../../fakes/fakeHostileServer';
import type { HostileBehaviour, HostileServer } from '../../../fakes/fakeHostileServer';
import { forEachProviderAtOnce, rejection, withClient } from './modelTestSupport';

const ask: ChatMessage[] = [{ role: 'user', content: 'question' }];
/** Unguarded, several of these never end; this makes them fail instead. */
const LIMIT = 30_000;

async function withHostile(
  provider: Exclude<ProviderKind, 'vscode' | 'mcp'>,
  behaviour: HostileBehaviour,
  config: Partial<ModelConfig>,
  body: (client: ModelClient, server: HostileServer) => Promise<void>,
  deps: { fetch?: typeof fetch } = {},
): Promise<void> {
  const server = await startHostileServer(provider, behaviour);
  try {
    await body(createModelClient({ provider, baseUrl: server.baseUrl, model: 'test-model', maxRetries: 0, ...config }, deps), server);
  } finally {
    await server.close();
  }
}

/** Rejection, elapsed wall time and CPU time of one call. */
async function timedFailure(call: Promise<unknown>): Promise<{ error: unknown; ms: number; cpuMs: number }> {
  const started = Date.now();
  const cpu = process.cpuUsage();
  const error = await rejection(call);
  const used = process.cpuUsage(cpu);
  return { error, ms: Date.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The server notices the client leaving a moment after the client gives up. */
async function clientLeft(server: HostileServer, index = 0): Promise<boolean> {
  for (let i = 0; i < 250 && !server.requests[index]?.closedAt; i++) await new Promise((r) => setTimeout(r, 20));
  return server.requests[index]?.clientLeft ?? false;
}

forEachProviderAtOnce((provider) => {
  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'plain';
    const deltas: string[] = [];
    const options = (): CompleteOptions => (stream ? { onDelta: (text) => deltas.push(text) } : {});

    test(`${provider} ${how}: a server that goes silent mid-answer fails with ModelStallError after the stall limit, not retried`, { timeout: LIMIT }, async () => {
      deltas.length = 0;
      await withHostile(provider, { kind: 'silent-after-start' }, { stallTimeoutMs: 400, maxRetries: 2 }, async (client, server) => {
        const { error, ms } = await timedFailure(client.complete(ask, options()));
        assert.ok(error instanceof ModelStallError, String(error));
        assert.equal(error.kind, 'timeout');
        assert.equal(errorKindOf(error), 'timeout');
        assert.equal(error.phase, 'body');
        assert.equal(error.stallTimeoutMs, 400);
        assert.ok(error.receivedBytes > 0);
        assert.ok(ms >= 380 && ms < 3000, `failed after ${ms} ms with a 400 ms stall limit`);
        assert.match(error.message, /no bytes arrived for 0\.4 s/);
        assert.match(error.message, /--stall-timeout \/ rlm\.modelStallTimeoutSeconds/);
        assert.ok(error.message.includes(server.baseUrl.replace(/\/$/, '')), error.message);
        // Part of the answer had arrived (and, streamed, had been shown): a retry would repeat it.
        assert.equal(server.requests.length, 1);
        if (stream) assert.deepEqual(deltas, ['a partial answer that never finishes']);
        assert.ok(await clientLeft(server), 'the connection was closed');
      });
    });

    test(`${provider} ${how}: an endless answer is cut at the size limit with ModelResponseTooLargeError, not retried`, { timeout: LIMIT }, async () => {
      const limit = 128 * 1024;
      await withHostile(provider, { kind: 'endless', intervalMs: 10, deltaChars: 8192 }, { maxResponseBytes: limit, maxRetries: 2 }, async (client, server) => {
        const { error, ms } = await timedFailure(client.complete(ask, options()));
        assert.ok(error instanceof ModelResponseTooLargeError, String(error));
        assert.equal(error.kind, 'bad_response');
        assert.equal(errorKindOf(error), 'bad_response');
        assert.equal(error.retryable, false);
        assert.equal(error.limitBytes, limit);
        assert.ok(error.receivedBytes > limit);
        assert.ok(ms < 5000, `took ${ms} ms`);
        assert.match(error.message, /passed the 0\.125 MB limit/);
        assert.match(error.message, /--max-response-mb \/ rlm\.maxResponseMb/);
        assert.equal(server.requests.length, 1);
        assert.ok(await clientLeft(server), 'the connection was closed');
      });
    });

    test(`${provider} ${how}: a 100 MB body without a newline stops at the default limit, quickly and cheaply`, { timeout: LIMIT }, async () => {
      await withHostile(provider, { kind: 'huge-line', bytes: 100 * 1024 * 1024 }, {}, async (client, server) => {
        const { error, ms, cpuMs } = await timedFailure(client.complete(ask, options()));
        assert.ok(error instanceof ModelResponseTooLargeError, String(error));
        assert.equal(error.limitBytes, DEFAULT_MAX_RESPONSE_BYTES);
        // Unguarded, the SDKs' SSE parsers spent minutes of CPU on this (quadratic in the line).
        // The bounds are loose for a shared machine; measured: about 0.4 s and 0.6 s of CPU (server included).
        assert.ok(ms < 15_000, `took ${ms} ms`);
        assert.ok(cpuMs < 10_000, `used ${cpuMs} ms of CPU`);
        assert.ok(await clientLeft(server), 'the connection was closed');
        assert.ok((server.requests[0]?.bytesSent ?? Infinity) < 100 * 1024 * 1024, 'the server could not send it all');
      });
    });

    test(`${provider} ${how}: a slow but living server (a byte every 200 ms, stall limit 1 s) is not cut`, { timeout: LIMIT }, async () => {
      deltas.length = 0;
      const behaviour: HostileBehaviour = { kind: 'dribble', intervalMs: 200, fillerBytes: 6, text: 'worth the wait' };
      await withHostile(provider, behaviour, { stallTimeoutMs: 1000 }, async (client) => {
        const started = Date.now();
        const result = await client.complete(ask, options());
        assert.equal(result.text, 'worth the wait');
        assert.ok(Date.now() - started >= 1150, 'the dribble lasted longer than the stall limit');
        if (stream) assert.deepEqual(deltas, ['worth the wait']);
      });
    });
  }

  test(`${provider} streamed: a server that never sends headers stalls, and the SDK retries it within maxRetries`, { timeout: LIMIT }, async () => {
    await withHostile(provider, { kind: 'no-headers' }, { stallTimeoutMs: 300, maxRetries: 1 }, async (client, server) => {
      const { error, ms } = await timedFailure(client.complete(ask, { onDelta: () => undefined }));
      assert.ok(error instanceof ModelStallError, String(error));
      assert.equal(error.phase, 'headers');
      assert.equal(error.receivedBytes, 0);
      assert.equal(errorKindOf(error), 'timeout');
      assert.equal(server.requests.length, 2, 'one try and one retry');
      assert.ok(ms >= 580 && ms < 6000, `failed after ${ms} ms`);
      assert.match(error.message, /before the response began/);
      assert.ok(await clientLeft(server, 1));
    });
  });

  test(`${provider} plain: the wait for headers is the answer being written, so it is the SDK's timeout, not a stall`, { timeout: LIMIT }, async () => {
    await withHostile(provider, { kind: 'no-headers' }, { stallTimeoutMs: 300, timeoutMs: 800 }, async (client, server) => {
      const { error, ms } = await timedFailure(client.complete(ask));
      assert.ok(error instanceof ModelTimeoutError && !(error instanceof ModelStallError), String(error));
      assert.ok(ms >= 750, `failed after ${ms} ms, before the 0.8 s request timeout`);
      assert.equal(server.requests.length, 1);
    });
    // And a slow plain answer (headers after 0.7 s) passes a 300 ms stall limit.
    await withClient(provider, { respond: ['slowly written'], latencyMs: 700 }, { stallTimeoutMs: 300 }, async (client) => {
      assert.equal((await client.complete(ask)).text, 'slowly written');
    });
  });

  test(`${provider}: the guard wraps an injected fetch too`, { timeout: LIMIT }, async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    await withHostile(
      provider,
      { kind: 'silent-after-start' },
      { stallTimeoutMs: 300 },
      async (client) => {
        const error = await rejection(client.complete(ask));
        assert.ok(error instanceof ModelStallError, String(error));
        assert.equal(calls, 1);
      },
      { fetch: counting },
    );
  });

  test(`${provider} streamed: a caller that stops reading (its onDelta throws) gets its own error at once, and the connection closes`, { timeout: LIMIT }, async () => {
    await withHostile(provider, { kind: 'silent-after-start' }, { stallTimeoutMs: 5000 }, async (client, server) => {
      const boom = new Error('the caller gave up');
      const { error, ms } = await timedFailure(
        client.complete(ask, {
          onDelta: () => {
            throw boom;
          },
        }),
      );
      assert.equal(error, boom);
      assert.ok(ms < 4000, `took ${ms} ms; the 5 s stall limit must not be what ended it`);
      assert.ok(await clientLeft(server), 'the connection was closed');
    });
  });

  test(`${provider}: stall and size limits must be positive`, () => {
    for (const bad of [{ stallTimeoutMs: 0 }, { stallTimeoutMs: Number.NaN }, { maxResponseBytes: -1 }, { maxResponseBytes: Infinity }]) {
      assert.throws(() => createModelClient({ provider, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', ...bad }), (e: unknown) => e instanceof ModelConfigError && e instanceof ModelError);
    }
  });
});
