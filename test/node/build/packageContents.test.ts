// The packages as vsce and npm make them from package.json's `files` (one list for both: vsce refuses a
// .vscodeignore beside it, so `npm run package` packs the VSIX from a staged copy whose list leaves out
// the command line): every file the extension and the CLI load, no source map, source, test or bench;
// the npm package holds the VSIX's files and `rlm`. And the npm package works on its own: once
// installed into an empty folder, with nothing else beside it, `rlm` starts, and a scripted evaluation
// starts the REPL from the package's own files and answers. A file missing from the list would only
// show up when a user asks a question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { REPL_FILES } from '../../../src/core/repl/replSession';

const repoRoot = join(__dirname, '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface BuildModule {
  bundleSpecs(outdir: string): Array<{ name: string; outfile: string }>;
  PYODIDE_FILES: string[];
}

/** What vsce packs, staged as `npm run package` stages it. */
async function vsixFiles(): Promise<string[]> {
  const { stageVsix, vsce } = await import('../../../scripts/packageVsix.mjs');
  const stage = mkdtempSync(join(tmpdir(), 'rlm-vsix-list-'));
  try {
    stageVsix({ root: repoRoot, stage });
    return vsce(stage, ['ls']).split('\n').map((l) => l.trim()).filter(Boolean);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function npmPackFiles(): string[] {
  const [pack] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' })) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((f) => f.path);
}

test('the VSIX holds every bundle but the command line, the Pyodide runtime, the icon font and media, and nothing else; the npm package the same and `rlm`', async () => {
  if (!existsSync(join(repoRoot, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` before this test');
  const { bundleSpecs, PYODIDE_FILES } = (await import('../../../esbuild.mjs')) as BuildModule;
  const dist = join(repoRoot, 'dist');
  const bundles = bundleSpecs(dist).map((spec) => `dist/${relative(dist, spec.outfile).split(sep).join('/')}`);
  const media = readdirSync(join(repoRoot, 'media'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(repoRoot, join(e.parentPath, e.name)).split(sep).join('/'));
  // pdf.js's character maps for CJK PDFs, copied whole by the build beside the PDF worker.
  const cmaps = readdirSync(join(repoRoot, 'node_modules', 'pdfjs-dist', 'cmaps')).map((f) => `dist/pdf-cmaps/${f}`);
  const expected = [...bundles, ...PYODIDE_FILES.map((f) => `dist/pyodide/${f}`), ...cmaps, 'dist/webview/codicon.css', 'dist/webview/codicon.ttf', ...media, 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'].sort();
  const { CLI_ONLY_FILES } = await import('../../../scripts/packageVsix.mjs');
  assert.deepEqual([...CLI_ONLY_FILES].sort(), ['dist/cli.js', 'dist/rlm.js']);
  const vsix = (await vsixFiles()).sort();
  assert.deepEqual(vsix, expected.filter((f) => !CLI_ONLY_FILES.includes(f)));
  for (const file of REPL_FILES) assert.ok(vsix.includes(`dist/${file}`), `the VSIX would lack dist/${file}, which a REPL start needs`);
  assert.deepEqual(npmPackFiles().sort(), expected, 'npm pack ships every bundle, the command line included');
});

test('the npm package, installed alone into an empty folder, runs `rlm` and starts its REPL from its own files', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-npm-package-'));
  try {
    execFileSync(npm, ['pack', '--pack-destination', scratch, '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: 'pipe' });
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote no tarball');
    const project = join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "uses-rlm", "private": true }\n');
    // --offline: the package has no dependency, so the install must need no registry at all.
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(scratch, tarball)], { cwd: project, encoding: 'utf8', stdio: 'pipe', timeout: 300_000 });
    assert.deepEqual(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.')), ['rlm-vscode'], 'nothing but the package is installed');
    const rlm = join(project, 'node_modules', '.bin', 'rlm');
    assert.match(execFileSync(rlm, ['--help'], { cwd: project, encoding: 'utf8' }), /^rlm — ask questions about files/);
    const out = join(scratch, 'eval');
    const report = execFileSync(rlm, ['eval', '--scripted', '--suite', 'niah', '--lengths', '8k', '--out', out], { cwd: project, encoding: 'utf8', stdio: 'pipe', timeout: 600_000 });
    assert.match(report, /niah\s+rlm\s+100\.0%/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { results: Array<{ score: number }> };
    assert.deepEqual(results.results.map((r) => r.score), [1]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
