// Types for bundleSuite.mjs.
export declare const suiteDir: string;
export declare const defaultOutdir: string;
export declare function suiteFiles(): string[];
export declare function bundleExtensionHostSuite(options?: { outdir?: string }): Promise<{ indexPath: string; files: string[] }>;
