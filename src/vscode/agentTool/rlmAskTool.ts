// The `rlm_ask` language model tool (`#rlm` in chat): an agent (Copilot's agent mode, another
// extension) asks a question about workspace paths and gets a short answer with path:line references.
// The paths are resolved and confined to the workspace folder by the shared core (agentPaths.ts); the
// confirmation VS Code shows says what will be read and the run's cost limit; the run goes through the
// same launcher as every other run, so it is recorded and listed in History, marked as an agent's.
import { isNoChargeEndpoint } from '../../core/models/pricing';
import * as vscode from 'vscode';
import { AgentAskError } from '../../core/agentAsk/agentAskErrors';
import { agentLimits } from '../../core/agentAsk/agentLimits';
import { planAgentPaths } from '../../core/agentAsk/agentPaths';
import { describeAgentPlan, summarizeAgentPlan } from '../../core/agentAsk/agentPlanSummary';
import { agentAnswerOf, renderAgentAnswer } from '../../core/agentAsk/agentResult';
import { AGENT_TOOL_NAME, parseAgentToolInput } from '../../core/agentAsk/agentToolSchema';
import { ContextReadError } from '../../core/context/contextErrors';
import type { ContextPlan } from '../../core/context/contextTypes';
import { RunCancelledError } from '../../core/loop/loopErrors';
import type { RunLimits } from '../../core/loop/loopTypes';
import { describeError } from '../errors/describeError';
import { LanguageModelClient } from '../models/languageModelClient';
import { wrapChatModel } from '../models/vscodeLmSurface';
import type { RlmServices } from '../services/rlmServices';
import { readSettings } from '../settings/readSettings';
import { isModelConfigured } from '../settings/rlmSettings';

interface RlmAskInput {
  question?: unknown;
  paths?: unknown;
}

/** The tool's own limits (rlm.agentTool.*), over the agent defaults; a person's rlm.limits.* are not an agent's. */
function agentToolLimits(): Partial<RunLimits> {
  const config = vscode.workspace.getConfiguration('rlm.agentTool');
  const cost = config.get<number>('maxCostUsd');
  const seconds = config.get<number>('timeoutSeconds');
  return agentLimits({
    ...(typeof cost === 'number' && cost > 0 ? { maxCostUsd: cost } : {}),
    ...(typeof seconds === 'number' && seconds > 0 ? { maxWallTimeMs: Math.round(seconds * 1000) } : {}),
  });
}

/** The folder the tool serves: the first workspace folder on disk (paths are relative to it). */
function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) throw new AgentAskError('bad-path', 'No folder is open in VS Code: open the project folder, then ask again.');
  return folder.uri.fsPath;
}

function untrusted(): AgentAskError {
  return new AgentAskError('untrusted', 'This workspace is not trusted, so RLM will not send its files to a model: ask the user to trust the workspace (Workspaces: Manage Workspace Trust), then ask again.');
}

async function planOf(input: RlmAskInput): Promise<{ question: string; plan: ContextPlan }> {
  if (!vscode.workspace.isTrusted) throw untrusted();
  const parsed = parseAgentToolInput(input);
  const plan = await planAgentPaths(parsed.paths, { root: workspaceRoot() });
  return { question: parsed.question, plan };
}

/** An error the agent can act on, as a sentence; anything unexpected is described the usual way. */
function sentenceOf(error: unknown): string {
  if (error instanceof AgentAskError || error instanceof ContextReadError) return error.message;
  return describeError(error).text;
}

