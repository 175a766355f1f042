// Reads paths named on a command line whole into memory: a plan (contextPlan.ts) read by planReader.ts.
// `rlm ask` itself binds the plan without holding it (the REPL reads it as a stream); this is for
// callers that keep the text.
import type { ContextSource, TargetDescription } from './contextTypes';
import { planPaths } from './contextPlan';
import type { PlanOptions } from './contextPlan';
import { readPlanInMemory } from './planReader';


export async function readPathsAsContext(paths: string[], options: PlanOptions = {}): Promise<{ source: ContextSource; target: TargetDescription }> {
  // Held whole in memory, so never lazy: over the total limit is refused, as before.
  return readPlanInMemory(await planPaths(paths, { ...options, maxListedBytes: 0 }), options.fs);
}
