// `rlm mcp`: serves rlm_ask over MCP on stdin/stdout until the client closes the stream. stdout is the
// protocol's: every note goes to stderr. Bad flags end the command at once (exit 2), as for `rlm ask`;
// a missing model does not (the server starts and each call says what to pass).
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRlmRun } from '../../core/loop/rlmRun';
import { createModelClient } from '../../core/models/createModelClient';
import type { ReplPool } from '../../core/repl/replPool';
import { MCP_HELP } from '../support/cliHelp';
import { parseCommandArgs } from '../support/commandArgs';
import { createCliReplFactory } from '../support/cliRepl';
import { modelConfigs, UsageError } from '../support/modelArgs';
import type { ModelConfigs } from '../support/modelArgs';
import { ripgrepOnPath } from '../support/ripgrepOnPath';
import { cliCacheUse } from '../support/subCallCacheLocation';
import { parseMcpArgs } from './mcpArgs';
import { createMcpServer } from './mcpServer';

interface McpDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): unknown };
  distDir: string;
  toolVersion: string;
}

export async function runMcp(argv: string[], deps: McpDeps): Promise<number> {
  const args = parseCommandArgs('mcp', () => parseMcpArgs(argv), deps.stderr);
  if (!args) return 2;
  if (args.help) {
    deps.stderr.write(`${MCP_HELP}\n`);
    return 0;
  }
  const root = resolve(deps.cwd, args.root);
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch {
    deps.stderr.write(`rlm mcp: --root ${root} is not a folder\n`);
    return 2;
  }
  let models: ModelConfigs | { missing: string };
  try {
    models = args.models ? modelConfigs(args.models, deps.env) : { missing: 'No model is configured for rlm mcp, and this client offers no sampling to lend its own: add --model NAME to its command line in your MCP settings (with the key in OPENAI_API_KEY or ANTHROPIC_API_KEY, or --base-url for a local server such as Ollama), then restart the server.' };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    deps.stderr.write(`rlm mcp: ${error.message}\n`);
    return 2;
  }
  let pool: ReplPool | undefined;
  const ripgrep = ripgrepOnPath(deps.env);
  const server = createMcpServer({
    args,
    root,
    toolVersion: deps.toolVersion,
    models,
    createModelClient,
    createRun: createRlmRun,
    replPool: () =>
      (pool ??= createCliReplFactory({
        distDir: deps.distDir,
        refillAfterFirst: true,
        ...(args.allowWeakerSandbox ? { allowWeakerSandbox: true } : {}),
        ...(args.input.maxTotalBytes !== undefined ? { contextLimitBytes: args.input.maxTotalBytes } : {}),
        ...(args.input.replMemoryMb !== undefined ? { memoryCapMb: args.input.replMemoryMb } : {}),
        ...(ripgrep ? { ripgrepPath: ripgrep } : {}),
        log: (line) => deps.stderr.write(`rlm mcp: ${line}\n`),
      })),
    subCallCache: () => cliCacheUse(args.cache, root, { env: deps.env, platform: process.platform, home: homedir() }),
    log: (line) => deps.stderr.write(`${line}\n`),
  });
  const transport = new StdioServerTransport(deps.stdin as never, deps.stdout as never);
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
    // The client closing its end of stdin is how a stdio server is told to stop.
    deps.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  deps.stderr.write(`rlm mcp: serving ${root}${'missing' in models ? ' (no model configured: the client\'s own through sampling where it offers it; otherwise calls say how to add one)' : ` with ${models.root.provider} ${models.root.model}`}\n`);
  await closed;
  await pool?.dispose();
  return 0;
}
