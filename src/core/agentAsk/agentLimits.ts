// The limits of a run an agent started. A person asking watches the cost climb and can stop it; an
// agent in a loop may ask again and again, steered by what it read. So an agent's run gets tighter
// limits than a person's by default, each raisable by the server's flags or the extension's settings.
import type { RunLimits } from '../loop/loopTypes';

const AGENT_DEFAULT_LIMITS = Object.freeze({
  /** Dollars per run: enough for a sweep of a large codebase with a small sub model, not a runaway. */
  maxCostUsd: 0.5,
  /** Five minutes: an agent's tool call that takes longer is usually abandoned by its client. */
  maxWallTimeMs: 5 * 60_000,
  maxIterations: 20,
  maxSubCalls: 200,
  maxDepth: 1,
}) satisfies Readonly<Partial<RunLimits>>;

/** The defaults, with every limit the caller set taking their place. */
export function agentLimits(overrides: Partial<RunLimits> | undefined): Partial<RunLimits> {
  const merged: Partial<RunLimits> = { ...AGENT_DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {}) as Array<[keyof RunLimits, number | undefined]>) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}
