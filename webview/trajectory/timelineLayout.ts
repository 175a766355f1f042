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

interface AxisTick {
  /** Percent of the track width. */
  at: number;
  label: string;
}

const NICE_STEPS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000];

/** "0", "500 ms", "1.5 s", "2 min": short labels for an axis. */
export function axisLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1))} s`;
  const minutes = ms / 60_000;
  return `${Number(minutes.toFixed(Number.isInteger(minutes) ? 0 : 1))} min`;
}

/** Ticks at round times along a track of `durationMs`: at most `maxTicks` of them, 0 included. */
export function axisTicks(durationMs: number, maxTicks = 5): AxisTick[] {
  if (!(durationMs > 0)) return [{ at: 0, label: '0' }];
  const step = NICE_STEPS_MS.find((s) => durationMs / s <= maxTicks - 1) ?? Math.ceil(durationMs / (maxTicks - 1));
  const ticks: AxisTick[] = [];
  for (let t = 0; t <= durationMs + 1e-9; t += step) ticks.push({ at: (t / durationMs) * 100, label: axisLabel(t) });
  return ticks;
}
