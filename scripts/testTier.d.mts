// Types for testTier.mjs.
export declare const UNIT_TIER_GUARD: string;
export declare function testTier(files: string[], root?: string): 'node' | 'unit';