export class RlmAskTool implements vscode.LanguageModelTool<RlmAskInput> {
  constructor(private readonly services: RlmServices) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RlmAskInput>): Promise<vscode.PreparedToolInvocation> {
    let planned: { question: string; plan: ContextPlan };
    try {
      planned = await planOf(options.input);
    } catch (error) {
      // No confirmation for a call that cannot run: invoke() answers with the same sentence.
      return { invocationMessage: `RLM cannot run: ${sentenceOf(error)}` };
    }
    const text = describeAgentPlan(summarizeAgentPlan(planned.plan, agentToolLimits()));
    // Plain text: the question is the agent's (any text it read may have shaped it), shown, never rendered.
    const message = `Question: ${planned.question}\n\n${text}\n\nThe files stay in RLM's sandbox; the model reads what its code extracts.`;
    const invocationMessage = `Asking RLM about ${planned.plan.target.paths.length === 1 ? planned.plan.target.paths[0] : `${planned.plan.target.fileCount} files`}`;
    if (vscode.workspace.getConfiguration('rlm.agentTool').get<boolean>('confirm') === false) return { invocationMessage };
    return {
      invocationMessage: `Asking RLM about ${planned.plan.target.paths.length === 1 ? planned.plan.target.paths[0] : `${planned.plan.target.fileCount} files`}`,
      confirmationMessages: { title: 'Run RLM on these files?', message },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RlmAskInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const text = await this.answer(options, token);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }

  private async answer(options: vscode.LanguageModelToolInvocationOptions<RlmAskInput>, token: vscode.CancellationToken): Promise<string> {
    const controller = new AbortController();
    const onCancel = token.onCancellationRequested(() => controller.abort(new RunCancelledError('stopped in the chat')));
    try {
      const { question, plan } = await planOf(options.input);
      const settings = readSettings();
      const fallback = isModelConfigured(settings) ? undefined : await this.fallbackModel(options);
      if (!isModelConfigured(settings) && !fallback) {
        return 'RLM has no model: ask the user to run "RLM: Set up models" (or set rlm.root.model), or to make a chat model available in VS Code, then ask again.';
      }
      this.services.prewarmRepl();
      const run = await this.services.launcher.start({
        contextKey: `agent:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`,
        question,
        settings: { ...settings, limits: { ...settings.limits, ...agentToolLimits() } },
        signal: controller.signal,
        askedBy: { kind: 'agent', via: 'vscode-tool' },
        gather: () => Promise.resolve({ source: { kind: 'plan', plan }, target: plan.target }),
        ...(fallback ? { fallbackRoot: (gate) => new LanguageModelClient({ chat: wrapChatModel(fallback), createCancellation: () => this.services.lm.createCancellation(), gate }) } : {}),
      });
      if (!run) return 'The run did not start.';
      this.services.log.info(`Agent run ${run.runId} started: ${question}`);
      const result = await run.result;
      this.services.log.info(`Agent run ${run.runId} ended: ${result.status}`);
      if (token.isCancellationRequested) return 'The run was stopped.';
      // The run's result carries what run.finished does; its resolved citations come in their own record.
      const cited = run.records().find((r) => r.type === 'references' && r.runId === run.runId);
      const withReferences = cited?.type === 'references' ? { ...result, references: cited.references, unresolvedReferences: cited.unresolved } : result;
      // A VS Code model is on the user's plan (the run's totals say so); a configured local server charges nothing.
      const local = !fallback && isNoChargeEndpoint(settings.root.baseUrl) && isNoChargeEndpoint((settings.sub ?? settings.root).baseUrl);
      return renderAgentAnswer(agentAnswerOf(withReferences, run.trajectoryPath, options.tokenizationOptions?.tokenBudget, local));
    } catch (error) {
      return sentenceOf(error);
    } finally {
      onCancel.dispose();
    }
  }

  /**
   * The model when none is configured: the chat's own, where the host hands it to the tool (newer
   * VS Code; the 1.100 API has no such field), else the first model VS Code offers.
   */
  private async fallbackModel(options: object): Promise<vscode.LanguageModelChat | undefined> {
    const given = (options as { model?: vscode.LanguageModelChat }).model;
    if (given && typeof given.sendRequest === 'function') return given;
    const [first] = await vscode.lm.selectChatModels();
    return first;
  }
}

export function registerAgentTool(services: RlmServices): vscode.Disposable[] {
  // Hosts without the tool API (older or trimmed builds) keep everything else.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return [vscode.lm.registerTool<RlmAskInput>(AGENT_TOOL_NAME, new RlmAskTool(services))];
}
