// Types for deadExportsBaseline.mjs.
export declare const KNOWN_DEAD_EXPORTS: Record<string, string[]>;
