// The scrolling list of root turns. Every turn has a cheap placeholder slot (content-visibility keeps
// off-screen slots out of layout and paint); bodies are paged from the host as slots come near the
// viewport and dropped again far away, so a 5,000-turn run holds only a few hundred turns of DOM.
import { visibleControls } from '../../src/shared/text/untrustedText';
import { PAGE, type RunHeaderView, type TurnSummary, type TurnView } from '../../src/shared/trajectoryProtocol';
import { el } from '../common/dom';
import { renderStreaming } from '../common/streamingView';
import { FollowMode } from './followMode';
import { TurnPaging } from './turnPaging';
import { timelineRow } from './timelineRow';
import { placeholderText } from './outlineModel';
import { slotRange } from './slotRange';
import { renderTurn } from './turnView';
import type { RenderContext } from './renderContext';

export type ListMode = 'cells' | 'timeline';
type HeldWork = 'schedule' | 'drain' | 'slots';

/** Loaded pages kept at most; beyond this the farthest are turned back into placeholders. */
const MAX_LOADED_PAGES = 24;
const KEEP_NEAR_PAGES = 3;
/** Placeholder slots created per task. */
const SLOT_CHUNK = 400;
/** Milliseconds of rendering per frame before the rest waits for the next frame. */
const RENDER_BUDGET_MS = 8;
/** Turns this far above or below the viewport are loaded too. */
const VIEW_MARGIN_PX = 800;

export class TurnList {
  readonly element: HTMLElement;
  readonly follow = new FollowMode();
  private readonly slots: HTMLElement[] = [];
  private outline: TurnSummary[] = [];
  private readonly views = new Map<number, TurnView>();
  private readonly streaming = new Map<number, string>();
  private paging = new TurnPaging(PAGE.turnsPerPage);
  private scheduled = false;
  private mode: ListMode = 'cells';
  private onRendered: ((index: number) => void) | undefined;
  private slotTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingScroll: { top: number; turnCount: number } | undefined;
  private readonly renderQueue = new Set<number>();
  private lastRange: [number, number] = [0, 0];
  /** Only a live run follows its newest turn; a file being read does not pull the view down. */
  followEnabled = false;
  private draining = false;
  /**
   * Until the first turns are on screen, work that can wait does: finding the range in view forces a
   * layout of the whole page, more turns and more slots make that layout longer, and all of it ran
   * before the first paint (about 100 ms of a 5,000-turn file's first screen).
   */
  private firstPaint: 'before' | 'waiting' | 'done' = 'before';
  private readonly heldUntilPaint: Record<HeldWork, boolean> = { schedule: false, drain: false, slots: false };

  constructor(
    private readonly ctx: RenderContext,
    private readonly scroller: HTMLElement,
    private readonly runId: () => string,
    private readonly header: () => RunHeaderView,
  ) {
    this.element = el('div', { className: 'turn-list', attrs: { role: 'feed', 'aria-label': 'Turns' } });
    // The range in view is found by binary search over slot offsets on scroll: an IntersectionObserver
    // over 5,000 slots costs more per frame than the rendering it saves.
    scroller.addEventListener(
      'scroll',
      () => {
        this.follow.onScroll(scroller);
        this.schedule();
      },
      { passive: true },
    );
  }

  get count(): number {
    return this.outline.length;
  }

  /** Called once a turn's body is on screen (search and outline jumps wait for it). */
  whenRendered(listener: (index: number) => void): void {
    this.onRendered = listener;
  }

  setMode(mode: ListMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    for (const index of this.views.keys()) this.renderQueue.add(index);
    this.drainSoon();
  }

  /**
   * Replaces the outline from `from` on. Slots are created in chunks: the first right away so the
   * first cells render at once, the rest in later tasks so 5,000 turns never block a frame.
   */
  setOutline(from: number, summaries: TurnSummary[]): void {
    this.outline.length = Math.min(this.outline.length, from);
    this.outline.push(...summaries);
    for (const summary of summaries) {
      const slot = this.slots[summary.index];
      if (!slot) continue;
      slot.classList.toggle('has-error', summary.errors > 0);
      if (!this.views.has(summary.index)) this.placeholder(slot, summary);
    }
    this.createSlots(SLOT_CHUNK);
  }

