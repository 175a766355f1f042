// The outline of turns beside the list: one entry per turn with its markers (errors, final), built
// in chunks after the first cells are on screen so a 5,000-turn outline never delays them.
import { visibleControls } from '../../src/shared/text/untrustedText';
import type { TurnSummary } from '../../src/shared/trajectoryProtocol';
import { el } from '../common/dom';
import { outlineLabel, outlineTitle } from './outlineModel';

const CHUNK = 500;

/** Runs `fn` when the page is idle (after the first cells have painted), or soon. */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 500 });
  else setTimeout(fn, 50);
}

export class OutlinePanel {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly items: HTMLElement[] = [];
  /** What each built entry shows, for its tooltip. */
  private readonly summaries: TurnSummary[] = [];
  private pending: TurnSummary[] = [];
  /** The widest turn number yet, in digits: the number column is as wide for every entry. */
  private numberWidth = 0;
  private building = false;

  constructor(
    private readonly onPick: (index: number) => void,
    /** Whether the run's models are all local (outline titles word its costs). */
    private readonly local: () => boolean = () => false,
  ) {
    this.list = el('ol', { className: 'outline-list' });
    this.element = el('nav', { className: 'outline', attrs: { 'aria-label': 'Outline of turns' } }, [el('div', { className: 'outline-title', text: 'Turns' }), this.list]);
    this.list.addEventListener('click', (event) => {
      const item = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (item) this.onPick(Number(item.dataset.index));
    });
    // Tooltips are written when the pointer or the focus reaches an entry: three counts, a cost and a
    // duration for each of 5,000 entries is work nobody may ever look at.
    const describe = (event: Event): void => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('.outline-item');
      const summary = this.summaries[Number(button?.parentElement?.dataset.index)];
      if (button && summary && !button.title) button.title = outlineTitle(summary, this.local());
    };
    this.list.addEventListener('pointerover', describe);
    this.list.addEventListener('focusin', describe);
  }

  /** Sets the entries from `from` on; building happens in idle chunks. */
  update(from: number, summaries: TurnSummary[]): void {
    this.pending = this.pending.filter((s) => s.index < from).concat(summaries);
    if (!this.building) {
      this.building = true;
      whenIdle(() => this.buildChunk());
    }
  }

  highlight(index: number): void {
    this.list.querySelector('.current')?.classList.remove('current');
    const item = this.items[index];
    if (item) {
      item.classList.add('current');
      item.scrollIntoView({ block: 'nearest' });
    }
  }

  private buildChunk(): void {
    const chunk = this.pending.splice(0, CHUNK);
    const frag = document.createDocumentFragment();
    for (const summary of chunk) {
      const label = outlineLabel(summary);
      let item = this.items[summary.index];
      if (!item) {
        item = el('li', {}, [el('button', { className: 'outline-item', attrs: { type: 'button' } })]);
        item.dataset.index = String(summary.index);
        this.items[summary.index] = item;
        frag.appendChild(item);
      }
      this.summaries[summary.index] = summary;
      // The number is drawn by CSS from data-number: one element per entry, not three, since a
      // 5,000-turn outline is most of the page's DOM.
      const button = item.firstElementChild as HTMLElement;
      button.textContent = visibleControls(label.text);
      button.dataset.number = label.number;
      button.removeAttribute('title');
      button.setAttribute('aria-label', label.spoken);
      item.className = label.classes.join(' ');
      this.numberWidth = Math.max(this.numberWidth, label.number.length);
    }
    this.list.style.setProperty('--outline-number-width', `${Math.max(3, this.numberWidth)}ch`);
    this.list.appendChild(frag);
    if (this.pending.length) whenIdle(() => this.buildChunk());
    else this.building = false;
  }
}
