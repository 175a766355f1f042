// Types for paths.mjs, so that the TypeScript harness can import it.
export declare const CODE_SERVER_VERSION: string;
export declare const RECIPE_REVISION: number;
export declare const repoRoot: string;
export declare function cacheRoot(): string;
export declare function installDir(): string;
export declare function stampFile(): string;
export declare function stampText(): string;
export declare function codeServerPackageDir(dir?: string): string;
export declare function codeServerEntry(dir?: string): string;