  /** Creates up to `count` more slots now, and schedules the rest. */
  private createSlots(count: number): void {
    const end = Math.min(this.outline.length, this.slots.length + count);
    if (end <= this.slots.length) return;
    const frag = document.createDocumentFragment();
    for (let index = this.slots.length; index < end; index++) {
      const summary = this.outline[index]!;
      const slot = el('div', { className: summary.errors > 0 ? 'turn-slot has-error' : 'turn-slot', attrs: { tabindex: '0', id: `turn-${index}` } });
      slot.dataset.index = String(index);
      this.slots[index] = slot;
      this.placeholder(slot, summary);
      frag.appendChild(slot);
    }
    this.element.appendChild(frag);
    this.applyPendingScroll();
    this.schedule();
    if (this.slots.length < this.outline.length && !this.heldUntilFirstPaint('slots') && !this.slotTimer) {
      this.slotTimer = setTimeout(() => {
        this.slotTimer = undefined;
        this.createSlots(SLOT_CHUNK);
      }, 0);
    }
  }

  /**
   * The view shows another run now (a follow-up, or the run a starting view waited for): every slot,
   * body, page and streamed text of the one before goes, so none of its turns shows under the new one.
   */
  reset(): void {
    for (const slot of this.slots) slot.remove();
    this.slots.length = 0;
    this.outline = [];
    this.views.clear();
    this.streaming.clear();
    this.renderQueue.clear();
    this.paging = new TurnPaging(PAGE.turnsPerPage);
    clearTimeout(this.slotTimer);
    this.slotTimer = undefined;
    this.pendingScroll = undefined;
    this.lastRange = [0, 0];
  }

  /** Live: forget changed turns' bodies and re-request those in view. */
  invalidate(indices: number[]): void {
    this.paging.invalidate(indices);
    this.schedule();
  }

  setStreaming(index: number, text: string): void {
    this.streaming.set(index, text);
    const slot = this.slots[index];
    if (!slot) return;
    // The model has started writing: it is no longer "thinking", and its text goes inside its turn.
    slot.querySelector('[data-testid="thinking"]')?.remove();
    let box = slot.querySelector<HTMLElement>('.streaming');
    if (!box) {
      box = el('div', { className: 'streaming', attrs: { 'aria-live': 'polite', 'data-testid': 'streaming' } });
      (slot.querySelector('article.turn') ?? slot).appendChild(box);
    }
    renderStreaming(box, text);
    this.keepFollowing();
  }

  /** Scrolls to `top` once `turnCount` slots exist (a re-created view restoring its position). */
  restoreScroll(top: number, turnCount: number): void {
    this.pendingScroll = { top, turnCount };
    this.applyPendingScroll();
  }

  private applyPendingScroll(): void {
    if (!this.pendingScroll || this.slots.length < this.pendingScroll.turnCount) return;
    this.scroller.scrollTop = this.pendingScroll.top;
    this.pendingScroll = undefined;
    this.schedule();
  }

  /**
   * Shows the turns that came with the state at once (the first two synchronously, so the first cell
   * paints with the header), then requests what else is in view.
   */
  start(firstTurns: TurnView[], firstIndex = 0): void {
    for (const view of firstTurns) {
      this.paging.loaded(this.paging.pageOf(view.index));
      this.views.set(view.index, view);
      this.renderQueue.add(view.index);
    }
    for (const view of firstTurns.slice(0, 2)) {
      this.renderQueue.delete(view.index);
      this.fill(view.index, view);
    }
    this.drainSoon();
    this.request(firstIndex, firstIndex + PAGE.turnsPerPage - 1);
  }

