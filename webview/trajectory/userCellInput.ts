// The cell input at the bottom of the trajectory view: the user's own Python, run in the run's REPL
// (same sandbox, `context` and variables; llm_query billed as the user's). When the REPL is gone, the
// button offers to replay the run into a new one first (nothing re-billed). Ctrl/Cmd+Enter runs.
import type { UserCellState } from '../../src/shared/trajectoryProtocol';
import { el, icon } from '../common/dom';
import type { HostBridge } from './hostBridge';

export class UserCellInput {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly runButton: HTMLButtonElement;
  private readonly runLabel: HTMLElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly status: HTMLElement;
  private state: UserCellState | undefined;

  constructor(
    private readonly bridge: HostBridge,
    /** Told when a cell is sent to run, so the view can bring it into sight when it appears. */
    private readonly onRun: () => void = () => undefined,
  ) {
    this.input = el('textarea', {
      className: 'user-cell-code',
      attrs: {
        rows: '3',
        spellcheck: 'false',
        'aria-label': 'Your Python, run in this run\'s REPL',
        placeholder: 'Python in this run\'s REPL: context, the variables the run left, llm_query(…). Ctrl+Enter runs.',
        'data-testid': 'user-cell-input',
      },
    });
    this.runLabel = el('span', { text: 'Run' });
    this.runButton = el('button', { className: 'user-cell-run', attrs: { type: 'button', 'data-testid': 'user-cell-run' } }, [icon('play'), this.runLabel]);
    this.stopButton = el('button', { className: 'user-cell-stop', attrs: { type: 'button', 'data-testid': 'user-cell-stop', 'aria-label': 'Stop your cell' } }, [icon('debug-stop'), el('span', { text: 'Stop' })]);
    this.status = el('div', { className: 'user-cell-status muted small', attrs: { 'aria-live': 'polite', 'data-testid': 'user-cell-status' } });
    this.runButton.addEventListener('click', () => this.run());
    this.stopButton.addEventListener('click', () => this.bridge.post({ type: 'stopUserCell' }));
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.run();
      }
    });
    this.element = el('div', { className: 'user-cell', attrs: { role: 'form', 'aria-label': 'Run your own cell' } }, [
      el('div', { className: 'user-cell-label' }, [icon('account'), el('span', { text: 'You' })]),
      this.input,
      el('div', { className: 'user-cell-actions' }, [this.runButton, this.stopButton]),
      this.status,
    ]);
    this.element.hidden = true;
  }

  setState(state: UserCellState): void {
    this.state = state;
    this.element.hidden = false;
    const running = state.status === 'running';
    const usable = state.status === 'ready' || (state.status === 'gone' && state.replayable);
    this.runButton.disabled = !usable;
    this.stopButton.hidden = !running;
    this.input.readOnly = running;
    this.runLabel.textContent = state.status === 'gone' && state.replayable ? 'Replay and run' : 'Run';
    this.runButton.title = state.status === 'gone' && state.replayable ? 'Replay the run\'s cells in a new REPL (sub-calls from the record, nothing billed), then run yours' : 'Run in this run\'s REPL (Ctrl+Enter)';
    this.status.textContent =
      state.status === 'ready'
        ? 'Runs in this run\'s REPL; llm_query calls are billed as yours. The next follow-up sees your cells.'
        : state.status === 'running'
          ? 'Your cell is running…'
          : state.status === 'waiting'
            ? state.reason
            : `${state.reason}${state.replayable ? ' Replay and run opens a replay of it (nothing re-billed) and runs your cell there.' : ''}`;
  }

  private run(): void {
    const code = this.input.value;
    const state = this.state;
    if (!state || !code.trim()) return;
    if (state.status !== 'ready' && !(state.status === 'gone' && state.replayable)) return;
    this.onRun();
    this.bridge.post({ type: 'runUserCell', code });
    // The cell appears in the run; the box is left for the next one.
    if (state.status === 'ready') this.input.value = '';
  }
}
