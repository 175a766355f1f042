// A tiny element builder. Text always goes through text nodes, never innerHTML.
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Record<string, string | boolean | undefined>, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Record<string, string | boolean | undefined>, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Record<string, string | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

export function icon(name: string, label?: string): HTMLElement {
  const el = h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? undefined : 'true', 'aria-label': label, role: label ? 'img' : undefined });
  return el;
}

/** A vscode-button with an icon and text; `onClick` runs on click and on Enter/Space (native button semantics). */
export function button(text: string, onClick: () => void, options: { icon?: string; secondary?: boolean; title?: string; testId?: string } = {}): HTMLElement {
  const el = h('vscode-button', { secondary: options.secondary, title: options.title, 'data-testid': options.testId, icon: options.icon }, text);
  el.addEventListener('click', onClick);
  return el;
}

/** A link-styled action (for "View trajectory", "Copy answer"). */
export function linkAction(text: string, onClick: () => void, options: { icon?: string; testId?: string } = {}): HTMLElement {
  const el = h('a', { href: '#', class: 'action-link', role: 'button', 'data-testid': options.testId }, options.icon ? icon(options.icon) : null, text);
  el.addEventListener('click', (event) => {
    event.preventDefault();
    onClick();
  });
  return el;
}
