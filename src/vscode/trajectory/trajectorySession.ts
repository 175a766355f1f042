// The host side of one trajectory webview: holds (a reference to) the run tree, answers the webview's
// paging requests and pushes live changes. Messages wait until the webview's handshake; a re-created
// webview says `ready` again and gets the full state, which supersedes anything queued.
// No `vscode` import: the editor provider and the live panel inject posting and the actions.
import type { RunNode } from '../../core/trajectory/treeTypes';
import type { Reference } from '../../core/trajectory/events';
import {
  PAGE,
  TRAJECTORY_PROTOCOL_VERSION,
  type ExportFormat,
  type HostToWebview,
  type MessageOf,
  type RunHeaderView,
  type UserCellState,
  type WebviewToHost,
} from '../../shared/trajectoryProtocol';
import { RunIndex } from './runIndex';
import { headerView } from './runHeaderProjection';
import { runModelsAndDepth } from '../../core/trajectory/runModels';
import { cellView, outlineOf, turnSummary, turnView, type RunSourceInfo } from './runProjection';
import { searchRun } from './runSearch';
import { conversationView } from './conversationProjection';

export type StateMessage = MessageOf<HostToWebview, 'state'>;

export interface SessionActions {
  /** Present only while a live run can be stopped. */
  stop?(): void;
  exportAs(format: ExportFormat): Promise<void>;
  copyText(text: string): Promise<void>;
  /** Puts `question` in the chat's box, ready to be asked again. */
  askAgain?(question: string): Promise<void>;
  /** Lets the user set a price for one of `models` (rlm.prices). */
  setPrice?(models: string[], model?: string): Promise<void>;
  openSetting?(setting: string): Promise<void>;
  /** Opens a reference of the answer at its line; absent where no editor is at hand. */
  openReference?(reference: Reference, run: RunNode): Promise<void>;
  /** Opens the run this one continued or forked, by its recorded file. */
  openParent?(path: string): Promise<void>;
  /** Continue or fork the recorded run; absent where the run has no file to replay from. */
  continueRun?(fork: boolean): Promise<void>;
  /** The cell input at the bottom of the view: the user's own Python in the run's REPL. */
  userCell?: UserCellActions;
}

export interface UserCellActions {
  state(): UserCellState;
  /** Runs the cell (replaying the run first when its REPL is gone and it can be replayed). */
  run(code: string): Promise<void>;
  stop(): void;
}

export interface TrajectorySessionOptions {
  post(message: HostToWebview): void;
  root(): RunNode;
  /** Every top-level run, when the source holds a conversation (a question and its follow-ups). */
  runs?(): RunNode[];
  /** Where the run came from; a function because a file being read changes it as it goes. */
  info(): RunSourceInfo;
  /** True while the run is live (Stop is offered and changes are pushed). */
  isLive(): boolean;
  actions: SessionActions;
  log?(message: string): void;
}

/** What changed in one run since the last push. */
export interface RunChange {
  runId: string;
  changedTurns: number[];
}

export class TrajectorySession {
  private ready = false;
  private queue: HostToWebview[] = [];
  private readonly index: RunIndex;
  private modelsCache: { version: number; value: ReturnType<typeof runModelsAndDepth> } | undefined;
  private version = 0;
  /** The version whose state went into the page's HTML, if any. */
  private embeddedStamp: number | undefined;

  constructor(private readonly options: TrajectorySessionOptions) {
    this.index = new RunIndex(() => options.root(), options.runs ? () => options.runs!() : undefined);
  }

