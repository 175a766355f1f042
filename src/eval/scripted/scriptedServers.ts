// Starts the scripted reference policy on local fake model servers that speak the real wire format:
// one server plays the root (an RLM that writes good code), one the rule-based sub-model. Results
// produced against them are labelled scripted, never model results.
import { startFakeModelServer } from '../fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeProtocol } from '../fakeServers/fakeServerTypes';
import type { ModelConfig } from '../../core/models/modelTypes';
import { CONTEXT_BEGIN } from '../modePrompts';
import { scriptedDirectReply } from './scriptedDirect';
import { scriptedRootReply } from './scriptedRoot';
import { answerSubPrompt } from './scriptedSubModel';

const SCRIPTED_ROOT_MODEL = 'scripted-root';
const SCRIPTED_SUB_MODEL = 'scripted-sub';
/** The windows the scripted models claim, so prompt-size checks and direct-mode truncation are exercised. */
const SCRIPTED_WINDOW_TOKENS = 128_000;

export interface ScriptedServers {
  root: ModelConfig;
  sub: ModelConfig;
  rootServer: FakeModelServer;
  subServer: FakeModelServer;
  close(): Promise<void>;
}

interface ScriptedServerOptions {
  protocol?: FakeProtocol;
  /** Simulated latency of every response. */
  latencyMs?: number;
}

function lastUserText(request: FakeModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) if (request.messages[i]!.role === 'user') return request.messages[i]!.content;
  return '';
}

export function scriptedRootRespond(request: FakeModelRequest): string {
  const first = request.messages.find((m) => m.role === 'user')?.content ?? '';
  return first.includes(CONTEXT_BEGIN) ? scriptedDirectReply(first) : scriptedRootReply(request.messages);
}

function scriptedSubRespond(request: FakeModelRequest): string {
  return answerSubPrompt(lastUserText(request));
}

export async function startScriptedServers(options: ScriptedServerOptions = {}): Promise<ScriptedServers> {
  const protocol = options.protocol ?? 'openai';
  const common = { protocol, ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}) };
  const rootServer = await startFakeModelServer({ ...common, respond: scriptedRootRespond });
  let subServer: FakeModelServer;
  try {
    subServer = await startFakeModelServer({ ...common, respond: scriptedSubRespond });
  } catch (error) {
    await rootServer.close();
    throw error;
  }
  const config = (server: FakeModelServer, model: string): ModelConfig => ({
    provider: protocol,
    baseUrl: server.baseUrl,
    model,
    contextWindowTokens: SCRIPTED_WINDOW_TOKENS,
    maxRetries: 0,
  });
  return {
    root: config(rootServer, SCRIPTED_ROOT_MODEL),
    sub: config(subServer, SCRIPTED_SUB_MODEL),
    rootServer,
    subServer,
    close: async () => {
      await Promise.all([rootServer.close(), subServer.close()]);
    },
  };
}
