// Shared set-up for the loop tests: fake model servers driven through the real SDKs, and the real
// REPL (the built dist/) behind a routed pool. Every test closes what it starts.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import { createBridgeRouter } from '../../../../src/core/repl/replFactory';
import type { RunOptions, RunResult } from '../../../../src/core/loop/loopTypes';
import type { BridgeRouter } from '../../../../src/core/repl/replFactory';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import type { ModelClient, ModelConfig } from '../../../../src/core/models/modelTypes';
import { ReplPool } from '../../../../src/core/repl/replPool';
import { createReplSession } from '../../../../src/core/repl/replSession';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { startFakeModelServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeProtocol, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';

const REPO_ROOT = resolve(__dirname, '../../../..');
const DIST_DIR = join(REPO_ROOT, 'dist');
const SNAPSHOT_DIR = join(tmpdir(), 'rlm-loop-test-snapshots');

function assertBuilt(): void {
  if (!existsSync(join(DIST_DIR, 'replProcess.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
}

export type TestRepl = ReplPool;

/**
 * One warm session for a whole suite, passed to each run as RunOptions.session (the follow-up path),
 * so that suites about loop logic do not pay a REPL start per run on this shared 2-core machine.
 */
export async function warmSession(repl: TestRepl): Promise<{ session: ReplSession; sessionBridge: BridgeRouter }> {
  const session = await repl.acquire();
  const sessionBridge = repl.routerOf(session);
  if (!sessionBridge) throw new Error('the pool gave a session without a router');
  return { session, sessionBridge };
}

/** The product's pool: a fresh REPL per run, with one spare kept started. */
export function makeRepl(): TestRepl {
  assertBuilt();
  return new ReplPool({ create: (bridge) => createReplSession({ bridge, distDir: DIST_DIR, snapshotCacheDir: SNAPSHOT_DIR }), createBridgeRouter, spares: 1 });
}

/** Which turn of its own run a root request is: the number of assistant messages it already holds. */
export function turnOf(request: FakeModelRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

/** The text of the request's last user message (the latest observation). */
export function lastUser(request: FakeModelRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

export function isRootRequest(request: FakeModelRequest): boolean {
  return (request.system ?? '').includes('persistent Python REPL');
}

export function fence(code: string): string {
  return '```repl\n' + code + '\n```';
}

export interface Harness {
  server: FakeModelServer;
  client: ModelClient;
  close(): Promise<void>;
}

export async function startModel(
  protocol: FakeProtocol,
  respond: (request: FakeModelRequest) => FakeResponse | Promise<FakeResponse>,
  config: Partial<ModelConfig> = {},
  latencyMs = 0,
): Promise<Harness> {
  const server = await startFakeModelServer({ protocol, respond, latencyMs });
  const client = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'fake-model', maxRetries: 0, ...config });
  return { server, client, close: () => server.close() };
}

export async function runCollect(options: RunOptions): Promise<{ result: RunResult; events: EventRecord[] }> {
  const run = createRlmRun(options);
  const events: EventRecord[] = [];
  for await (const record of run) events.push(record);
  return { result: await run.run(), events };
}

export function ofType<T extends EventRecord['type']>(events: EventRecord[], type: T): Array<Extract<EventRecord, { type: T }>> {
  return events.filter((e): e is Extract<EventRecord, { type: T }> => e.type === type);
}
