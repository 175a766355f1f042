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
import { costBasisOf, describeAgentPlan, describeAgentSelection, summarizeAgentPlan } from '../../core/agentAsk/agentPlanSummary';
import type { AgentCostBasis } from '../../core/agentAsk/agentPlanSummary';
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
import { plural } from '../../shared/text/format';
import type { ActiveRun } from '../run/activeRun';
import { readAgentSelection } from './editorSelection';
import type { AgentSelectionInput } from './editorSelection';
import { isModelConfigured } from '../settings/rlmSettings';
import type { RlmSettings } from '../settings/rlmSettings';

interface RlmAskInput {
  question?: unknown;
  paths?: unknown;
  selection?: unknown;
}

/**
 * VS Code's `toolProgress` proposal (1.100): a third argument of invoke whose messages the chat shows
 * on the tool's line while it runs. The stable 1.100 API has none; code-server's extension host passes
 * it to every extension, VS Code only to extensions allowed that proposal. Typed here, since
 * @types/vscode 1.100 does not declare it, and used only when the host passes it.
 */
interface ToolProgress {
  report(step: { message?: string; increment?: number }): void;
}

/** What a call reads: the files its paths name, or the user's selection. */
type AgentInput =
  | { question: string; kind: 'paths'; plan: ContextPlan }
  | { question: string; kind: 'selection'; selection: AgentSelectionInput };

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

/** `confirmed`: the selection the confirmation showed for this input, read then (see RlmAskTool.shown). */
async function inputOf(input: RlmAskInput, confirmed?: AgentSelectionInput): Promise<AgentInput> {
  if (!vscode.workspace.isTrusted) throw untrusted();
  const parsed = parseAgentToolInput(input, { hasEditor: true });
  if (parsed.selection) return { question: parsed.question, kind: 'selection', selection: confirmed ?? readAgentSelection(readSettings().contextLimitBytes) };
  const plan = await planAgentPaths(parsed.paths, { root: workspaceRoot() });
  return { question: parsed.question, kind: 'paths', plan };
}

/** Whether the cost limit can act: a VS Code model is on the user's plan; an unknown price is not counted. */
function costBasis(settings: RlmSettings): AgentCostBasis {
  if (!isModelConfigured(settings)) return { kind: 'free', why: 'a VS Code chat model, included in your plan' };
  return costBasisOf([settings.root, settings.sub ?? settings.root], 'set its price in rlm.prices, or configure a model with a known price', settings.prices);
}

/** The confirmation's sentence: what is read, how, and the limits that can stop the run. */
function describeInput(input: AgentInput): string {
  const limits = agentToolLimits();
  const cost = costBasis(readSettings());
  return input.kind === 'selection' ? describeAgentSelection(input.selection.description, input.selection.selectedBytes, limits, cost) : describeAgentPlan(summarizeAgentPlan(input.plan, limits, cost));
}

/** "Asking RLM about src/x.ts", "… about 12 files", "… about the 40 selected lines of src/x.ts (lines 40-79)". */
function invocationMessageOf(input: AgentInput): string {
  if (input.kind === 'selection') return `Asking RLM about ${input.selection.description}`;
  const { target } = input.plan;
  return `Asking RLM about ${target.paths.length === 1 ? target.paths[0] : `${target.fileCount} files`}`;
}

/** An error the agent can act on, as a sentence; anything unexpected is described the usual way. */
function sentenceOf(error: unknown): string {
  if (error instanceof AgentAskError || error instanceof ContextReadError) return error.message;
  return describeError(error).text;
}

/** A confirmed selection is used by the invocation that follows within this time, else read again. */
const CONFIRMED_SELECTION_TTL_MS = 10 * 60_000;

export class RlmAskTool implements vscode.LanguageModelTool<RlmAskInput> {
  /**
   * The selection the last confirmation named, by its input: VS Code calls prepareInvocation, waits
   * for the user, then calls invoke with the same input. The user may click into the editor meanwhile;
   * the run reads what they approved, not what is selected when they press Continue.
   */
  private shown: { key: string; at: number; selection: AgentSelectionInput } | undefined;

  constructor(private readonly services: RlmServices) {}

