// Whether a live view keeps the newest cell in sight. It follows until the user scrolls up, and
// resumes when they scroll back to the bottom. Pure: fed scroll positions, unit-tested.
export interface ScrollPosition {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** Within this many pixels of the bottom counts as "at the bottom". */
export const BOTTOM_SLACK_PX = 48;

export function isAtBottom(p: ScrollPosition): boolean {
  return p.scrollHeight - p.scrollTop - p.clientHeight <= BOTTOM_SLACK_PX;
}

export class FollowMode {
  private following = true;
  private lastTop = 0;
  /** Scroll events caused by our own scrollIntoView must not switch following off. */
  private programmatic = false;

  get active(): boolean {
    return this.following;
  }

  /** Call before scrolling to the newest cell ourselves. */
  markProgrammaticScroll(): void {
    this.programmatic = true;
  }

  /** Call on every scroll event. */
  onScroll(p: ScrollPosition): void {
    const movedUp = p.scrollTop < this.lastTop - 2;
    this.lastTop = p.scrollTop;
    if (this.programmatic) {
      this.programmatic = false;
      if (!movedUp) return;
    }
    if (isAtBottom(p)) this.following = true;
    else if (movedUp) this.following = false;
  }

  /** The user jumped somewhere on purpose (outline, search, keyboard): stop following. */
  stop(): void {
    this.following = false;
  }

  resume(): void {
    this.following = true;
  }
}
