// Types for packageVsix.mjs, so that TypeScript tests and the bench can import it.
export declare const CLI_ONLY_FILES: string[];
export declare function vsixManifest(manifest: { files: string[]; bin?: Record<string, string> } & Record<string, unknown>): Record<string, unknown> & { files: string[] };
export declare function stageVsix(options: { root?: string; stage: string; dist?: string }): void;
export declare function vsce(stage: string, args: string[]): string;
export declare function packageVsix(options?: { root?: string; out?: string; dist?: string }): string;
