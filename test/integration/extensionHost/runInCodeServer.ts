// Runs the bundled extension-host suite inside code-server: the workbench is opened with a payload
// naming the repository as extensionDevelopmentPath and the bundle as extensionTestsPath; VS Code
// then calls the exposed codeAutomationExit(code) when the suite's run() settles.
import { appendFileSync, existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { format } from 'node:util';
import { remoteUri } from '../harness/codeServerSession';
import { openWorkbench } from '../harness/openWorkbench';
import { repoRoot, testOutputDir } from '../harness/outputPaths';
import type { ExtensionHostResults } from './extensionHostResults';

class ExtensionHostRunError extends Error {
  constructor(message: string, readonly sessionDir: string) {
    super(`${message} (logs in ${sessionDir})`);
    this.name = 'ExtensionHostRunError';
  }
}

interface ExtensionHostRun {
  /** What the workbench passed to codeAutomationExit: 0 when every test passed. */
  exitCode: number;
  results: ExtensionHostResults | undefined;
  sessionDir: string;
}

/** The workbench forwards console calls with printf-style arguments (mocha's reporter uses %s, %d). */
function formatLogArgs(args: unknown): string {
  return format(...(Array.isArray(args) ? args : [args]));
}

interface ExtensionHostRunOptions {
  /** The bundled suite (dist-test/extensionHost/index.js). */
  indexPath: string;
  /** The extension under test; default: this repository (its package.json and dist/). */
  extensionPath?: string;
  timeoutMs?: number;
  /** Runs only the mocha tests whose full title matches. */
  grep?: string;
  /** Names the session directory under test-output/sessions/. */
  label?: string;
}

export async function runExtensionHostSuite(options: ExtensionHostRunOptions): Promise<ExtensionHostRun> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const extensionPath = options.extensionPath ?? repoRoot;
  if (!existsSync(options.indexPath)) throw new Error(`${options.indexPath} does not exist; bundle the suite first (node test/integration/extensionHost/bundleSuite.mjs)`);
  if (!existsSync(join(extensionPath, 'dist', 'extension.js'))) throw new Error(`${extensionPath}/dist/extension.js does not exist; run npm run build first`);
  await mkdir(testOutputDir(), { recursive: true });
  const resultsFile = join(testOutputDir(), `extension-host-results-${process.pid}-${Date.now().toString(36)}.json`);
  await rm(resultsFile, { force: true });

  let resolveExit: (code: number) => void = () => undefined;
  const exit = new Promise<number>((resolve) => { resolveExit = resolve; });
  const session = await openWorkbench(undefined, {
    label: options.label ?? 'extension-host-suite',
    extension: 'none',
    env: { RLM_EXT_TEST_RESULTS: resultsFile, ...(options.grep ? { RLM_EXT_TEST_GREP: options.grep } : {}) },
    beforeOpen: async (page, codeServer) => {
      const automationLog = join(codeServer.dir, 'automation.log');
      await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
        appendFileSync(automationLog, `[${type}] ${formatLogArgs(args)}\n`);
      });
      await page.exposeFunction('codeAutomationExit', (code: number) => resolveExit(code));
    },
    payload: (codeServer) => [
      ['extensionDevelopmentPath', remoteUri(codeServer.server, extensionPath)],
      ['extensionTestsPath', remoteUri(codeServer.server, options.indexPath)],
    ],
  });
  const sessionDir = session.codeServer.dir;
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ExtensionHostRunError(`the extension-host suite did not finish within ${timeoutMs} ms`, sessionDir)), timeoutMs);
    });
    const crashed = session.codeServer.server.exited.then((code) => {
      throw new ExtensionHostRunError(`code-server exited (${String(code)}) before the suite finished`, sessionDir);
    });
    const exitCode = await Promise.race([exit, timeout, crashed]).finally(() => clearTimeout(timer));
    const results = existsSync(resultsFile) ? (JSON.parse(await readFile(resultsFile, 'utf8')) as ExtensionHostResults) : undefined;
    return { exitCode, results, sessionDir };
  } finally {
    await session.close();
  }
}
