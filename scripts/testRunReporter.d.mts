// Types for testRunReporter.mjs, so that its unit test can import it.
export declare function judgeTestRun(summaryText: string, requestedFiles: readonly string[], options?: { allowSkips?: boolean }): string[];
