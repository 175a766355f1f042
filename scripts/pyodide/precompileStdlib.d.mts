// Types for precompileStdlib.mjs, so that TypeScript tests can import it.
export declare const PRECOMPILED_IMPORTS: string[];
export declare class PrecompileError extends Error {}
export declare function precompiledStdlib(options: { pyodideDir: string; cacheDir: string }): Promise<string>;
