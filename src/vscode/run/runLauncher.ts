// Starts a run from a request: checks the configuration, claims the target, gathers the context,
// builds the model clients with their keys, and hands the loop's events to an ActiveRun.
// No `vscode` import: the adapter supplies gathering, keys and the trajectory directory.
import type { ContextSource, TargetDescription } from '../../core/context/contextTypes';
import type { RlmRun, RunLimits } from '../../core/loop/loopTypes';
import type { RecordedBatch } from '../../core/loop/batchOptions';
import type { ReplFactory } from '../../core/repl/replFactory';
import type { ModelClient, ModelConfig } from '../../core/models/modelTypes';
import { RequestGate } from '../models/requestGate';
import type { ReplayInput } from '../../core/continuation/replayPlan';
import type { AskedBy } from '../../core/trajectory/trajectoryFormat';
import type { RlmEngine } from '../engine/engineTypes';
import type { ModelSetting, RlmSettings } from '../settings/rlmSettings';
import { isModelConfigured } from '../settings/rlmSettings';
import { NoModelConfiguredError } from '../errors/extensionErrors';
import { modelConfigFor } from '../models/modelConfig';
import { ActiveRun } from './activeRun';
import type { TrajectorySink } from './activeRun';
import type { Conversation } from './conversation';
import { OwnSession } from './ownSession';
import { RunSession } from './runSession';
import type { RunRegistry } from './runRegistry';

export interface GatheredContext {
  source: ContextSource;
  target: TargetDescription;
}

export interface RunRequest {
  /** Identifies the target: one run at a time per key. */
  contextKey: string;
  question: string;
  settings: RlmSettings;
  /** Reads the files; may ask the user to confirm (resolves undefined when they decline). */
  gather: (signal: AbortSignal) => Promise<GatheredContext | undefined>;
  conversation?: Conversation;
  /** Recorded in the trajectory's header, so History groups a conversation's questions. */
  conversationId?: string;
  /** Cancels gathering and the run (e.g. the progress notification's Cancel). */
  signal?: AbortSignal;
  /**
   * The root model when none is configured: the chat participant passes the model picked in the chat.
   * Given the run's request gate, so its calls share the VS Code model concurrency limit.
   */
  fallbackRoot?: (gate: RequestGate) => ModelClient;
  /** Replay a recorded run's cells first (Continue this run / Fork from this turn). */
  replay?: ReplayInput;
  /** Set when an agent asked (the rlm_ask language model tool): recorded in the trajectory's header. */
  askedBy?: AskedBy;
  /** `refresh`: every sub-call is sent again and its answer replaces the cached one (Ask again without cache). */
  cache?: 'use' | 'refresh';
  /** A record's provider batches (Continue… / Fork…): polled instead of sent again, whatever rlm.subCallBatch says. */
  recordedBatches?: RecordedBatch[];
}

/** Builds a client for a "vscode" setting: finds the model VS Code offers under that id or family. */
export type VscodeModelFactory = (model: string, gate: RequestGate) => Promise<ModelClient>;

interface RunLauncherDeps {
  engine: () => Promise<RlmEngine>;
  replPool: () => Promise<ReplFactory>;
  registry: RunRegistry;
  apiKey: (setting: ModelSetting) => Promise<string | undefined>;
  /** Absent where VS Code's Language Model API is not available (unit tests of other providers). */
  vscodeModel?: VscodeModelFactory;
  openSink: (runId: string, secrets: Array<string | undefined>, about: { question: string; conversationId?: string; askedBy?: AskedBy }) => TrajectorySink | undefined;
  /** This workspace's folder of cached sub-call answers (never another workspace's). */
  subCallCacheDir: () => string;
  now: () => number;
}

function isClient(plan: ModelConfig | ModelClient): plan is ModelClient {
  return 'complete' in plan;
}

export class RunLauncher {
  /** A run that cannot be created gives the conversation's session back (it was prepared for it). */
  private createRun(request: RunRequest, create: () => RlmRun): RlmRun {
    try {
      return create();
    } catch (error) {
      void request.conversation?.finish(request.question, 'error', undefined);
      throw error;
    }
  }

  private last: RunRequest | undefined;

  constructor(private readonly deps: RunLauncherDeps) {}

  /** The request of the latest run started, for "Ask again without cache". */
  get lastRequest(): RunRequest | undefined {
    return this.last;
  }

