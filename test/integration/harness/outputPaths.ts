// Where integration runs leave their artefacts: screenshots, logs and per-session scratch dirs,
// all under the git-ignored test-output/ (RLM_TEST_OUTPUT moves it).
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../../scripts/codeServer/paths.mjs';

export function testOutputDir(): string {
  return resolve(process.env.RLM_TEST_OUTPUT ?? join(repoRoot, 'test-output'));
}

export function screenshotsDir(): string {
  return join(testOutputDir(), 'screenshots');
}

/** A fresh directory for one code-server + browser session; the name says which test made it. */
export async function newSessionDir(label: string): Promise<string> {
  const safe = label.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
  const dir = join(testOutputDir(), 'sessions', `${safe}-${Date.now().toString(36)}-${process.pid}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The packaged extension the UI tests install; RLM_VSIX overrides it. */
export function vsixPath(): string {
  return resolve(process.env.RLM_VSIX ?? join(repoRoot, 'rlm-vscode.vsix'));
}

export function sampleWorkspaceDir(): string {
  return join(repoRoot, 'test', 'fixtures', 'sampleWorkspace');
}

export { repoRoot };
