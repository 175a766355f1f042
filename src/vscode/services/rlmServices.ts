// The extension's long-lived parts, created at activation but cheap until used: the engine (loop,
// SDKs, REPL host) is loaded from dist/engine.js on the first run.
import { vscodeRipgrepPath } from '../context/vscodeRipgrep';
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { ReplPool, RlmEngine } from '../engine/engineTypes';
import { resolveTrajectoryDirectory } from '../history/trajectoryDirectory';
import type { ModelClient } from '../../core/models/modelTypes';
import { LanguageModelClient, resolveLanguageModel } from '../models/languageModelClient';
import type { LmSurface } from '../models/lmSurface';
import type { RequestGate } from '../models/requestGate';
import { ApiKeyStore } from '../models/secretKeys';
import { vscodeLmSurface } from '../models/vscodeLmSurface';
import { FileTrajectorySink } from '../run/trajectorySink';
import { RunLauncher } from '../run/runLauncher';
import { RunRegistry } from '../run/runRegistry';
import { RunStatusBar } from '../run/runStatusBar';
import { readSettings } from '../settings/readSettings';
import type { TrajectoryViews } from '../trajectory/registerTrajectoryViews';
import { ALLOW_WEAKER_KEY, weakerSandboxAccepted } from '../settings/weakerSandbox';
import { noticeText } from '../../shared/text/untrustedText';

