// `rlm mcp`'s server: one tool, rlm_ask, answering a question about files, folders or globs under the
// served folder with an RLM run. Built on the official MCP SDK's low-level Server so the tool's input
// and output schemas are plain JSON Schema, the same the VS Code tool declares. Everything the client
// sends is untrusted: paths are confined to the root (agentPaths.ts), limits default to the agent
// defaults, and a failure is a tool result with isError (the agent reads it and can act), never a crash.
import { existsSync, writeFileSync } from 'node:fs';
import { createRunsFolder } from '../../core/trajectory/runsFolder';
import { dirname, join, resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CreateMessageResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { AgentAskError } from '../../core/agentAsk/agentAskErrors';
import { planAgentPaths } from '../../core/agentAsk/agentPaths';
import { costBasisOf, describeAgentPlan, summarizeAgentPlan } from '../../core/agentAsk/agentPlanSummary';
import type { AgentCostBasis } from '../../core/agentAsk/agentPlanSummary';
import { agentAnswerOf, renderAgentAnswer } from '../../core/agentAsk/agentResult';
import { runAgentAsk } from '../../core/agentAsk/agentRun';
import { AGENT_TOOL_DESCRIPTION, AGENT_TOOL_INPUT_SCHEMA, AGENT_TOOL_OUTPUT_SCHEMA, AGENT_TOOL_NAME, parseAgentToolInput } from '../../core/agentAsk/agentToolSchema';
import { ContextReadError } from '../../core/context/contextErrors';
import type { RlmRun, RunOptions, RunResult, SubCallCacheUse } from '../../core/loop/loopTypes';
import type { ReplFactory } from '../../core/repl/replFactory';
import type { ModelClient, ModelConfig } from '../../core/models/modelTypes';
import { isNoChargeEndpoint } from '../../core/models/pricing';
import type { EventRecord } from '../../core/trajectory/events';
import { headerFromRunStarted } from '../../core/trajectory/trajectoryHeader';
import { openTrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import type { TrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import type { ReplPool } from '../../core/repl/replPool';
import { defaultTrajectoryPath } from '../commands/askCommand';
import type { ModelConfigs } from '../support/modelArgs';
import type { McpArgs } from './mcpArgs';
import { SamplingModelClient } from './samplingModelClient';

interface McpServerDeps {
  args: McpArgs;
  /** Resolved: the folder served. */
  root: string;
  toolVersion: string;
  /** The model configs built from the flags (keys from the environment), or why there are none. */
  models: ModelConfigs | { missing: string };
  createModelClient: (config: ModelConfig) => ModelClient;
  createRun: (options: RunOptions) => RlmRun;
  /** The REPL pool, started on the first call and shared by every call (each run still gets a fresh session). */
  replPool: () => ReplPool;
  subCallCache?: () => SubCallCacheUse | undefined;
  now?: () => number;
  log?: (line: string) => void;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server({ name: 'rlm', version: deps.toolVersion }, { capabilities: { tools: {} }, instructions: 'rlm_ask answers a question about files or folders too large to read, by running a Recursive Language Model over them; pass paths, never file contents.' });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: AGENT_TOOL_NAME,
        title: 'Ask RLM about large files or a codebase',
        description: AGENT_TOOL_DESCRIPTION,
        inputSchema: AGENT_TOOL_INPUT_SCHEMA,
        outputSchema: AGENT_TOOL_OUTPUT_SCHEMA,
        annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (request.params.name !== AGENT_TOOL_NAME) return toolError(`There is no tool "${request.params.name}"; this server offers ${AGENT_TOOL_NAME}.`);
    try {
      return await ask(request.params.arguments ?? {}, extra, server, deps);
    } catch (error) {
      if (error instanceof AgentAskError || error instanceof ContextReadError) return toolError(error.message);
      deps.log?.(`rlm mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return toolError(`The run failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return server;
}

async function ask(rawArgs: Record<string, unknown>, extra: Extra, server: Server, deps: McpServerDeps): Promise<CallToolResult> {
  const input = parseAgentToolInput(rawArgs);
  const clientName = server.getClientVersion()?.name?.slice(0, 100);
  // No model of its own: the client's, through sampling, when it offers that; else say what to add.
  const sampling = 'missing' in deps.models && server.getClientCapabilities()?.sampling !== undefined;
  if ('missing' in deps.models && !sampling) return toolError(deps.models.missing);
  const now = deps.now ?? Date.now;
  const progress = progressSender(extra);
  const plan = await planAgentPaths(input.paths, { root: deps.root, ...deps.args.input });
  const cost: AgentCostBasis = 'missing' in deps.models
    ? { kind: 'free', why: "the client's own model through sampling, on its plan" }
    : costBasisOf([deps.models.root, deps.models.sub], 'start rlm mcp with a model whose price is known, or rely on --timeout and --max-sub-calls');
  const summary = summarizeAgentPlan(plan, deps.args.limits, cost);
  await progress(describeAgentPlan(summary));
  if (extra.signal.aborted) return toolError('The call was cancelled before the run started.');

  let rootClient: ModelClient;
  let subClient: ModelClient;
  let secrets: string[] = [];
  if ('missing' in deps.models) {
    // Related to this call (extra.sendRequest), so the client can tie each request to the tool call.
    rootClient = subClient = new SamplingModelClient({ clientName: clientName ?? '', createMessage: (params, options) => extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, options) });
  } else {
    rootClient = deps.createModelClient(deps.models.root);
    subClient = deps.models.sub === deps.models.root ? rootClient : deps.createModelClient(deps.models.sub);
    secrets = deps.models.secrets;
  }
  const trajectoryPath = resolve(deps.root, deps.args.trajectoryDir ? join(deps.args.trajectoryDir, defaultTrajectoryPath(now()).split(/[\\/]/).pop()!) : defaultTrajectoryPath(now()));
  keepOutOfReads(dirname(trajectoryPath));
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(extra.signal.reason);
  extra.signal.addEventListener('abort', onAbort, { once: true });
  let writer: TrajectoryWriter | undefined;
  let result: RunResult;
  try {
    const cache = deps.subCallCache?.();
    result = await runAgentAsk({
      question: input.question,
      plan,
      root: rootClient,
      sub: subClient,
      limits: deps.args.limits,
      repl: deps.replPool() as ReplFactory,
      signal: controller.signal,
      createRun: deps.createRun,
      ...(cache ? { subCallCache: cache } : {}),
      onRecord: (record: EventRecord) => {
        if (!writer && record.type === 'run.started' && record.depth === 0) {
          writer = openTrajectoryWriter(trajectoryPath, { ...headerFromRunStarted(record, deps.toolVersion), askedBy: { kind: 'agent', via: 'mcp', ...(clientName ? { client: clientName } : {}) } }, { secrets });
        }
        writer?.write(record);
      },
      onProgress: (p) => void progress(`turn ${p.turns}, ${p.subCalls} sub-call${p.subCalls === 1 ? '' : 's'}: ${p.activity}`),
    });
  } catch (error) {
    writer?.abort(error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    extra.signal.removeEventListener('abort', onAbort);
  }
  // As rlm ask: the status only counts when the run wrote no run.finished of its own.
  writer?.close({ status: result.status === 'error' ? 'error' : 'cancelled' });
  // Sampling runs on the client's plan; a local server charges nothing.
  const local = !('missing' in deps.models) && isNoChargeEndpoint(deps.models.root.baseUrl) && isNoChargeEndpoint(deps.models.sub.baseUrl);
  const shaped = agentAnswerOf(result, writer ? trajectoryPath : undefined, undefined, local);
  return {
    content: [{ type: 'text', text: renderAgentAnswer(shaped) }],
    structuredContent: shaped as unknown as Record<string, unknown>,
    ...(shaped.answer === undefined ? { isError: true } : {}),
  };
}

/**
 * Creates the trajectory folder with a .gitignore of `*`: a later call about the whole root must not
 * read earlier runs' records (they hold earlier prompts and answers), and git should not see them either.
 */
function keepOutOfReads(folder: string): void {
  createRunsFolder(folder);
  const ignore = join(folder, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Written by rlm mcp: recorded runs stay out of git and out of what RLM reads.\n*\n');
}

/** Sends notifications/progress when the client asked for them (a progressToken); a no-op otherwise. */
function progressSender(extra: Extra): (message: string) => Promise<void> {
  const token = extra._meta?.progressToken;
  let step = 0;
  return async (message) => {
    if (token === undefined || extra.signal.aborted) return;
    step += 1;
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
  };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
