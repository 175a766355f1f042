// Up/down between cells: the stops are the root turns' cells where a turn is loaded, and the turn's
// slot where it is not (or has no cell), in document order.
const STOPS = [
  '.turn-slot:not(.loaded)',
  '.turn-slot.loaded > .turn > section.cell',
  '.turn-slot.loaded:not(:has(> .turn > section.cell))',
  '.turn-slot.loaded > .wf-row',
].join(', ');

export function nextFocusable(active: HTMLElement, direction: 1 | -1): HTMLElement | undefined {
  const stops = [...document.querySelectorAll<HTMLElement>(STOPS)];
  let at = stops.indexOf(active);
  if (at < 0) {
    const slot = active.closest<HTMLElement>('.turn-slot');
    at = slot ? stops.findIndex((s) => slot.contains(s) || s === slot) : -1;
  }
  const next = stops[at + direction];
  if (!next) return undefined;
  if (!next.hasAttribute('tabindex')) next.setAttribute('tabindex', '0');
  return next;
}
