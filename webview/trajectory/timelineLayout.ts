// Geometry of the waterfall: where a span sits on a track, and which lane each span takes so that
// overlapping (parallel) spans are drawn on separate lines. Pure: unit-tested.

export interface Span {
  id: string;
  start: number;
  /** Undefined while still running: drawn up to `now`. */
  end?: number;
}

export interface PlacedSpan {
  id: string;
  /** Percent of the track width. */
  left: number;
  width: number;
  lane: number;
  running: boolean;
}

/** Narrowest bar drawn, in percent, so that instant calls stay visible. */
export const MIN_WIDTH_PCT = 0.4;

export function placeOnTrack(span: Span, trackStart: number, trackEnd: number, now: number): Omit<PlacedSpan, 'lane'> {
  const length = Math.max(1, trackEnd - trackStart);
  const end = span.end ?? now;
  const left = Math.min(100, Math.max(0, ((span.start - trackStart) / length) * 100));
  const right = Math.min(100, Math.max(left, ((end - trackStart) / length) * 100));
  return { id: span.id, left, width: Math.max(MIN_WIDTH_PCT, right - left), running: span.end === undefined };
}

/**
 * Greedy interval partitioning: spans sorted by start take the first lane that is free by then, so
 * the number of lanes equals the peak parallelism.
 */
export function assignLanes(spans: Span[], now: number): Map<string, number> {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const laneEnds: number[] = [];
  const lanes = new Map<string, number>();
  for (const span of sorted) {
    const end = span.end ?? now;
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= span.start);
    if (lane < 0) {
      lane = laneEnds.length;
      laneEnds.push(end);
    } else {
      laneEnds[lane] = end;
    }
    lanes.set(span.id, lane);
  }
  return lanes;
}

/** Places spans on a track from `trackStart` to `trackEnd`, each on its lane. */
export function layoutWaterfall(spans: Span[], trackStart: number, trackEnd: number, now: number): { placed: PlacedSpan[]; lanes: number } {
  const lanes = assignLanes(spans, now);
  const placed = spans.map((s) => ({ ...placeOnTrack(s, trackStart, trackEnd, now), lane: lanes.get(s.id) ?? 0 }));
  const laneCount = placed.reduce((max, p) => Math.max(max, p.lane + 1), 0);
  return { placed, lanes: laneCount };
}
