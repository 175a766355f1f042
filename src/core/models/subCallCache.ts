// Answers of sub-calls kept on disk, so an identical llm_query (same provider, endpoint, model, messages
// and every parameter that changes the answer) is answered at once with no request and no cost: on a
// follow-up that re-reads the same slices, a re-run, a retry. One instance serves one workspace's folder
// (the caller picks it: VS Code's workspace storage, or a folder per working directory for the CLI), so
// answers are never shared across workspaces. Only successful answers that ended normally are stored;
// files hold the key's hash and the answer, never a prompt or a key. Least recently used entries go
// first once the folder passes its size cap.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage, Completion, ModelClient } from './modelTypes';

/** Bumped when what is stored (or how it is keyed) changes: old entries then simply miss. */
const FORMAT = 1;

interface CachedAnswer {
  text: string;
  model: string;
  /** What the call cost when it was made (null: unknown price), reported as saved on each hit. */
  costUsd: number | null;
  inputTokens: number;
  outputTokens: number;
}

export interface SubCallRequest {
  client: Pick<ModelClient, 'provider' | 'endpoint' | 'model'>;
  messages: ChatMessage[];
  /** Every parameter that changes the answer. */
  params: { maxTokens?: number; temperature?: number; stop?: string[] };
}

export function subCallKey(request: SubCallRequest): string {
  const { client, messages, params } = request;
  const material = JSON.stringify([FORMAT, client.provider, client.endpoint, client.model, messages.map((m) => [m.role, m.content]), params.maxTokens ?? null, params.temperature ?? null, params.stop ?? null]);
  return createHash('sha256').update(material).digest('hex');
}

interface SubCallCacheOptions {
  /** This workspace's folder of entries. */
  dir: string;
  /** The folder is trimmed to this size, least recently used first. */
  maxBytes: number;
  now?: () => number;
}

export class SubCallCache {
  private index?: Map<string, { bytes: number; usedAt: number }>;
  private totalBytes = 0;

  constructor(private readonly options: SubCallCacheOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  /** The stored answer for `key`, marked as just used; undefined on a miss or an unreadable entry. */
  lookup(key: string): CachedAnswer | undefined {
    const path = this.pathOf(key);
    let entry: CachedAnswer & { format?: number; key?: string };
    try {
      entry = JSON.parse(readFileSync(path, 'utf8')) as CachedAnswer & { format?: number; key?: string };
    } catch {
      return undefined;
    }
    if (entry.format !== FORMAT || entry.key !== key || typeof entry.text !== 'string') return undefined;
    const at = new Date(this.now());
    try {
      utimesSync(path, at, at);
      this.index?.set(key, { bytes: this.index.get(key)?.bytes ?? 0, usedAt: at.getTime() });
    } catch {
      // A read-only folder still answers; it just cannot record the use.
    }
    return { text: entry.text, model: entry.model, costUsd: entry.costUsd, inputTokens: entry.inputTokens, outputTokens: entry.outputTokens };
  }

  /** Whether an answer for `key` is on disk (no read, no use recorded): for estimates. */
  has(key: string): boolean {
    return existsSync(this.pathOf(key));
  }

  /** Stores a completed answer (only one that ended normally: a cut or filtered answer is not kept). */
  store(key: string, completion: Completion): void {
    if (completion.finishReason !== 'stop') return;
    const entry = {
      format: FORMAT,
      key,
      text: completion.text,
      model: completion.model,
      costUsd: completion.usage.costUsd,
      inputTokens: completion.usage.inputTokens,
      outputTokens: completion.usage.outputTokens,
    };
    const body = JSON.stringify(entry);
    const path = this.pathOf(key);
    try {
      mkdirSync(join(this.options.dir, key.slice(0, 2)), { recursive: true });
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, body);
      // The file's time is its last use, on the same clock as lookups (eviction order survives restarts).
      const at = new Date(this.now());
      utimesSync(partial, at, at);
      renameSync(partial, path);
    } catch {
      return; // a full or read-only disk loses the entry, never the answer
    }
    const index = this.loadIndex();
    this.totalBytes -= index.get(key)?.bytes ?? 0;
    index.set(key, { bytes: Buffer.byteLength(body), usedAt: this.now() });
    this.totalBytes += Buffer.byteLength(body);
    this.evict();
  }

  /** Removes every entry of this workspace. */
  clear(): void {
    rmSync(this.options.dir, { recursive: true, force: true });
    this.index = new Map();
    this.totalBytes = 0;
  }

  get sizeBytes(): number {
    this.loadIndex();
    return this.totalBytes;
  }

  get entryCount(): number {
    return this.loadIndex().size;
  }

  private evict(): void {
    const index = this.loadIndex();
    if (this.totalBytes <= this.options.maxBytes) return;
    const oldest = [...index.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [key, { bytes }] of oldest) {
      if (this.totalBytes <= this.options.maxBytes) break;
      rmSync(this.pathOf(key), { force: true });
      index.delete(key);
      this.totalBytes -= bytes;
    }
  }

  /** Sizes and last uses of the entries on disk, read once (a folder of small files). */
  private loadIndex(): Map<string, { bytes: number; usedAt: number }> {
    if (this.index) return this.index;
    const index = new Map<string, { bytes: number; usedAt: number }>();
    this.totalBytes = 0;
    let shards: string[] = [];
    try {
      shards = readdirSync(this.options.dir);
    } catch {
      shards = [];
    }
    for (const shard of shards) {
      let names: string[];
      try {
        names = readdirSync(join(this.options.dir, shard));
      } catch {
        continue;
      }
      for (const name of names) {
        if (!name.endsWith('.json')) continue;
        try {
          const st = statSync(join(this.options.dir, shard, name));
          index.set(name.slice(0, -'.json'.length), { bytes: st.size, usedAt: st.mtimeMs });
          this.totalBytes += st.size;
        } catch {
          // removed meanwhile
        }
      }
    }
    this.index = index;
    return index;
  }

  private pathOf(key: string): string {
    return join(this.options.dir, key.slice(0, 2), `${key}.json`);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** The folder of one workspace under a cache root: never shared between two workspaces. */
export function workspaceCacheDir(root: string, workspace: string): string {
  return join(root, createHash('sha256').update(workspace).digest('hex').slice(0, 16));
}
