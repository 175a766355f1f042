// One side of `npm run bench:compare`: loads the loop, the model client and the REPL factory from the
// build under test (argv[2], a repository root with dist/ built) and prints, as one JSON line, the gaps
// between root requests of two 60-turn runs with an instant model through the real SDK (argv[3]).
// Run in a fresh process per sample, so neither side warms the other's caches.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [repo, protocol] = [process.argv[2], process.argv[3]];
if (!repo || (protocol !== 'openai' && protocol !== 'anthropic')) throw new Error('usage: turnProbe.ts <repo> openai|anthropic');
const load = async <T,>(path: string): Promise<T> => (await import(pathToFileURL(join(repo, path)).href)) as T;

type Respond = () => string;
const { startFakeModelServer } = await load<{ startFakeModelServer(o: { protocol: string; respond: Respond }): Promise<{ baseUrl: string; close(): Promise<void> }> }>('src/eval/fakeServers/fakeModelServer.ts');
const { createModelClient } = await load<{ createModelClient(c: Record<string, unknown>): unknown }>('src/core/models/createModelClient.ts');
// cliRepl.ts moved into src/cli/support/ (a71111d): a build from either side of that move is measured.
const cliRepl = existsSync(join(repo, 'src/cli/support/cliRepl.ts')) ? 'src/cli/support/cliRepl.ts' : 'src/cli/cliRepl.ts';
const { createCliReplFactory } = await load<{ createCliReplFactory(o: Record<string, unknown>): { sparesReady(): Promise<void>; dispose(): Promise<void> } }>(cliRepl);
const { createRlmRun } = await load<{ createRlmRun(o: Record<string, unknown>): { run(): Promise<unknown> } }>('src/core/loop/rlmRun.ts');

const arrivals: number[] = [];
const server = await startFakeModelServer({ protocol, respond: () => (arrivals.push(performance.now()), '```repl\nx = 1\n```') });
const client = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'bench', maxRetries: 0 });
const gaps: number[] = [];
for (let round = 0; round < 2; round++) {
  // As `rlm ask` makes its pool: one REPL started ahead and no spare starting while the turns are timed.
  const repl = createCliReplFactory({ distDir: join(repo, 'dist'), spares: 1, refillAfterFirst: true });
  await repl.sparesReady();
  arrivals.length = 0;
  await createRlmRun({ question: 'bench', context: { kind: 'text', text: 'tiny' }, root: client, repl, limits: { maxIterations: 60 } }).run();
  await repl.dispose();
  // The first turns include the REPL's warm-up; the gaps after them are the steady turn.
  for (let i = 3; i < arrivals.length - 1; i++) gaps.push(arrivals[i + 1]! - arrivals[i]!);
}
await server.close();
console.log(JSON.stringify({ gaps }));
process.exit(0);
