// One Tab stop for a list of many controls (every answer's links and buttons), as VS Code's own lists
// do: Tab enters the list on one control and leaves it on the next; the arrow keys, Home and End move
// between its controls. Without it the question box came after every link of every answer in Tab order.

/** The move an arrow key makes from `current` among `count` controls; undefined for other keys. */
export function rovingMove(key: string, current: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return Math.min(count - 1, current + 1);
    case 'ArrowUp':
    case 'ArrowLeft':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/**
 * Which control keeps the list's one Tab stop after a render: the one the user last focused (found by
 * its focus key, else by its place), or else `fallback` (for the chat: the newest answer's first control).
 */
export function rovingStop(keys: ReadonlyArray<string | undefined>, remembered: { key?: string; index: number } | undefined, fallback: number): number {
  if (keys.length === 0) return -1;
  if (remembered?.key !== undefined) {
    const byKey = keys.indexOf(remembered.key);
    if (byKey >= 0) return byKey;
  }
  if (remembered && remembered.key === undefined && remembered.index < keys.length) return remembered.index;
  return Math.min(Math.max(fallback, 0), keys.length - 1);
}

const CONTROLS = 'a[href], button:not([disabled]), summary, vscode-button:not([disabled])';

export class RovingFocus {
  private remembered: { key?: string; index: number } | undefined;

  /** `fallback`: the control that holds the Tab stop before the user has focused any. */
  constructor(
    private readonly container: HTMLElement,
    private readonly fallback: (controls: HTMLElement[]) => number,
  ) {
    container.addEventListener('keydown', (event) => {
      const controls = this.controls();
      const at = controls.findIndex((c) => c === event.target || c.contains(event.target as Node));
      if (at < 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const next = rovingMove(event.key, at, controls.length);
      if (next === undefined) return;
      event.preventDefault();
      this.stopOn(controls, next);
      controls[next]?.focus();
    });
    // A click or a screen reader's focus lands on a control: it becomes the Tab stop.
    container.addEventListener('focusin', (event) => {
      const controls = this.controls();
      const at = controls.findIndex((c) => c === event.target || c.contains(event.target as Node));
      if (at >= 0) this.stopOn(controls, at);
    });
  }

  /** After every render: one control is tabbable, the others are reached with the arrow keys. */
  refresh(): void {
    const controls = this.controls();
    this.apply(controls, rovingStop(controls.map((c) => c.dataset.focusKey), this.remembered, this.fallback(controls)));
  }

  private stopOn(controls: HTMLElement[], index: number): void {
    const key = controls[index]?.dataset.focusKey;
    this.remembered = key === undefined ? { index } : { key, index };
    this.apply(controls, index);
  }

  private apply(controls: HTMLElement[], index: number): void {
    controls.forEach((c, i) => {
      // A property, not the attribute: vscode-button keeps its own tabIndex property and reflects it.
      c.tabIndex = i === index ? 0 : -1;
    });
  }

  private controls(): HTMLElement[] {
    return [...this.container.querySelectorAll<HTMLElement>(CONTROLS)].filter((c) => !c.closest('[hidden]') && !(c.closest('details:not([open])') && c.tagName !== 'SUMMARY'));
  }
}
