// The view at any width. Below NARROW_PX the outline stops taking a column and becomes a drawer the
// toolbar opens, toolbar buttons show icons only and code wraps; below COMPACT_PX the figures stack.
// The width is watched (a ResizeObserver), so dragging an editor group's edge re-lays the view out.

const NARROW_PX = 640;
const COMPACT_PX = 380;

export type WidthClass = 'wide' | 'narrow' | 'compact';

export function widthClass(width: number): WidthClass {
  if (width <= 0) return 'wide';
  if (width < COMPACT_PX) return 'compact';
  return width < NARROW_PX ? 'narrow' : 'wide';
}

/** Keeps `root`'s `narrow` and `compact` classes in step with its width; calls `onChange` when the class changes. */
export function watchWidth(root: HTMLElement, onChange: (mode: WidthClass) => void): void {
  let current: WidthClass | undefined;
  const apply = (width: number): void => {
    const mode = widthClass(width);
    if (mode === current) return;
    current = mode;
    root.classList.toggle('narrow', mode !== 'wide');
    root.classList.toggle('compact', mode === 'compact');
    onChange(mode);
  };
  apply(root.getBoundingClientRect().width);
  new ResizeObserver((entries) => {
    const width = entries[entries.length - 1]?.contentRect.width;
    if (width !== undefined) apply(width);
  }).observe(root);
}
