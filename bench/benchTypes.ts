// Every benchmark module exports `run(): Promise<BenchFigure[]>`; bench/runAll.ts collects the figures
// into bench/RESULTS.md with the machine noted and targets beside them.
export interface BenchFigure {
  /** Section heading in RESULTS.md, e.g. "REPL". */
  group: string;
  name: string;
  /** Median over `runs` measurements. */
  value: number;
  unit: 'ms' | 's' | 'µs' | 'MB' | 'KB' | 'bytes' | 'ratio' | '%' | 'x';
  runs: number;
  /** Human-readable target, e.g. "≤ 2.0 s". */
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  met?: boolean;
  note?: string;
}

export interface BenchModule {
  run(): Promise<BenchFigure[]>;
}

export function median(values: number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
