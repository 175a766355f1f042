// Search across code, outputs and sub-call text with filters (errors only, model, depth). The host
// searches its full tree; results list the hits, and picking one jumps to its turn and item.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { SearchFilters, SearchHit } from '../../src/shared/trajectoryProtocol';
import { clear, el, iconButton } from '../common/dom';
import { buildFilters, describeResults, sameSearch, type SearchInput } from './searchModel';
import type { RenderContext } from './renderContext';

const WHERE_WORDS: Record<SearchHit['where'], string> = {
  reasoning: 'reasoning',
  code: 'code',
  stdout: 'output',
  stderr: 'error output',
  error: 'error',
  prompt: 'sub-call prompt',
  response: 'sub-call response',
  turn: 'turn',
};

const LEAD_CHARS = 24;

/** The excerpt with the matched text marked (text nodes and a <mark>, never markup from the text). */
function excerptView(hit: Pick<SearchHit, 'excerpt' | 'match'>): HTMLElement {
  const m = hit.match;
  if (!m || m.length === 0) return el('span', { className: 'hit-excerpt', text: hit.excerpt });
  // A short lead, so the match is in sight on one line however narrow the list is.
  const leadStart = Math.max(0, m.start - LEAD_CHARS);
  const lead = `${leadStart > 0 ? '…' : ''}${hit.excerpt.slice(leadStart, m.start)}`;
  return el('span', { className: 'hit-excerpt' }, [
    lead,
    el('mark', { className: 'hit-match', text: hit.excerpt.slice(m.start, m.start + m.length) }),
    hit.excerpt.slice(m.start + m.length),
  ]);
}

interface ValueElement extends HTMLElement {
  value: string;
}
interface CheckElement extends HTMLElement {
  checked: boolean;
}

export class SearchPanel {
  readonly element: HTMLElement;
  private readonly field: ValueElement;
  private readonly errorsOnly: CheckElement;
  private readonly model: ValueElement;
  private readonly depth: ValueElement;
  private readonly results: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: SearchInput | undefined;
  private generation = 0;

  constructor(
    private readonly ctx: RenderContext,
    private readonly onPick: (hit: SearchHit, query: string) => void,
  ) {
    this.field = el('vscode-textfield' as 'div', { attrs: { placeholder: 'Search code, outputs, prompts, responses', 'aria-label': 'Search', id: 'search-field' } }) as unknown as ValueElement;
    this.errorsOnly = el('vscode-checkbox' as 'div', { attrs: { label: 'Errors only', id: 'filter-errors' } }) as unknown as CheckElement;
    this.model = el('vscode-single-select' as 'div', { attrs: { 'aria-label': 'Filter by model', id: 'filter-model' } }) as unknown as ValueElement;
    this.depth = el('vscode-single-select' as 'div', { attrs: { 'aria-label': 'Filter by depth', id: 'filter-depth' } }) as unknown as ValueElement;
    this.results = el('div', { className: 'search-results', attrs: { role: 'listbox', 'aria-label': 'Search results' } });
    this.results.hidden = true;
    // In a narrow group the filters fold away behind a button, so the search box keeps one row.
    const filters = el('div', { className: 'search-filters', attrs: { id: 'search-filters' } }, [this.errorsOnly, this.model, this.depth]);
    const toggle = iconButton('filter', 'Show search filters', () => {
      const open = this.element.classList.toggle('filters-open');
      toggle.setAttribute('aria-expanded', String(open));
    });
    toggle.classList.add('filters-toggle');
    toggle.setAttribute('aria-controls', 'search-filters');
    toggle.setAttribute('aria-expanded', 'false');
    this.element = el('div', { className: 'search' }, [el('div', { className: 'search-row' }, [this.field, toggle, filters]), this.results]);
    for (const [target, type] of [[this.field, 'input'], [this.errorsOnly, 'change'], [this.model, 'change'], [this.depth, 'change']] as const) {
      target.addEventListener(type, () => this.schedule());
    }
    this.field.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Escape') this.close();
    });
    this.setChoices([], 0);
  }

  focus(): void {
    this.field.focus();
  }

  /** The models and depths offered by the filters. */
  setChoices(models: string[], maxDepth: number): void {
    const key = `${models.join('\u0000')}|${maxDepth}`;
    if (this.element.dataset.choices === key) return;
    this.element.dataset.choices = key;
    const option = (value: string, label: string): HTMLElement => el('vscode-option' as 'div', { attrs: { value }, text: label });
    const keepModel = this.model.value;
    const keepDepth = this.depth.value;
    clear(this.model);
    this.model.appendChild(option('', 'Any model'));
    for (const m of models) this.model.appendChild(option(m, m));
    clear(this.depth);
    this.depth.appendChild(option('', 'Any depth'));
    for (let d = 1; d <= maxDepth; d++) this.depth.appendChild(option(String(d), `Depth ${d}`));
    if (keepModel) this.model.value = keepModel;
    if (keepDepth) this.depth.value = keepDepth;
  }

  private input(): SearchInput {
    return { query: this.field.value ?? '', errorsOnly: Boolean(this.errorsOnly.checked), model: this.model.value ?? '', depth: this.depth.value ?? '' };
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), 200);
  }

  private close(): void {
    this.results.hidden = true;
  }

  private async run(): Promise<void> {
    const input = this.input();
    if (this.last && sameSearch(this.last, input) && !this.results.hidden) return;
    this.last = input;
    const filters: SearchFilters | undefined = buildFilters(input);
    const generation = ++this.generation;
    if (!filters) {
      this.close();
      return;
    }
    try {
      const answer = await this.ctx.bridge.request({ type: 'search', query: input.query, filters });
      if (answer.type !== 'searchResults' || generation !== this.generation) return;
      this.show(answer.hits, answer.total, answer.truncated);
    } catch (error) {
      this.ctx.notify('error', `Search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private show(hits: SearchHit[], total: number, truncated: boolean): void {
    clear(this.results);
    this.results.hidden = false;
    this.results.appendChild(el('div', { className: 'search-summary', text: describeResults(total, truncated, hits.length) }));
    const frag = document.createDocumentFragment();
    const query = this.last?.query ?? '';
    for (const hit of hits) {
      const item = el('button', { className: 'search-hit', attrs: { type: 'button', role: 'option' } }, [
        el('span', { className: 'hit-where', text: `Turn ${hit.rootTurnIndex + 1} · ${WHERE_WORDS[hit.where]}` }),
        excerptView(hit),
      ]);
      item.addEventListener('click', () => {
        this.close();
        this.onPick(hit, query);
      });
      frag.appendChild(item);
    }
    this.results.appendChild(frag);
  }
}
