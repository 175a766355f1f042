// Types for startProgress.mjs.
export declare function formatDuration(ms: number): string;
export interface StepOptions { expect?: string; waiting?: string | (() => string) }
export interface Progress {
  step<T>(title: string, work: () => Promise<T>, options?: StepOptions): Promise<T>;
  skip(title: string, why: string): void;
  elapsed(): string;
}
export declare function createProgress(options: {
  total: number;
  write?: (text: string) => void;
  now?: () => number;
  every?: (fn: () => void, ms: number) => { stop(): void };
  heartbeatMs?: number;
}): Progress;
export declare function tailLines(output: string, count?: number): string;