/** Loads the engine bundle lazily; `require` of a computed path keeps it out of dist/extension.js. */
function loadEngineBundle(extensionPath: string): RlmEngine {
  const path = join(extensionPath, 'dist', 'engine.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a runtime path, loaded on first use by design
  const loaded = require(path) as { engine?: RlmEngine };
  if (!loaded.engine) throw new Error(`${path} does not export the RLM engine; rebuild the extension (npm run build).`);
  return loaded.engine;
}

/** How long after a view opens its spare REPL starts. */
const PREWARM_DELAY_MS = 2000;

export class RlmServices implements vscode.Disposable {
  readonly registry = new RunRegistry();
  readonly keys: ApiKeyStore;
  readonly launcher: RunLauncher;
  private readonly statusBar: RunStatusBar;
  private enginePromise: Promise<RlmEngine> | undefined;
  private pool: ReplPool | undefined;
  private prewarmScheduled = false;
  views: TrajectoryViews | undefined;
  /** The sidebar chat, once registered: a view's "Ask again" puts the question in its box. */
  chat: { prefill(question: string): Promise<void> } | undefined;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    private readonly loadEngine: () => RlmEngine = () => loadEngineBundle(context.extensionPath),
    readonly lm: LmSurface = vscodeLmSurface,
  ) {
    this.keys = new ApiKeyStore(context.secrets, context.globalState);
    this.statusBar = new RunStatusBar(this.registry);
    this.launcher = new RunLauncher({
      engine: () => this.engine(),
      replPool: () => this.replPool(),
      registry: this.registry,
      apiKey: (s) => this.keys.get(s.provider, s.baseUrl),
      vscodeModel: (model, gate) => this.vscodeModel(model, gate),
      openSink: (runId, secrets, about) =>
        new FileTrajectorySink({
          directory: this.trajectoryDirectory(),
          runId,
          ...about,
          toolVersion: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
          secrets,
          now: Date.now,
          onError: (error) => {
            this.log.error(`Trajectory could not be written: ${String(error)}`);
            void vscode.window.showWarningMessage(noticeText(`RLM could not record this run: ${error instanceof Error ? error.message : String(error)}. The run goes on; check rlm.trajectoryDirectory.`));
          },
        }),
      subCallCacheDir: () => this.subCallCacheDir(),
      now: Date.now,
    });
  }

  /** A client for the VS Code language model a setting names (an id or a family). */
  async vscodeModel(model: string, gate: RequestGate): Promise<ModelClient> {
    const chat = await resolveLanguageModel(this.lm, model);
    return new LanguageModelClient({ chat, createCancellation: () => this.lm.createCancellation(), gate });
  }

  /**
   * Cached sub-call answers live in VS Code's storage for this workspace, so two workspaces never share
   * them; a window without a folder has its own folder in global storage.
   */
  subCallCacheDir(): string {
    return this.context.storageUri ? join(this.context.storageUri.fsPath, 'subcalls') : join(this.context.globalStorageUri.fsPath, 'subcalls-no-folder');
  }

  engine(): Promise<RlmEngine> {
    if (!this.enginePromise) {
      const started = Date.now();
      this.enginePromise = Promise.resolve().then(() => {
        const engine = this.loadEngine();
        this.log.info(`Engine loaded in ${Date.now() - started} ms`);
        return engine;
      });
      this.enginePromise.catch(() => (this.enginePromise = undefined));
    }
    return this.enginePromise;
  }

  /** Starts a REPL in the background when a question is about to be asked; never at activation. */
  prewarmRepl(): void {
    const warn = (error: unknown): void => this.log.warn(`Starting the REPL ahead of the question failed (the run will try again): ${error instanceof Error ? error.message : String(error)}`);
    this.replPool().then((pool) => pool.prewarm(warn), warn);
  }

  /**
   * A spare REPL for a view that has just opened (the chat, a trajectory): started a moment later, so
   * a window restored with the view open still starts at full speed, and only in a trusted workspace.
   */
  prewarmReplSoon(delayMs = PREWARM_DELAY_MS): void {
    if (!vscode.workspace.isTrusted || this.prewarmScheduled) return;
    this.prewarmScheduled = true;
    setTimeout(() => this.prewarmRepl(), delayMs).unref();
  }

  /** Whether any REPL was started yet, and how many wait unused (tests: nothing at activation). */
  get replPoolState(): { created: boolean; spares: number } {
    return { created: this.pool !== undefined, spares: this.pool?.spareCount ?? 0 };
  }

  async replPool(): Promise<ReplPool> {
    if (!this.pool) {
      const engine = await this.engine();
      const ripgrep = vscodeRipgrepPath(vscode.env.appRoot);
      let memoryCapMb: number | undefined;
      try {
        memoryCapMb = readSettings().replMemoryMb;
      } catch {
        // A bad setting is reported when a run reads the settings; the REPL keeps its default cap.
      }
      this.pool = engine.createReplPool({
        distDir: join(this.context.extensionPath, 'dist'),
        snapshotCacheDir: join(this.context.globalStorageUri.fsPath, 'pyodide-snapshots'),
        ...(ripgrep ? { ripgrepPath: ripgrep } : {}),
        ...(memoryCapMb !== undefined ? { memoryCapMb } : {}),
        // The user's own value only (weakerSandbox.ts): a workspace cannot accept a weaker sandbox for itself.
        allowWeakerSandbox: () =>
          weakerSandboxAccepted(
            vscode.workspace.getConfiguration('rlm').inspect(ALLOW_WEAKER_KEY)?.globalValue,
            (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
          ),
        log: (message) => this.log.debug(`[repl] ${message}`),
      });
    }
    return this.pool;
  }

  trajectoryDirectory(): string {
    const settings = readSettings();
    return resolveTrajectoryDirectory({
      setting: settings.trajectoryDirectory,
      inWorkspace: settings.trajectoriesInWorkspace,
      ...(vscode.workspace.workspaceFolders?.[0] ? { firstFolder: vscode.workspace.workspaceFolders[0].uri.fsPath } : {}),
      ...(this.context.storageUri ? { workspaceStorage: this.context.storageUri.fsPath } : {}),
      globalStorage: this.context.globalStorageUri.fsPath,
    });
  }

  async prefillChat(question: string): Promise<void> {
    if (!this.chat) throw new Error('The RLM chat is not available.');
    await this.chat.prefill(question);
  }

  async openTrajectory(path: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    if (this.views) await this.views.openFile(uri);
    else await vscode.commands.executeCommand('vscode.open', uri);
  }

  dispose(): void {
    for (const run of this.registry.active()) run.stop();
    this.statusBar.dispose();
    void this.pool?.dispose();
  }
}
