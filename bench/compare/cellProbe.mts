// One side of `npm run bench:compare`: starts a REPL session from the build under test (argv[2]) and
// prints, as one JSON line, the mean round trip of a trivial cell and of a cell making 20 instantly
// answered llm_query calls, over a few hundred cells each, after a warm-up.
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

const repo = process.argv[2];
if (!repo) throw new Error('usage: cellProbe.ts <repo>');
interface Session {
  bindContext(c: unknown): Promise<unknown>;
  execute(code: string): Promise<{ error?: unknown }>;
  close(): Promise<void>;
}
const { createReplSession } = (await import(pathToFileURL(join(repo, 'src/core/repl/replSession.ts')).href)) as { createReplSession(o: Record<string, unknown>): Promise<Session> };
const snapshots = mkdtempSync(join(tmpdir(), 'rlm-compare-snap-'));
const session = await createReplSession({ distDir: join(repo, 'dist'), snapshotCacheDir: snapshots, bridge: async (call: { prompts: string[] }) => call.prompts.map(() => 'ok') });
await session.bindContext({ kind: 'text', text: Buffer.from('tiny') });
const out: Record<string, number> = {};
for (const [name, code, n] of [['trivialCellMs', 'x = 1', 400], ['twentyBridgeCallsMs', 'for _ in range(20):\n    llm_query("q")', 150]] as const) {
  for (let i = 0; i < 30; i++) await session.execute(code);
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const result = await session.execute(code);
    if (result.error) throw new Error(`${name}: the cell failed`);
  }
  out[name] = (performance.now() - started) / n;
}
await session.close();
rmSync(snapshots, { recursive: true, force: true });
console.log(JSON.stringify(out));
process.exit(0);
