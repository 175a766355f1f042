// Which slots of the turn list overlap a band of the scroll area, by binary search over their offsets:
// an IntersectionObserver over 5,000 slots costs more per frame than the rendering it saves. Pure
// over anything with offsetTop/offsetHeight, so it is unit-tested with plain objects.
export interface SlotBox {
  offsetTop: number;
  offsetHeight: number;
}

/** First and last index of `slots` (in document order) overlapping [top, bottom], or undefined when empty. */
export function slotRange(slots: readonly SlotBox[], top: number, bottom: number): [number, number] | undefined {
  const count = slots.length;
  if (count === 0) return undefined;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const slot = slots[mid]!;
    if (slot.offsetTop + slot.offsetHeight < top) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (slots[mid]!.offsetTop > bottom) hi = mid - 1;
    else lo = mid;
  }
  return [first, Math.max(first, lo)];
}
