// Types for prepare.mjs.
export declare class PrepareError extends Error {
  readonly step: string;
  constructor(step: string, detail: string);
}
export interface PrepareResult { dir: string; entry: string; prepared: boolean; seconds: number }
export declare function isPrepared(): Promise<boolean>;
export declare function prepareCodeServer(options?: { force?: boolean; log?: (line: string) => void; onStep?: (step: string) => void }): Promise<PrepareResult>;
