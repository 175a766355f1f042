// Composes the trajectory view: toolbar (search, filters, timeline, outline, jump, export), header,
// turn list and outline, and wires them to the host's pushed messages.
import { PAGE, type HostToWebview, type MessageOf, type RunHeaderView, type SearchHit } from '../../src/shared/trajectoryProtocol';
import { el, iconButton, keepingFocus } from '../common/dom';
import { headerView } from './headerView';
import type { HostBridge } from './hostBridge';
import { nextFocusable } from './keyboardNav';
import { OutlinePanel } from './outlinePanel';
import { SearchPanel } from './searchPanel';
import { TurnList, type ListMode } from './turnList';
import { OutlineSync } from './outlineSync';
import { renderTurn } from './turnView';
import type { RenderContext } from './renderContext';
import { clearSearchHighlight, highlightMatch } from './searchHighlight';
import { TimelineLegend } from './timelineLegend';
import { watchWidth, type WidthClass } from './widthMode';
import { UserCellInput } from './userCellInput';

interface SavedState {
  scrollTop: number;
  mode: ListMode;
  outlineHidden: boolean;
  /** Where the run came from: a revived live panel reopens this file. */
  source?: string;
}

export class TrajectoryApp {
  private header: RunHeaderView | undefined;
  private live = false;
  private readonly ctx: RenderContext;
  private readonly scroller: HTMLElement;
  private readonly headerSlot: HTMLElement;
  private readonly notices: HTMLElement;
  private readonly list: TurnList;
  private readonly outline: OutlinePanel;
  /** Built when the page is idle after the first cells: its web components cost time up front. */
  private search: SearchPanel | undefined;
  private readonly searchSlot: HTMLElement;
  private mode: ListMode = 'cells';
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly saved: SavedState | undefined;
  private width: WidthClass = 'wide';
  private readonly legend = new TimelineLegend();
  private readonly outlineSync: OutlineSync;
  private readonly userCell: UserCellInput;
  /** In the toolbar, not the header: the toolbar stays in sight while the list follows a run. */
  private readonly stopButton: HTMLButtonElement;
  /** The user ran a cell: the next turn it adds is scrolled to, its output in sight. */
  private revealNextTurnFrom: number | undefined;
  /** The turn of the user's cell kept in sight until its output is drawn. */
  private revealTurn: number | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly bridge: HostBridge,
  ) {
    this.saved = bridge.api.getState() as SavedState | undefined;
    this.ctx = {
      bridge,
      rootHeader: () => this.requireHeader(),
      renderTurn: (turn) => renderTurn(this.ctx, turn),
      notify: (level, message) => this.notify(level, message),
    };
    this.scroller = el('main', { className: 'scroller', attrs: { id: 'scroller', tabindex: '-1' } });
    this.headerSlot = el('div', { className: 'header-slot' });
    this.notices = el('div', { className: 'notices', attrs: { 'aria-live': 'polite' } });
    this.list = new TurnList(this.ctx, this.scroller, () => this.requireHeader().runId, () => this.requireHeader());
    this.outline = new OutlinePanel(
      (index) => {
        // In a narrow group the outline is a drawer over the turns: picking a turn closes it.
        if (this.width !== 'wide') this.root.classList.remove('outline-open');
        this.list.scrollToTurn(index, (slot) => slot.focus({ preventScroll: true }));
      },
      () => Boolean(this.header?.pricing.rootLocal && this.header.pricing.subLocal),
    );
    const list = this.list;
    const outline = this.outline;
    this.outlineSync = new OutlineSync(
      {
        get length() {
          return list.count;
        },
        set: (from, summaries) => {
          list.setOutline(from, summaries);
          outline.update(from, summaries);
        },
      },
      async (from) => {
        const runId = this.header?.runId;
        if (runId === undefined) return undefined;
        const answer = await this.bridge.request({ type: 'requestOutline', runId, from, count: PAGE.outlineChunk });
        return answer.type === 'outline' && runId === this.header?.runId ? { from: answer.from, outline: answer.outline } : undefined;
      },
    );
    this.searchSlot = el('div', { className: 'search' });
    this.scroller.append(this.headerSlot, this.legend.element, this.list.element);
    watchWidth(this.root, (mode) => {
      this.width = mode;
      if (mode === 'wide') this.root.classList.remove('outline-open');
    });
    this.stopButton = iconButton('debug-stop', 'Stop the run', () => this.bridge.post({ type: 'stop' }), 'Stop', { testId: 'stop-run' });
    this.stopButton.classList.add('stop-run');
    this.stopButton.hidden = true;
    this.userCell = new UserCellInput(bridge, () => {
      this.revealNextTurnFrom = this.list.count;
    });
    this.root.append(this.toolbar(), el('div', { className: 'body' }, [this.outline.element, this.scroller]), this.userCell.element, this.notices);
    if (this.saved?.outlineHidden) this.root.classList.add('outline-hidden');
    if (this.saved?.mode) this.setMode(this.saved.mode);
    this.scroller.addEventListener('scroll', () => this.saveSoon(), { passive: true });
    this.scroller.addEventListener('keydown', (event) => this.onKey(event));
    document.addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        this.ensureSearch().focus();
      }
    });
    bridge.on('state', (m) => this.onState(m));
    bridge.on('update', (m) => this.onUpdate(m));

    bridge.on('streaming', (m) => {
      if (m.runId === this.header?.runId) this.list.setStreaming(m.turnIndex, m.text);
    });
    bridge.on('notice', (m) => this.notify(m.level, m.message));
    bridge.on('userCell', (m) => this.userCell.setState(m.state));
  }

  private ensureSearch(): SearchPanel {
    if (!this.search) {
      this.search = new SearchPanel(this.ctx, (hit, query) => this.jumpToHit(hit, query));
      this.searchSlot.replaceWith(this.search.element);
      if (this.header) this.search.setChoices(this.header.models, this.header.maxDepth);
    }
    return this.search;
  }

  private requireHeader(): RunHeaderView {
    if (!this.header) throw new Error('the run header has not arrived yet');
    return this.header;
  }

  private toolbar(): HTMLElement {
    const modeButton = iconButton('graph', 'Toggle timeline', () => this.setMode(this.mode === 'cells' ? 'timeline' : 'cells'), 'Timeline');
    modeButton.id = 'toggle-timeline';
    return el('div', { className: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Trajectory tools' } }, [
      iconButton('list-tree', 'Toggle outline', () => {
        if (this.width !== 'wide') {
          this.root.classList.toggle('outline-open');
          return;
        }
        this.root.classList.toggle('outline-hidden');
        this.saveSoon();
      }),
      modeButton,
      iconButton('arrow-down', 'Jump to final answer', () => this.jumpToAnswer(), 'Answer'),
      iconButton('notebook', 'Export as .ipynb', () => this.bridge.post({ type: 'export', format: 'ipynb' }), '.ipynb'),
      iconButton('markdown', 'Export as Markdown', () => this.bridge.post({ type: 'export', format: 'markdown' }), 'Markdown'),
      iconButton('copy', 'Copy answer', () => {
        if (this.header?.answer) this.bridge.post({ type: 'copy', ref: { kind: 'answer', runId: this.header.runId } });
        else this.notify('info', 'This run has no answer yet.');
      }, 'Copy answer'),
      this.searchSlot,
      this.stopButton,
    ]);
  }

  private setMode(mode: ListMode): void {
    this.mode = mode;
    this.root.classList.toggle('timeline-mode', mode === 'timeline');
    this.legend.show(mode === 'timeline' ? this.header : undefined);
    this.list.setMode(mode);
    this.saveSoon();
  }

  private renderHeader(): void {
    const header = this.requireHeader();
    this.stopButton.hidden = !(this.live && header.status === 'running');
    // A live run re-renders its header on every tick: keep a keyboard user on the control they were on.
    keepingFocus(this.headerSlot, () => this.headerSlot.replaceChildren(headerView(this.ctx, header, this.live, Date.now())));
    this.search?.setChoices(header.models, header.maxDepth);
    if (this.mode === 'timeline') this.legend.show(header);
    document.title = `RLM: ${header.question.text.slice(0, 60)}`;
  }

  private onState(m: MessageOf<HostToWebview, 'state'>): void {
    const first = this.header === undefined;
    // Another run in the same view (the host posts its state without reloading the page).
    const another = !first && this.header!.runId !== m.header.runId;
    if (another) {
      this.revealNextTurnFrom = undefined;
      this.revealTurn = undefined;
    }
    this.header = m.header;
    if (another) this.list.reset();
    this.live = m.live;
    this.list.followEnabled = m.live;
    this.renderHeader();
    this.saveSoon();
    const filled = this.outlineSync.reset(m.outline, m.turnCount);
    if (first && this.saved && this.saved.scrollTop > 0 && this.saved.source === m.header.source) {
      // A re-created view goes back to where the user was, once the slots down to there exist.
      this.list.follow.stop();
      this.list.start(m.firstTurns);
      this.list.restoreScroll(this.saved.scrollTop, m.turnCount);
    } else {
      this.list.start(m.firstTurns, this.live ? Math.max(0, m.outline.length - PAGE.turnsPerPage) : 0);
      if (this.live) this.list.keepFollowing();
      else this.list.follow.stop();
    }
    filled.catch((error: unknown) => this.notify('error', `Could not load the outline: ${error instanceof Error ? error.message : String(error)}`));
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => this.ensureSearch(), { timeout: 1000 });
    else setTimeout(() => this.ensureSearch(), 200);
  }

  private onUpdate(m: MessageOf<HostToWebview, 'update'>): void {
    if (m.runId !== this.header?.runId) return;
    // The run just ended: its last turn may have been drawn as "thinking"; draw it as it ended.
    const ended = this.live && !m.live;
    this.header = m.header;
    this.live = m.live;
    this.list.followEnabled = m.live;
    this.renderHeader();
    this.outlineSync
      .update(m.outlineFrom, m.outline)
      .catch((error: unknown) => this.notify('error', `Could not load the outline: ${error instanceof Error ? error.message : String(error)}`));
    this.list.invalidate(ended && this.list.count > 0 ? [...m.changedTurns, this.list.count - 1] : m.changedTurns);
    this.list.keepFollowing();
    this.revealUserTurn(m.outlineFrom + m.outline.length, m.changedTurns);
  }

  /**
   * After "Run" in the cell input: the turn the user's cell adds is scrolled to, and kept in sight
   * until its output is drawn (it arrives in later updates, when the cell finishes).
   */
  private revealUserTurn(turnCount: number, changedTurns: number[]): void {
    if (this.revealNextTurnFrom !== undefined && turnCount > this.revealNextTurnFrom) {
      this.revealTurn = turnCount - 1;
      this.revealNextTurnFrom = undefined;
    } else if (this.revealTurn === undefined || !changedTurns.includes(this.revealTurn)) return;
    const index = this.revealTurn!;
    this.list.scrollToTurn(index, (slot) => {
      const cells = slot.querySelectorAll<HTMLElement>('section.cell');
      const cell = cells[cells.length - 1];
      if (!cell) return;
      const outputs = cell.querySelectorAll<HTMLElement>('.stdout, .stderr, .error-box, .muted.small');
      const output = outputs[outputs.length - 1];
      (output ?? cell).scrollIntoView({ block: 'end' });
      if (output && !cell.classList.contains('running') && this.revealTurn === index) this.revealTurn = undefined;
    });
  }

  private jumpToAnswer(): void {
    const answer = document.getElementById('final-answer');
    this.list.follow.stop();
    if (answer) {
      answer.scrollIntoView({ block: 'start' });
      answer.focus({ preventScroll: true });
      return;
    }
    this.notify('info', 'This run has no final answer yet.');
  }

  private jumpToHit(hit: SearchHit, query: string): void {
    this.outline.highlight(hit.rootTurnIndex);
    clearSearchHighlight();
    this.list.scrollToTurn(hit.rootTurnIndex, (slot) => {
      const target =
        (hit.callId && slot.querySelector<HTMLElement>(`[data-call-id="${CSS.escape(hit.callId)}"]`)) ||
        (hit.cellId && slot.querySelector<HTMLElement>(`[data-cell-id="${CSS.escape(hit.cellId)}"]`)) ||
        slot;
      for (let d = target.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
      if (target instanceof HTMLDetailsElement) target.open = true;
      target.classList.add('flash');
      setTimeout(() => target.classList.remove('flash'), 1500);
      // The matched text itself is marked, and brought into view.
      highlightMatch(target, query, this.scroller);
    });
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const active = document.activeElement as HTMLElement | null;
    if (!active || !(active.classList.contains('cell') || active.classList.contains('turn-slot'))) return;
    const next = nextFocusable(active, event.key === 'ArrowDown' ? 1 : -1);
    if (!next) return;
    event.preventDefault();
    this.list.follow.stop();
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: 'nearest' });
  }

  private notify(level: 'info' | 'error', message: string): void {
    const note = el('div', { className: `notice ${level}`, text: message, attrs: { role: level === 'error' ? 'alert' : 'status' } });
    this.notices.appendChild(note);
    setTimeout(() => note.remove(), level === 'error' ? 10_000 : 4000);
  }

  private saveSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      const state: SavedState = { scrollTop: this.scroller.scrollTop, mode: this.mode, outlineHidden: this.root.classList.contains('outline-hidden'), source: this.header?.source };
      this.bridge.api.setState(state);
    }, 200);
  }
}
