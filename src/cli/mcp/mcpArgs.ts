// Parses `rlm mcp` arguments: the folder served, and the model, limit, input and cache options of
// `rlm ask` (no question or paths: those come with each tool call). A model is optional here: without
// one, a client that offers sampling lends its own, and any other call gets a tool error saying what to pass.
import { parseArgs } from 'node:util';
import type { RunLimits } from '../../core/loop/loopTypes';
import { agentLimits } from '../../core/agentAsk/agentLimits';
import { ASK_OPTIONS } from '../commands/askArgs';
import type { AskArgs } from '../commands/askArgs';
import { parseCacheChoice, parseInputLimits } from '../commands/askArgs';
import { parseLimits, parseModelChoices, UsageError, usageErrorFrom } from '../support/modelArgs';
import type { ModelChoice } from '../support/modelArgs';
import type { CacheChoice } from '../support/subCallCacheLocation';

export interface McpArgs {
  /** The folder served (default the working directory); every path is confined to it. */
  root: string;
  /** Absent: no model given; see the module comment. */
  models?: { root: ModelChoice; sub: ModelChoice };
  /** The agent defaults (agentLimits.ts) with the flags given in their place. */
  limits: Partial<RunLimits>;
  input: AskArgs['input'];
  cache: CacheChoice;
  /** Where trajectories are written (default <root>/.rlm/runs). */
  trajectoryDir?: string;
  allowWeakerSandbox?: boolean;
  help: boolean;
}

// Provider batches take minutes to hours: an agent's question waits on its answer, so rlm mcp has no --batch.
const { question: _question, json: _json, quiet: _quiet, verbose: _verbose, trajectory: _trajectory, batch: _batch, 'batch-min': _batchMin, ...SHARED } = ASK_OPTIONS;

const MCP_OPTIONS = {
  ...SHARED,
  root: { type: 'string' },
  'trajectory-dir': { type: 'string' },
} as const;

export function parseMcpArgs(argv: string[]): McpArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: MCP_OPTIONS, allowPositionals: false, strict: true });
  } catch (error) {
    throw usageErrorFrom(error);
  }
  const v = parsed.values;
  if (v.help) return { root: '.', limits: {}, input: {}, cache: { mode: 'off', maxMb: 0 }, help: true };
  if (v.root !== undefined && !v.root.trim()) throw new UsageError('--root needs a folder');
  const models = v.model?.trim() ? parseModelChoices(v, '') : undefined;
  if (!models && (v['sub-model'] || v['base-url'] || v.provider)) throw new UsageError('--provider, --base-url and --sub-model need --model too');
  const input = parseInputLimits(v);
  return {
    root: v.root ?? '.',
    ...(models ? { models } : {}),
    limits: agentLimits(parseLimits(v)),
    input,
    cache: parseCacheChoice(v),
    ...(v['trajectory-dir'] ? { trajectoryDir: v['trajectory-dir'] } : {}),
    ...(v['allow-weaker-sandbox'] ? { allowWeakerSandbox: true } : {}),
    help: false,
  };
}
