// Small DOM builders. Text always goes in through text nodes (textContent), never as markup.
type Child = Node | string | null | undefined | false;

export interface ElOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
  title?: string;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElOptions = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  if (options.title) node.title = options.title;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A codicon glyph; decorative, so hidden from screen readers. */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return el('span', { className: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

/** A small icon button with an accessible label. */
export function iconButton(iconName: string, label: string, onClick: (event: MouseEvent) => void, text?: string): HTMLButtonElement {
  const button = el('button', { className: 'icon-button', attrs: { type: 'button', 'aria-label': label }, title: label }, [icon(iconName), text ? el('span', { text }) : null]);
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick(event);
  });
  return button;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}