  /** Handles one raw message from the webview. Invalid messages are logged and answered with a notice. */
  async handle(raw: unknown): Promise<void> {
    let message: WebviewToHost;
    try {
      // The guards (zod schemas) are loaded with the first message, not at activation.
      const { parseWebviewMessage } = await import('../../shared/trajectoryProtocolGuards');
      message = parseWebviewMessage(raw);
    } catch (error) {
      this.options.log?.(String(error instanceof Error ? error.message : error));
      this.send({ type: 'notice', level: 'error', message: String(error instanceof Error ? error.message : error) });
      return;
    }
    try {
      await this.dispatch(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.options.log?.(`trajectory view: ${message.type} failed: ${text}`);
      this.send({ type: 'notice', level: 'error', message: text });
    }
  }

  /** Live: the tree changed. Posts the new header, the outline from the first changed turn, and the changed turn indices. */
  pushChanges(changes: RunChange[]): void {
    this.version += 1;
    this.index.invalidate();
    for (const change of changes) {
      const run = this.index.run(change.runId);
      if (!run) continue;
      const from = change.changedTurns.length ? Math.min(...change.changedTurns) : run.turns.length;
      const finished = run.status !== 'running';
      this.send({
        type: 'update',
        runId: run.runId,
        header: this.header(run),
        outlineFrom: from,
        outline: run.turns.slice(from).map((t, i) => turnSummary(t, from + i, finished)),
        changedTurns: [...new Set(change.changedTurns)].sort((a, b) => a - b),
        live: this.options.isLive(),
      });
    }
  }

  /**
   * The view shows another run now (a follow-up in its conversation, or the run a starting view was
   * waiting for): the whole state goes to the page as it is, without reloading it. Before the
   * handshake, the answer to `ready` carries it (and drops the old run's queued updates).
   */
  pushState(): void {
    this.version += 1;
    this.index.invalidate();
    if (!this.ready) return;
    this.options.post(this.stateMessage());
    this.pushUserCellState();
  }

  /** A message for the user shown in the view (e.g. the file could not be read to its end). */
  pushNotice(level: 'info' | 'error', message: string): void {
    this.send({ type: 'notice', level, message });
  }

  /** The cell input's state changed (a run ended, a cell started or finished, the REPL went away). */
  pushUserCellState(): void {
    const actions = this.options.actions.userCell;
    if (actions) this.send({ type: 'userCell', state: actions.state() });
  }

  /** Live: streamed model text for a turn still being written. */
  pushStreaming(runId: string, turnIndex: number, text: string): void {
    this.send({ type: 'streaming', runId, turnIndex, text });
  }

  private send(message: HostToWebview): void {
    if (this.ready) this.options.post(message);
    else this.queue.push(message);
  }

  private header(run: RunNode): RunHeaderView {
    const root = this.options.root();
    const info = run === root ? this.options.info() : { ...this.options.info(), problems: { count: 0, first: [] } };
    if (run !== root) return headerView(run, info);
    if (!this.modelsCache || this.modelsCache.version !== this.version) {
      this.modelsCache = { version: this.version, value: runModelsAndDepth(run) };
    }
    const conversation = conversationView(this.options.runs?.() ?? []);
    return { ...headerView(run, info, this.modelsCache.value), ...(conversation && { conversation }) };
  }

  private async dispatch(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.onReady(message);
      case 'requestTurns':
        return this.onRequestTurns(message);
      case 'requestRun':
        return this.onRequestRun(message);
      case 'requestCell': {
        const run = this.index.run(message.runId);
        const cell = this.index.cell(message.runId, message.cellId);
        if (!run || !cell) return this.fail(message.requestId, `No cell ${message.cellId} in run ${message.runId}.`);
        this.send({ type: 'cell', requestId: message.requestId, runId: run.runId, cell: cellView(cell, run.config?.observationMaxChars, Infinity) });
        return;
      }
      case 'requestOutline': {
        const run = this.index.run(message.runId);
        if (!run) return this.fail(message.requestId, `No run ${message.runId} in this trajectory.`);
        this.send({ type: 'outline', requestId: message.requestId, runId: run.runId, from: message.from, outline: outlineOf(run, message.from, message.count) });
        return;
      }
      case 'requestText':
        return this.onRequestText(message);
      case 'search': {
        const result = searchRun(this.options.root(), message.query, message.filters);
        this.send({ type: 'searchResults', requestId: message.requestId, ...result });
        return;
      }
      case 'stop':
        if (!this.options.actions.stop || !this.options.isLive()) {
          this.send({ type: 'notice', level: 'info', message: 'This run is not running any more, so there is nothing to stop.' });
          return;
        }
        this.options.actions.stop();
        return;
      case 'export':
        await this.options.actions.exportAs(message.format);
        return;
      case 'continueRun':
        if (!this.options.actions.continueRun || this.options.isLive()) {
          this.send({ type: 'notice', level: 'info', message: this.options.isLive() ? 'The run is still going: continue it once it has ended.' : 'This run has no recorded file to continue from.' });
          return;
        }
        await this.options.actions.continueRun(message.fork);
        return;
      case 'runUserCell': {
        const actions = this.options.actions.userCell;
        if (!actions) throw new Error('Running your own cells is not available in this view.');
        await actions.run(message.code);
        return;
      }
      case 'stopUserCell':
        this.options.actions.userCell?.stop();
        return;
      case 'openReference': {
        const run = this.index.run(message.runId);
        const reference = run?.references?.[message.index];
        if (!run || !reference) throw new Error(`No reference ${message.index + 1} in run ${message.runId}.`);
        if (!this.options.actions.openReference) throw new Error('Opening a reference is not available here.');
        await this.options.actions.openReference(reference, this.options.root());
        return;
      }
      case 'copy': {
        const text = this.index.text(message.ref);
        if (text === undefined) throw new Error(`Nothing to copy: ${message.ref.kind} of run ${message.ref.runId} was not found.`);
        await this.options.actions.copyText(text);
        return;
      }
      case 'openParent': {
        const parent = this.options.root().continuedFrom?.trajectory;
        if (!parent) throw new Error('This run does not say which recorded file it came from.');
        if (!this.options.actions.openParent) throw new Error('Opening the earlier run is not available here.');
        await this.options.actions.openParent(parent);
        return;
      }
      case 'askAgain':
        if (!this.options.actions.askAgain) throw new Error('Asking again is not available here.');
        await this.options.actions.askAgain(this.options.root().question);
        return;
      case 'setPrice': {
        if (!this.options.actions.setPrice) throw new Error('Setting a price is not available here.');
        const unpriced = this.header(this.options.root()).pricing.unpriced;
        await this.options.actions.setPrice(unpriced, message.model !== undefined && unpriced.includes(message.model) ? message.model : undefined);
        return;
      }
      case 'openSetting':
        await this.options.actions.openSetting?.(message.setting);
        return;
    }
  }

