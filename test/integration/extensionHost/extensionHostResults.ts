// The results file the extension-host suite writes and the Node-side wrapper reads.

export interface ExtensionHostTestResult {
  title: string;
  /** Describe titles and the test title, joined by spaces (mocha's fullTitle). */
  fullTitle: string;
  file: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface ExtensionHostResults {
  tests: ExtensionHostTestResult[];
  /** Suite files that threw while being loaded; each makes the run fail. */
  loadErrors: string[];
  durationMs: number;
}
