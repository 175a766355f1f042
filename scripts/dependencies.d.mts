// Types for dependencies.mjs.
export declare class SetupError extends Error {
  constructor(message: string);
}
export type DependencyCheck = { state: 'current' } | { state: 'missing' | 'stale'; reason: string };
export declare function nodeVersionProblem(engines: string | undefined, nodeVersion?: string): string | undefined;
export declare function checkDependencies(root?: string): DependencyCheck;
export interface NpmResult { code: number | string | null; error?: Error }
export declare function ensureDependencies(options?: {
  root?: string;
  log?: (line: string) => void;
  npm?: (args: string[], root: string) => Promise<NpmResult>;
}): Promise<{ installed: boolean; seconds: number; reason?: string }>;
