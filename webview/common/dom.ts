// The one element builder of both webviews (sidebar chat and trajectory view). Text always goes in
// through text nodes, never as markup, so model and file text stays inert, and with its control
// characters made visible (`\x1b]8;;http://…`): a terminal hyperlink or colour code from a cell's
// output is shown as the text it is, never dropped silently or turned into anything else. Every clickable thing is a
// real <button> (or vscode-button), never a link dressed up with role=button.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { visibleControls } from '../../src/shared/text/untrustedText';

type Child = Node | string | null | undefined | false;

interface ElOptions {
  className?: string;
  text?: string;
  /** `true` sets an empty attribute, `false` and `undefined` leave it out. */
  attrs?: Record<string, string | boolean | undefined>;
  title?: string;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options?: ElOptions, children?: Child[]): HTMLElementTagNameMap[K];
export function el(tag: string, options?: ElOptions, children?: Child[]): HTMLElement;
export function el(tag: string, options: ElOptions = {}, children: Child[] = []): HTMLElement {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = visibleControls(options.text);
  if (options.title) node.title = visibleControls(options.title);
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  append(node, children);
  return node;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? inertTextNode(child) : child);
  }
}

/** A text node for untrusted text: control characters shown as escapes. */
export function inertTextNode(text: string): Text {
  return document.createTextNode(visibleControls(text));
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A codicon glyph; decorative (hidden from screen readers) unless it is given a label. */
export function icon(name: string, extra = '', label?: string): HTMLSpanElement {
  return el('span', {
    className: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`,
    attrs: label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' },
  });
}

/** A spinning codicon: the one "working on it" mark both views use. */
export function spinner(label?: string): HTMLSpanElement {
  return icon('loading', 'codicon-modifier-spin', label);
}

interface ActionOptions {
  icon?: string;
  title?: string;
  testId?: string;
  /** Identifies the control across re-renders, so keyboard focus can be put back on it. */
  focusKey?: string;
}

/** A small icon button with an accessible label (toolbars, copy). */
export function iconButton(iconName: string, label: string, onClick: (event: MouseEvent) => void, text?: string, options: Omit<ActionOptions, 'icon'> = {}): HTMLButtonElement {
  const button = el('button', {
    className: 'icon-button',
    title: options.title ?? label,
    attrs: { type: 'button', 'aria-label': label, 'data-testid': options.testId, 'data-focus-key': options.focusKey },
  }, [icon(iconName), text ? el('span', { className: 'icon-button-text', text }) : null]);
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick(event);
  });
  return button;
}

/** A text action styled like a link ("View trajectory", "Copy answer"), but a real button. */
export function actionButton(text: string, onClick: () => void, options: ActionOptions = {}): HTMLButtonElement {
  const button = el('button', {
    className: 'action-link',
    title: options.title,
    attrs: { type: 'button', 'data-testid': options.testId, 'data-focus-key': options.focusKey },
  }, [options.icon ? icon(options.icon) : null, text]);
  button.addEventListener('click', (event) => {
    event.preventDefault();
    onClick();
  });
  return button;
}

/** A vscode-button with an icon and text; Enter and Space click it (native button semantics). */
export function vscodeButton(text: string, onClick: () => void, options: ActionOptions & { secondary?: boolean } = {}): HTMLElement {
  const button = el('vscode-button', {
    title: options.title,
    attrs: { secondary: options.secondary, 'data-testid': options.testId, icon: options.icon, 'data-focus-key': options.focusKey },
  }, [text]);
  button.addEventListener('click', onClick);
  return button;
}

/**
 * Runs `render` (which may replace the element that has keyboard focus) and puts focus back on the
 * element with the same `data-focus-key` afterwards, so a live update never throws a keyboard user
 * back to the top of the page.
 */
export function keepingFocus(root: ParentNode, render: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.focusKey : undefined;
  render();
  if (!key || (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))) return;
  const again = root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`);
  again?.focus({ preventScroll: true });
}
