// The question box: target picker, text area (Enter sends, Shift+Enter is a new line), Send.
// Created once, so typing is never interrupted by state updates; only its options and enabled
// state follow the host's state.
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { ChatTarget, SidebarState } from '../../src/shared/sidebarState';
import { el, vscodeButton } from '../common/dom';
import type { HostChannel } from './hostChannel';

const PICK_FOLDER = '__pick_folder__';

type ValueElement = HTMLElement & { value: string; disabled: boolean };

export function targetKey(t: ChatTarget): string {
  return `${t.kind}|${t.uri ?? ''}`;
}

export class Composer {
  readonly element: HTMLElement;
  private readonly select: ValueElement;
  private readonly textarea: ValueElement;
  private readonly send: HTMLElement;
  private targets: ChatTarget[] = [];
  private state: SidebarState | undefined;
  /** The last draft put in the box, so a re-sent state does not overwrite what the user typed since. */
  private draftId = 0;
  /**
   * Enter was pressed before the host's first state arrived. The view's focus command puts the caret
   * here at once, and on a loaded machine a person can type and send before the host has answered;
   * the question is sent when the state comes, never dropped.
   */
  private sendWhenReady = false;

  constructor(private readonly host: HostChannel) {
    this.select = el('vscode-single-select', { attrs: { 'aria-label': 'Ask about', 'data-testid': 'target-select' } }) as ValueElement;
    this.select.addEventListener('change', () => this.onTargetChange());
    this.textarea = el('vscode-textarea', { attrs: { placeholder: 'Ask about the code… (Enter to send, Shift+Enter for a new line)', 'aria-label': 'Question', rows: '3', resize: 'vertical', 'data-testid': 'question' } }) as ValueElement;
    this.textarea.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    this.send = vscodeButton('Ask', () => this.submit(), { icon: 'send', testId: 'send' });
    this.element = el('form', { className: 'composer', attrs: { 'aria-label': 'Ask a question' } }, [el('label', { className: 'target-row' }, ['About ', this.select]), this.textarea, el('div', { className: 'composer-actions' }, [this.send])]);
    this.element.addEventListener('submit', (e) => e.preventDefault());
  }

  update(state: SidebarState): void {
    this.state = state;
    const keys = state.targets.map(targetKey).join(';');
    if (keys !== this.targets.map(targetKey).join(';') || this.select.value !== targetKey(state.selectedTarget)) {
      this.targets = state.targets;
      this.select.replaceChildren(
        ...state.targets.map((t) => el('vscode-option', { attrs: { value: targetKey(t), selected: targetKey(t) === targetKey(state.selectedTarget) }, text: t.kind === 'workspace' ? 'Workspace' : `${t.kind === 'file' ? 'File' : 'Folder'}: ${t.label}` })),
        el('vscode-option', { attrs: { value: PICK_FOLDER }, text: 'Choose a folder…' }),
      );
      this.select.value = targetKey(state.selectedTarget);
    }
    if (state.draft && state.draft.id !== this.draftId) {
      this.draftId = state.draft.id;
      // What the user already typed and sent wins over a draft that was waiting for the view.
      if (this.sendWhenReady) return this.followBusyAndTrust(state);
      this.textarea.value = state.draft.question;
      // After the render that may have moved focus elsewhere.
      requestAnimationFrame(() => this.focus());
    }
    this.followBusyAndTrust(state);
  }

  private followBusyAndTrust(state: SidebarState): void {
    const disabled = state.busy || !state.trusted;
    this.send.toggleAttribute('disabled', disabled);
    this.textarea.title = !state.trusted ? 'Disabled: the workspace is not trusted' : state.busy ? 'Wait for the current question, or stop it' : '';
    if (!this.sendWhenReady) return;
    this.sendWhenReady = false;
    // Busy or untrusted: the question stays in the box, and the title above says why.
    this.submit();
  }

  focus(): void {
    // The text area draws its inner <textarea> after it is attached; focus it once that is there.
    const pending = (this.textarea as ValueElement & { updateComplete?: Promise<unknown> }).updateComplete;
    if (pending) void pending.then(() => this.textarea.focus());
    else this.textarea.focus();
  }

  private onTargetChange(): void {
    const value = this.select.value;
    if (value === PICK_FOLDER) {
      if (this.state) this.select.value = targetKey(this.state.selectedTarget);
      this.host.post({ type: 'chat.pickFolder' });
      return;
    }
    const target = this.targets.find((t) => targetKey(t) === value);
    if (target) this.host.post({ type: 'chat.selectTarget', target });
  }

  private submit(): void {
    const question = this.textarea.value.trim();
    if (!question) return;
    if (!this.state) {
      this.sendWhenReady = true;
      this.textarea.title = 'Sent as soon as the chat has loaded';
      return;
    }
    if (this.state.busy || !this.state.trusted) return;
    this.host.post({ type: 'chat.ask', question, target: this.state.selectedTarget });
    this.textarea.value = '';
  }
}