  /**
   * The state to carry in the page's HTML, so the first screen renders without waiting for the
   * handshake's round trip. The page echoes `stamp` in `ready`; if nothing changed by then, the
   * host does not send the same state again.
   */
  embeddedState(): { stamp: number; state: StateMessage } {
    this.embeddedStamp = this.version;
    return { stamp: this.version, state: this.stateMessage() };
  }

  private onReady(message: MessageOf<WebviewToHost, 'ready'>): void {
    if (message.protocolVersion !== TRAJECTORY_PROTOCOL_VERSION) {
      this.options.log?.(`trajectory view speaks protocol ${message.protocolVersion}, host ${TRAJECTORY_PROTOCOL_VERSION}`);
    }
    // The full state supersedes queued updates; notices and answers to requests still matter.
    const notices = this.queue.filter((m) => m.type === 'notice' || 'requestId' in m);
    this.queue = [];
    this.ready = true;
    const upToDate = message.embedded !== undefined && message.embedded === this.embeddedStamp && message.embedded === this.version;
    if (!upToDate) this.options.post(this.stateMessage());
    for (const notice of notices) this.options.post(notice);
    const userCell = this.options.actions.userCell;
    if (userCell) this.options.post({ type: 'userCell', state: userCell.state() });
  }

  private stateMessage(): StateMessage {
    const root = this.options.root();
    const live = this.options.isLive();
    const lastPageStart = Math.max(0, Math.floor((root.turns.length - 1) / PAGE.turnsPerPage) * PAGE.turnsPerPage);
    const firstTurns = [];
    for (let i = live ? lastPageStart : 0; i < Math.min(root.turns.length, (live ? lastPageStart : 0) + PAGE.turnsPerPage); i++) {
      const view = turnView(root, i);
      if (view) firstTurns.push(view);
    }
    return {
      type: 'state',
      header: this.header(root),
      outline: outlineOf(root, 0, Math.max(PAGE.outlineFirstChunk, live ? root.turns.length : 0)),
      turnCount: root.turns.length,
      live,
      firstTurns,
    };
  }

  private onRequestTurns(message: MessageOf<WebviewToHost, 'requestTurns'>): void {
    const run = this.index.run(message.runId);
    if (!run) return this.fail(message.requestId, `No run ${message.runId} in this trajectory.`);
    const end = Math.min(run.turns.length, message.from + Math.min(message.count, PAGE.turnsPerPage * 4));
    const turns = [];
    for (let i = message.from; i < end; i++) {
      const view = turnView(run, i);
      if (view) turns.push(view);
    }
    this.send({ type: 'turns', requestId: message.requestId, runId: run.runId, turns });
  }

  private onRequestRun(message: MessageOf<WebviewToHost, 'requestRun'>): void {
    const run = this.index.run(message.runId);
    if (!run) return this.fail(message.requestId, `No run ${message.runId} in this trajectory.`);
    this.send({ type: 'run', requestId: message.requestId, header: this.header(run), outline: outlineOf(run) });
  }

  private onRequestText(message: MessageOf<WebviewToHost, 'requestText'>): void {
    const text = this.index.text(message.ref);
    if (text === undefined) return this.fail(message.requestId, `No ${message.ref.kind} text for that item in this trajectory.`);
    const length = Math.min(message.length, PAGE.textPageChars);
    this.send({
      type: 'text',
      requestId: message.requestId,
      ref: message.ref,
      offset: message.offset,
      text: text.slice(message.offset, message.offset + length),
      totalChars: text.length,
    });
  }

  private fail(requestId: number, message: string): void {
    this.send({ type: 'requestFailed', requestId, message });
  }
}
