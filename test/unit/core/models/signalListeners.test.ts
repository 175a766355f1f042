// One run signal is shared by hundreds of sub-calls. The SDKs hook every signal they are handed and
// never unhook it, so the clients give each request its own linked signal and unlink it afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import type { ChatMessage } from '../../../../src/core/models/modelTypes';
import { PROVIDERS, withClient } from './modelTestSupport';

const ask: ChatMessage[] = [{ role: 'user', content: 'ping' }];

for (const provider of PROVIDERS) {
  test(`${provider}: a shared run signal keeps no listeners after 30 plain and streamed requests`, async () => {
    const run = new AbortController();
    await withClient(provider, { respond: () => 'pong' }, {}, async (client) => {
      for (let i = 0; i < 15; i++) {
        await client.complete(ask, { signal: run.signal });
        await client.complete(ask, { signal: run.signal, onDelta: () => {} });
      }
    });
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  });

  test(`${provider}: aborting the shared signal still cancels a request in flight`, async () => {
    const run = new AbortController();
    // The reply ('late') comes after a minute: only the abort reaching the request makes the call reject.
    await withClient(provider, { respond: () => ({ text: 'late', latencyMs: 60_000 }) }, {}, async (client) => {
      const pending = client.complete(ask, { signal: run.signal });
      setTimeout(() => run.abort(), 50);
      await assert.rejects(pending, (error: Error) => /abort/i.test(error.name + error.message));
    });
  });
}
