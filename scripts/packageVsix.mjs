// `npm run package`: the production build in dist/ (the integration tests run it as it is there), then
// rlm-vscode.vsix, packed from a staged copy whose package.json lists the `files` of the real one
// without the command line. The npm package ships `rlm` (dist/cli.js, dist/rlm.js); the extension never
// loads either, and vsce refuses a .vscodeignore beside `files`, so the VSIX's list is derived here
// from the one list rather than kept twice.
// `node scripts/packageVsix.mjs [--out <file>]`; also exported for the bench and a test.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** What only the command line needs: in the npm package, not in the VSIX. */
export const CLI_ONLY_FILES = ['dist/cli.js', 'dist/rlm.js'];

/** package.json as the VSIX carries it: no `bin`, and `files` without the command line. */
export function vsixManifest(manifest) {
  const { bin: _bin, ...rest } = manifest;
  return { ...rest, files: manifest.files.filter((f) => !CLI_ONLY_FILES.includes(f)) };
}

/** Copies what the VSIX is made of into `stage`: the manifest, the documents, media/ and `dist` (default: root's dist/). */
export function stageVsix({ root = repoRoot, stage, dist = join(root, 'dist') }) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(vsixManifest(manifest), null, 2)}\n`);
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) copyFileSync(join(root, file), join(stage, file));
  cpSync(join(root, 'media'), join(stage, 'media'), { recursive: true });
  cpSync(dist, join(stage, 'dist'), { recursive: true, filter: (from) => !CLI_ONLY_FILES.some((f) => resolve(from) === resolve(dist, '..', f)) });
}

/** Runs vsce in a staged folder; returns what it printed. */
export function vsce(stage, args) {
  const cli = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  return execFileSync(process.execPath, [cli, ...args, '--no-dependencies'], { cwd: stage, encoding: 'utf8', stdio: 'pipe', timeout: 300_000 });
}

/** Writes the VSIX of root's built dist/ to `out`. */
export function packageVsix({ root = repoRoot, out = join(root, 'rlm-vscode.vsix'), dist } = {}) {
  const stage = mkdtempSync(join(tmpdir(), 'rlm-vsix-stage-'));
  try {
    stageVsix({ root, stage, dist });
    vsce(stage, ['package', '--out', resolve(out)]);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return resolve(out);
}

async function main() {
  const at = process.argv.indexOf('--out');
  const { buildAll } = await import('../esbuild.mjs');
  await buildAll({ production: true });
  const out = packageVsix(at > 0 ? { out: process.argv[at + 1] } : {});
  console.log(`wrote ${out}`);
}

// No top-level await: the bench's TypeScript imports this file too.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`npm run package: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
