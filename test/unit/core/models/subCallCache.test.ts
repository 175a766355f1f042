// The sub-call cache on its own: what changes the key, what is stored (and what never is), least
// recently used eviction under the size cap, clearing, and damaged entries.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SubCallCache, subCallKey, workspaceCacheDir } from '../../../../src/core/models/subCallCache';
import type { Completion } from '../../../../src/core/models/modelTypes';

const client = { provider: 'openai' as const, endpoint: 'http://127.0.0.1:1/v1', model: 'm' };
const base = { client, messages: [{ role: 'user' as const, content: 'Summarise: alpha' }], params: { maxTokens: 100 } };

function completion(text: string, finishReason: Completion['finishReason'] = 'stop'): Completion {
  return { text, model: 'm', finishReason, latencyMs: 5, usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.25 } };
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

describe('sub-call cache', () => {
  it('keys on provider, endpoint, model, every message byte and every answer-changing parameter', () => {
    const key = subCallKey(base);
    assert.equal(subCallKey({ ...base, messages: [{ role: 'user', content: 'Summarise: alpha' }] }), key, 'the same call, the same key');
    const variants = [
      { ...base, client: { ...client, model: 'm2' } },
      { ...base, client: { ...client, provider: 'anthropic' as const } },
      { ...base, client: { ...client, endpoint: 'http://127.0.0.1:2/v1' } },
      { ...base, messages: [{ role: 'user' as const, content: 'Summarise: alphb' }] },
      { ...base, messages: [{ role: 'user' as const, content: 'Summarise: alpha ' }] },
      { ...base, messages: [{ role: 'system' as const, content: 'Summarise: alpha' }] },
      { ...base, params: { maxTokens: 101 } },
      { ...base, params: { maxTokens: 100, temperature: 0 } },
      { ...base, params: { maxTokens: 100, stop: ['\n'] } },
    ];
    const keys = new Set(variants.map(subCallKey));
    assert.equal(keys.size, variants.length);
    assert.ok(!keys.has(key));
  });

  it('returns a stored answer, and stores only answers that ended normally', () => {
    const cache = new SubCallCache({ dir: mkdtempSync(join(tmpdir(), 'rlm-scc-')), maxBytes: 1 << 20 });
    const key = subCallKey(base);
    assert.equal(cache.lookup(key), undefined);
    cache.store(key, completion('cut', 'length'));
    assert.equal(cache.lookup(key), undefined, 'a cut answer is not kept');
    cache.store(key, completion('filtered', 'content_filter'));
    assert.equal(cache.lookup(key), undefined, 'a filtered answer is not kept');
    cache.store(key, completion('alpha, summarised'));
    assert.deepEqual(cache.lookup(key), { text: 'alpha, summarised', model: 'm', costUsd: 0.25, inputTokens: 10, outputTokens: 2 });
    assert.equal(cache.entryCount, 1);
  });

  it('keeps hashes and answers on disk, never the prompt, the endpoint or a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-scc-'));
    const cache = new SubCallCache({ dir, maxBytes: 1 << 20 });
    const secretish = { ...base, messages: [{ role: 'user' as const, content: 'PROMPT-TEXT-12345 sk-live-abcdef' }] };
    cache.store(subCallKey(secretish), completion('ok'));
    const written = allFiles(dir).map((f) => readFileSync(f, 'utf8')).join('\n');
    assert.ok(written.includes('"ok"'));
    for (const leak of ['PROMPT-TEXT-12345', 'sk-live', '127.0.0.1']) assert.ok(!written.includes(leak), `${leak} is not on disk`);
  });

  it('evicts the least recently used entries once the folder passes its cap', () => {
    let now = 1_000_000;
    const dir = mkdtempSync(join(tmpdir(), 'rlm-scc-'));
    const probe = new SubCallCache({ dir: join(dir, 'probe'), maxBytes: 1 << 20 });
    probe.store('a'.repeat(64), completion('x'.repeat(500)));
    const entryBytes = probe.sizeBytes;
    const cache = new SubCallCache({ dir: join(dir, 'lru'), maxBytes: entryBytes * 3 + 10, now: () => (now += 1000) });
    const keys = ['1', '2', '3', '4'].map((n) => n.repeat(64));
    for (const key of keys.slice(0, 3)) cache.store(key, completion('x'.repeat(500)));
    assert.ok(cache.lookup(keys[0]!), 'the first entry is read: now the most recently used');
    cache.store(keys[3]!, completion('x'.repeat(500)));
    assert.ok(cache.lookup(keys[0]!), 'recently used: kept');
    assert.equal(cache.lookup(keys[1]!), undefined, 'least recently used: evicted');
    assert.ok(cache.lookup(keys[2]!));
    assert.ok(cache.lookup(keys[3]!));
    assert.ok(cache.sizeBytes <= entryBytes * 3 + 10);
    // A new instance (a later run) sees the same order from the files' times.
    const later = new SubCallCache({ dir: join(dir, 'lru'), maxBytes: entryBytes * 3 + 10, now: () => (now += 1000) });
    // Uses so far, oldest first: 0, 2, 3 (the lookups just above).
    later.store('5'.repeat(64), completion('x'.repeat(500)));
    assert.equal(later.lookup(keys[0]!), undefined, 'the oldest use on disk goes first');
    assert.ok(later.lookup(keys[2]!));
  });

  it('clears a workspace, and treats a damaged or foreign entry as a miss', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-scc-'));
    const cache = new SubCallCache({ dir, maxBytes: 1 << 20 });
    const key = subCallKey(base);
    cache.store(key, completion('ok'));
    const [file] = allFiles(dir);
    writeFileSync(file!, '{not json');
    assert.equal(cache.lookup(key), undefined);
    writeFileSync(file!, JSON.stringify({ format: 1, key: 'f'.repeat(64), text: 'someone else' }));
    assert.equal(cache.lookup(key), undefined, 'an entry whose key does not match is not trusted');
    cache.store(key, completion('ok'));
    cache.clear();
    assert.equal(cache.lookup(key), undefined);
    assert.equal(cache.entryCount, 0);
  });

  it('gives two workspaces two folders', () => {
    assert.notEqual(workspaceCacheDir('/c', '/work/a'), workspaceCacheDir('/c', '/work/b'));
    assert.equal(workspaceCacheDir('/c', '/work/a'), workspaceCacheDir('/c', '/work/a'));
  });
});
