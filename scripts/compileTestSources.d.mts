// Types for compileTestSources.mjs, so that its unit test can import it.
export declare function compiledPath(root: string, outDir: string, source: string): string;
export declare function compiledSourcesDir(root: string): string;
export declare function compileTestSources(options: { root: string; outDir: string }): Promise<{ files: number; compiled: number }>;
export declare function stopCompiler(): Promise<void>;
