// Types for generatedLog.mjs.
export declare function generateServiceLog(options?: { lines?: number; seed?: number }): { text: string; lines: number; answer: number; question: string };