  /** The selection shown for `input` and not used yet; taken once. */
  private takeShown(input: RlmAskInput): AgentSelectionInput | undefined {
    const shown = this.shown;
    if (!shown || shown.key !== JSON.stringify(input) || Date.now() - shown.at > CONFIRMED_SELECTION_TTL_MS) return undefined;
    this.shown = undefined;
    return shown.selection;
  }

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RlmAskInput>): Promise<vscode.PreparedToolInvocation> {
    let planned: AgentInput;
    try {
      planned = await inputOf(options.input);
    } catch (error) {
      // No confirmation for a call that cannot run: invoke() answers with the same sentence.
      return { invocationMessage: `RLM cannot run: ${sentenceOf(error)}` };
    }
    // Plain text: the question is the agent's (any text it read may have shaped it), shown, never rendered.
    const message = `Question: ${planned.question}\n\n${describeInput(planned)}\n\n${planned.kind === 'selection' ? 'The selected text stays' : 'The files stay'} in RLM's sandbox; the model reads what its code extracts.`;
    const invocationMessage = invocationMessageOf(planned);
    this.shown = planned.kind === 'selection' ? { key: JSON.stringify(options.input), at: Date.now(), selection: planned.selection } : undefined;
    if (vscode.workspace.getConfiguration('rlm.agentTool').get<boolean>('confirm') === false) return { invocationMessage };
    return { invocationMessage, confirmationMessages: { title: planned.kind === 'selection' ? 'Run RLM on the selection?' : 'Run RLM on these files?', message } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RlmAskInput>, token: vscode.CancellationToken, progress?: ToolProgress): Promise<vscode.LanguageModelToolResult> {
    const text = await this.answer(options, token, typeof progress?.report === 'function' ? progress : undefined);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }

  private async answer(options: vscode.LanguageModelToolInvocationOptions<RlmAskInput>, token: vscode.CancellationToken, progress: ToolProgress | undefined): Promise<string> {
    const controller = new AbortController();
    const onCancel = token.onCancellationRequested(() => controller.abort(new RunCancelledError('stopped in the chat')));
    let stopReporting: (() => void) | undefined;
    try {
      const input = await inputOf(options.input, this.takeShown(options.input));
      const { question } = input;
      const gathered = input.kind === 'selection' ? { source: input.selection.source, target: input.selection.target } : { source: { kind: 'plan' as const, plan: input.plan }, target: input.plan.target };
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
        gather: () => Promise.resolve(gathered),
        ...(fallback ? { fallbackRoot: (gate) => new LanguageModelClient({ chat: wrapChatModel(fallback), createCancellation: () => this.services.lm.createCancellation(), gate }) } : {}),
      });
      // The launcher starts nothing only when the call was cancelled while it prepared the run.
      if (!run) return 'The run was stopped before it started; nothing was sent to a model.';
      this.services.log.info(`Agent run ${run.runId} started: ${question}`);
      if (progress) stopReporting = reportProgress(run, progress);
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
      stopReporting?.();
      onCancel.dispose();
    }
  }

  /**
   * The model when none is configured: the chat's own, where the host hands it to the tool (not in
   * 1.100's stable API; its chatParticipantAdditions proposal sets `model`, which code-server passes to
   * every extension), else the first model VS Code offers.
   */
  private async fallbackModel(options: object): Promise<vscode.LanguageModelChat | undefined> {
    const given = (options as { model?: vscode.LanguageModelChat }).model;
    if (given && typeof given.sendRequest === 'function') return given;
    const [first] = await vscode.lm.selectChatModels();
    return first;
  }
}

/** Reports the run's turns, sub-calls and activity on each tick where they changed; returns the unsubscriber. */
function reportProgress(run: ActiveRun, progress: ToolProgress): () => void {
  let last = '';
  const report = (): void => {
    const p = run.progress;
    if (p.turn === 0) return;
    const message = `RLM: turn ${p.turn}, ${plural(p.subCalls, 'sub-call')}, ${p.activity}`;
    if (message === last) return;
    last = message;
    try {
      progress.report({ message });
    } catch {
      // A host that dropped the invocation's progress must not end the run.
    }
  };
  return run.onTick(report);
}

export function registerAgentTool(services: RlmServices): vscode.Disposable[] {
  // Hosts without the tool API (older or trimmed builds) keep everything else.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return [vscode.lm.registerTool<RlmAskInput>(AGENT_TOOL_NAME, new RlmAskTool(services))];
}