  /** Resolves undefined when the user declined at the confirmation. Throws typed errors otherwise. */
  async start(request: RunRequest): Promise<ActiveRun | undefined> {
    const { settings } = request;
    const useFallback = !isModelConfigured(settings) && request.fallbackRoot !== undefined;
    if (!isModelConfigured(settings) && !useFallback) throw new NoModelConfiguredError();
    const release = this.deps.registry.reserve(request.contextKey, request.question);
    try {
      const controller = new AbortController();
      const onAbort = (): void => controller.abort(request.signal?.reason);
      if (request.signal?.aborted) onAbort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      // One gate per run, shared by its root and sub when both are VS Code models.
      const gate = new RequestGate(settings.vscodeModelConcurrency);
      const rootPlan = useFallback && request.fallbackRoot ? request.fallbackRoot(gate) : await this.plan(settings.root, settings, gate);
      const subPlan = settings.sub ? await this.plan(settings.sub, settings, gate) : undefined;
      const gathered = await request.gather(controller.signal);
      if (!gathered || controller.signal.aborted) return undefined;
      const engine = await this.deps.engine();
      const root = isClient(rootPlan) ? rootPlan : engine.createModelClient(rootPlan);
      const sub = subPlan === undefined ? undefined : isClient(subPlan) ? subPlan : engine.createModelClient(subPlan);
      const rootConfig = isClient(rootPlan) ? undefined : rootPlan;
      const subConfig = subPlan === undefined || isClient(subPlan) ? undefined : subPlan;
      // The prompt tells the model how many batch prompts run at once; with a VS Code sub model that is the gate's size.
      const subIsVscode = (sub ?? root).provider === 'vscode';
      const limits: Partial<RunLimits> = subIsVscode
        ? { ...settings.limits, subCallConcurrency: Math.min(settings.limits.subCallConcurrency ?? settings.vscodeModelConcurrency, settings.vscodeModelConcurrency) }
        : settings.limits;
      const cache = settings.subCallCache.enabled ? engine.createSubCallCache({ dir: this.deps.subCallCacheDir(), maxBytes: settings.subCallCache.maxBytes }) : undefined;
      // A run outside a chat keeps its own REPL after it, for the user's cells.
      const pool = await this.deps.replPool();
      const own = request.conversation ? undefined : new OwnSession(pool, () => engine.createBridgeRouter());
      const sessionOptions = request.conversation ? await request.conversation.prepare(request.contextKey, controller.signal) : undefined;
      const run = this.createRun(request, () => engine.createRlmRun({
        question: request.question,
        context: gathered.source,
        target: gathered.target,
        root,
        ...(sub ? { sub } : {}),
        limits,
        repl: own ? own.factory : pool,
        signal: controller.signal,
        ...(cache ? { subCallCache: { cache, mode: request.cache ?? 'use' } } : {}),
        ...(settings.subCallBatch.mode !== 'off' || request.recordedBatches?.length
          ? { batch: { mode: settings.subCallBatch.mode, minPrompts: settings.subCallBatch.minPrompts, ...(request.recordedBatches?.length ? { recorded: request.recordedBatches } : {}) } }
          : {}),
        ...(sessionOptions ?? {}),
        ...(request.replay ? { replay: request.replay } : {}),
      }));
      const sink = this.deps.openSink(run.runId, [rootConfig?.apiKey, subConfig?.apiKey], { question: request.question, ...(request.conversationId ? { conversationId: request.conversationId } : {}), ...(request.askedBy ? { askedBy: request.askedBy } : {}) });
      const active = new ActiveRun({ run, controller, question: request.question, now: this.deps.now, holdRecord: true, ...(sink ? { sink } : {}), ...(request.conversationId ? { conversationId: request.conversationId } : {}) });
      const subCallCache = cache ? { cache, mode: request.cache ?? 'use' as const } : undefined;
      const conversation = request.conversation;
      const source = conversation ?? own!;
      active.userCells = new RunSession({ run: active, conversation: source, owned: conversation === undefined, runUserCell: (options) => engine.runUserCell(options), sub: sub ?? root, root, limits, ...(subCallCache ? { subCallCache } : {}) });
      this.deps.registry.track(request.contextKey, active);
      this.last = request;
      void active.result.then((result) => (conversation ? conversation.finish(request.question, result.status, result.answer) : own!.finish(result.status)));
      return active;
    } finally {
      release();
    }
  }

  /** A VS Code model is resolved now (so a missing one fails before gathering); others become a config with their key. */
  private async plan(setting: ModelSetting, settings: RlmSettings, gate: RequestGate): Promise<ModelConfig | ModelClient> {
    if (setting.provider !== 'vscode') return modelConfigFor(setting, this.deps.apiKey, settings.responseLimits, settings.prices);
    if (!this.deps.vscodeModel) throw new Error('VS Code language models are not available here');
    return this.deps.vscodeModel(setting.model, gate);
  }
}
