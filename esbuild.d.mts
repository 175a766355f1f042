// Types for esbuild.mjs, so that TypeScript tests can import the build.
import type { BuildOptions } from 'esbuild';
export declare const PYODIDE_FILES: string[];
export declare function bundleSpecs(outdir: string): Array<{ name: string; entry: string; outfile: string }>;
export declare function buildAll(options?: { outdir?: string; production?: boolean; only?: string[]; bundlesOnly?: boolean }): Promise<{ bundles: string[] }>;
export declare function esbuildOptions(spec: { name: string; entry: string; outfile: string }, production: boolean): BuildOptions;
