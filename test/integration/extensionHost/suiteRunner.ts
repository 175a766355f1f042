// Runs inside the extension host (code-server's or Electron VS Code's): registers every suite file
// with mocha, runs it, prints a spec report and writes machine-readable results to the file named by
// RLM_EXT_TEST_RESULTS, so the Node-side wrapper can report each test as its own Node test.
// Suite modules arrive as lazy loaders because the bundle must register describe/it before they run.
import Mocha from 'mocha';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ExtensionHostResults, ExtensionHostTestResult } from './extensionHostResults';

interface SuiteModule {
  /** Path of the test file relative to the suite directory, for reports. */
  file: string;
  load: () => unknown;
}

class SuiteFailedError extends Error {
  constructor(readonly failures: number, readonly total: number) {
    super(`${failures} of ${total} extension-host tests failed`);
    this.name = 'SuiteFailedError';
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

function writeResults(results: ExtensionHostResults): void {
  const file = process.env.RLM_EXT_TEST_RESULTS;
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2));
}

/** Loads and runs the suite; rejects when any test fails or when no test was registered at all. */
export function runSuite(modules: readonly SuiteModule[], options: { timeoutMs?: number; grep?: string } = {}): Promise<void> {
  const grep = options.grep ?? process.env.RLM_EXT_TEST_GREP;
  // A skipped (pending) test fails: it would otherwise pass silently. In CI an `.only` fails too.
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: options.timeoutMs ?? 60_000,
    forbidPending: true,
    forbidOnly: Boolean(process.env.CI),
    ...(grep ? { grep } : {}),
  });
  const started = Date.now();
  const tests: ExtensionHostTestResult[] = [];
  const loadErrors: string[] = [];
  for (const module of modules) {
    mocha.suite.emit('pre-require', globalThis, module.file, mocha);
    try {
      module.load();
    } catch (err) {
      loadErrors.push(`${module.file}: ${errorText(err)}`);
    }
    mocha.suite.emit('post-require', globalThis, module.file, mocha);
  }
  return new Promise((resolve, reject) => {
    if (loadErrors.length > 0) {
      writeResults({ tests, loadErrors, durationMs: Date.now() - started });
      reject(new Error(`Could not load suite files:\n${loadErrors.join('\n')}`));
      return;
    }
    const runner = mocha.run((failures) => {
      writeResults({ tests, loadErrors, durationMs: Date.now() - started });
      if (tests.length === 0) reject(new Error('The extension-host suite registered no tests.'));
      else if (failures > 0) reject(new SuiteFailedError(failures, tests.length));
      else resolve();
    });
    const record = (test: Mocha.Runnable, state: ExtensionHostTestResult['state'], err?: unknown): void => {
      const file = (test.file ?? '').split('/').pop() ?? '';
      tests.push({ title: test.title, fullTitle: test.fullTitle(), file, state, durationMs: test.duration ?? 0, ...(err ? { error: errorText(err) } : {}) });
    };
    runner.on('pass', (test) => record(test, 'passed'));
    runner.on('fail', (test, err) => record(test, 'failed', err));
    runner.on('pending', (test) => record(test, 'pending'));
  });
}
