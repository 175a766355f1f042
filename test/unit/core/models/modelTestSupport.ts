// Shared set-up for the model client tests: a fake server of either protocol and a real client on it.
import { describe } from 'node:test';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import type { ModelClientDeps } from '../../../../src/core/models/createModelClient';
import type { ModelClient, ModelConfig, ProviderKind } from '../../../../src/core/models/modelTypes';
import { startFakeModelServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer, FakeServerOptions } from '../../../../src/eval/fakeServers/fakeServerTypes';

export const PROVIDERS: Array<Exclude<ProviderKind, 'vscode' | 'mcp'>> = ['openai', 'anthropic'];

/**
 * Declares `tests(provider)` for each provider, in a suite per provider, the two suites running at once.
 * Their tests wait in real time (stalls, trickles, timeouts) on servers of their own: side by side,
 * the waits overlap instead of adding up. Within a provider the tests still run one at a time.
 */
export function forEachProviderAtOnce(tests: (provider: Exclude<ProviderKind, 'vscode' | 'mcp'>) => void): void {
  describe('both providers at once', { concurrency: true }, () => {
    // A suite takes its parent's concurrency unless told: within a provider, one test at a time.
    for (const provider of PROVIDERS) describe(provider, { concurrency: 1 }, () => tests(provider));
  });
}

export async function withClient(
  provider: Exclude<ProviderKind, 'vscode' | 'mcp'>,
  serverOptions: Omit<FakeServerOptions, 'protocol'>,
  config: Partial<ModelConfig>,
  body: (client: ModelClient, server: FakeModelServer) => Promise<void>,
  deps: ModelClientDeps = {},
): Promise<void> {
  const server = await startFakeModelServer({ ...serverOptions, protocol: provider });
  try {
    const client = createModelClient({ provider, baseUrl: server.baseUrl, model: 'test-model', maxRetries: 0, ...config }, deps);
    await body(client, server);
  } finally {
    await server.close();
  }
}

/** Resolves with what `promise` rejected with; fails if it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** A fetch that sends requests meant for `fromOrigin` to the fake server instead (to exercise official-endpoint paths). */
export function redirectFetch(fromOrigin: string, server: FakeModelServer): typeof fetch {
  const to = `http://127.0.0.1:${server.port}`;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    return fetch(url.replace(fromOrigin, to), init);
  };
}
