// Where the prepared code-server lives. Shared by prepare.mjs, the test harness and `npm start`,
// so that all three agree on one cache directory and one version.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The last code-server release whose engines.node accepts Node 20; it bundles VS Code 1.100.3. */
export const CODE_SERVER_VERSION = '4.100.3';

/** Bump when the preparation recipe changes, so that old caches are rebuilt instead of trusted. */
export const RECIPE_REVISION = 1;

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Cache root; RLM_CODE_SERVER_CACHE moves it (for example onto a CI cache volume). */
export function cacheRoot() {
  return resolve(process.env.RLM_CODE_SERVER_CACHE ?? join(repoRoot, '.cache', 'code-server'));
}

export function installDir() {
  return join(cacheRoot(), CODE_SERVER_VERSION);
}

export function stampFile() {
  return join(installDir(), '.prepared');
}

export function stampText() {
  return `code-server ${CODE_SERVER_VERSION} recipe ${RECIPE_REVISION}\n`;
}

/** The code-server package inside the cache. */
export function codeServerPackageDir(dir = installDir()) {
  return join(dir, 'node_modules', 'code-server');
}

/** The entry point we run with `node`, rather than the shell wrapper, so that signals reach it directly. */
export function codeServerEntry(dir = installDir()) {
  return join(codeServerPackageDir(dir), 'out', 'node', 'entry.js');
}