  /** True when `work` must wait for the first paint; it then runs once that frame is on screen. */
  private heldUntilFirstPaint(work: HeldWork): boolean {
    if (this.firstPaint === 'done') return false;
    this.heldUntilPaint[work] = true;
    if (this.firstPaint === 'waiting') return true;
    this.firstPaint = 'waiting';
    // A task queued from the next frame's callbacks runs after that frame has been painted.
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.firstPaint = 'done';
        const held = { ...this.heldUntilPaint };
        if (held.slots) this.createSlots(SLOT_CHUNK);
        if (held.schedule) this.schedule();
        if (held.drain) this.drainSoon();
      }, 0),
    );
    return true;
  }

  scrollToTurn(index: number, then?: (slot: HTMLElement) => void): void {
    if (index >= this.slots.length) this.createSlots(index + 1 - this.slots.length);
    const slot = this.slots[index];
    if (!slot) return;
    this.follow.stop();
    slot.scrollIntoView({ block: 'start' });
    this.request(index, index);
    if (then) {
      if (slot.classList.contains('loaded') && !this.renderQueue.has(index)) then(slot);
      else {
        const previous = this.onRendered;
        this.onRendered = (i) => {
          previous?.(i);
          if (i === index) {
            this.onRendered = previous;
            then(slot);
          }
        };
      }
    }
  }

  /** Keeps the newest turn in view while following. */
  keepFollowing(): void {
    if (!this.followEnabled || !this.follow.active) return;
    this.follow.markProgrammaticScroll();
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private placeholder(slot: HTMLElement, summary: TurnSummary): void {
    slot.classList.remove('loaded');
    slot.style.removeProperty('height');
    // One text node: thousands of placeholders must stay cheap to create and lay out.
    slot.textContent = visibleControls(placeholderText(summary));
    const text = this.streaming.get(summary.index);
    if (text !== undefined) {
      const box = el('div', { className: 'streaming' });
      renderStreaming(box, text);
      slot.appendChild(box);
    }
  }

  /** Renders queued turns in frame-sized slices, nearest to the viewport first, so scrolling stays smooth. */
  private drainSoon(): void {
    if (this.heldUntilFirstPaint('drain')) return;
    if (this.draining) return;
    this.draining = true;
    requestAnimationFrame(() => this.drain());
  }

  private drain(): void {
    const started = performance.now();
    // The range found at the last scroll: measuring again here would force a second layout per frame.
    const range = this.lastRange;
    const distance = (i: number): number => (i < range[0] ? range[0] - i : i > range[1] ? i - range[1] : 0);
    const order = [...this.renderQueue].sort((a, b) => distance(a) - distance(b));
    for (const index of order) {
      if (performance.now() - started > RENDER_BUDGET_MS) break;
      this.renderQueue.delete(index);
      const view = this.views.get(index);
      if (view) this.fill(index, view);
    }
    this.keepFollowing();
    this.draining = false;
    if (this.renderQueue.size) this.drainSoon();
  }

  private fill(index: number, view: TurnView): void {
    const slot = this.slots[index];
    if (!slot) return;
    slot.textContent = '';
    slot.classList.add('loaded');
    slot.style.removeProperty('height');
    const summary = this.outline[index];
    if (this.mode === 'timeline' && summary) slot.appendChild(timelineRow(view, summary, this.header(), Date.now()));
    else slot.appendChild(renderTurn(this.ctx, view));
    if (view.streaming === undefined) this.streaming.delete(index);
    this.onRendered?.(index);
  }

  private schedule(): void {
    if (this.heldUntilFirstPaint('schedule')) return;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      const range = this.rangeInView();
      if (!range) return;
      this.lastRange = range;
      this.request(range[0], range[1]);
      this.evict(range[0], range[1]);
    });
  }

  private rangeInView(): [number, number] | undefined {
    return slotRange(this.slots, this.scroller.scrollTop - VIEW_MARGIN_PX, this.scroller.scrollTop + this.scroller.clientHeight + VIEW_MARGIN_PX);
  }

  private request(from: number, to: number): void {
    for (const page of this.paging.take(from, to, this.outline.length)) void this.loadPage(page);
  }

  private async loadPage(page: number): Promise<void> {
    const from = page * PAGE.turnsPerPage;
    try {
      const answer = await this.ctx.bridge.request({ type: 'requestTurns', runId: this.runId(), from, count: PAGE.turnsPerPage });
      // An answer about the run shown before (the view moved on to another run meanwhile) is dropped.
      if (answer.type !== 'turns' || answer.runId !== this.runId() || this.paging.state(page) !== 'pending') return;
      this.paging.loaded(page);
      for (const view of answer.turns) {
        this.views.set(view.index, view);
        this.renderQueue.add(view.index);
      }
      this.drainSoon();
    } catch (error) {
      this.paging.forget(page);
      this.ctx.notify('error', `Could not load turns ${from + 1}–${from + PAGE.turnsPerPage}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private evict(lo: number, hi: number): void {
    const candidates = this.paging.evictable(lo, hi, KEEP_NEAR_PAGES);
    let loadedPages = 0;
    for (let p = 0; p <= this.paging.pageOf(this.slots.length - 1); p++) if (this.paging.state(p) === 'loaded') loadedPages++;
    const evicted: number[] = [];
    for (const page of candidates) {
      if (loadedPages <= MAX_LOADED_PAGES) break;
      loadedPages--;
      this.paging.forget(page);
      for (let i = page * PAGE.turnsPerPage; i < Math.min(this.outline.length, (page + 1) * PAGE.turnsPerPage); i++) evicted.push(i);
    }
    // Read every height before changing anything, so the layout is computed once, not per slot.
    const heights = evicted.map((i) => this.slots[i]?.offsetHeight ?? 0);
    evicted.forEach((i, n) => {
      const slot = this.slots[i];
      const summary = this.outline[i];
      if (!slot || !summary) return;
      this.views.delete(i);
      this.renderQueue.delete(i);
      this.placeholder(slot, summary);
      // Keep the measured height so the scroll position does not jump.
      if (heights[n]! > 0) slot.style.height = `${heights[n]}px`;
    });
  }
}
