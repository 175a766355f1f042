// The read-only documents RLM opens for a reference (a slice of a large file, a PDF page's text, a
// compressed log's decompressed lines) are served by content providers for RLM's own URI schemes. Any
// URI of those schemes can reach a provider (a link in a chat answer or a recorded run, a command's
// argument), so the URI carries only an opaque id that the reference opener issued in this window: the
// file, page and lines behind it come from here, never from the URI. An id that was not issued (forged,
// or from before a reload) finds nothing.
import { randomUUID } from 'node:crypto';
import type { Compression } from '../../core/context/compressedFormats';

type DerivedView =
  | { kind: 'slice'; abs: string; shown: string; line: number; end: number }
  | { kind: 'pdf-page'; abs: string; shown: string; page: number }
  | { kind: 'decompressed'; abs: string; shown: string; format: Compression; line: number; end: number };

/** Views kept before the oldest is forgotten; an editor that still shows a forgotten one keeps its text. */
const MAX_VIEWS = 512;

export class DerivedViews {
  private readonly views = new Map<string, DerivedView>();

  constructor(private readonly max = MAX_VIEWS) {}

  /** The id of `view`: the same view asked for again gets the same id, so its tab is reused. */
  issue(view: DerivedView): string {
    for (const [id, known] of this.views) {
      if (sameView(known, view)) {
        // Most recently used last, so the oldest is forgotten first.
        this.views.delete(id);
        this.views.set(id, known);
        return id;
      }
    }
    const id = randomUUID();
    this.views.set(id, view);
    while (this.views.size > this.max) this.views.delete(this.views.keys().next().value as string);
    return id;
  }

  /** The view behind `id`, if this window issued it. */
  lookup(id: string | null, kind: DerivedView['kind']): DerivedView | undefined {
    const view = id === null ? undefined : this.views.get(id);
    return view?.kind === kind ? view : undefined;
  }
}

function sameView(a: DerivedView, b: DerivedView): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The text a provider shows for an id it does not know. */
export function unknownViewText(kind: DerivedView['kind']): string {
  const what = kind === 'slice' ? 'slice of a file' : kind === 'pdf-page' ? "PDF page's text" : 'decompressed log';
  return `[This ${what} is not available: RLM only shows views it opened from a reference in this window (after a reload, open the reference again from the answer).]\n`;
}

/** One registry per extension host: the opener issues ids, the providers look them up. */
export const derivedViews = new DerivedViews();
