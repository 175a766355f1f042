// The import graph of the shipped code (src/ and webview/), read from the sources' import lines: which
// folder imports which, and the circles among files. docs/architecture.md states the layers; a unit
// test (test/unit/build/architectureDoc.test.ts) holds that page against this graph, so the page stays
// true as the code changes.
//
// `node scripts/importGraph.mjs` prints the arrows between the top folders, the arrows between the
// folders inside each, and every circle among files and among folders.
// Imports are read as text (static, `export ... from`, and `import('...')` in types or calls), which is
// enough for relative imports of this repository; packages and Node built-ins are not followed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|mts|cts)$/;
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const posix = (path) => path.split(sep).join('/');

/** Every file of src/ and webview/ (repository-relative, POSIX) with the repository files it imports. */
export function importGraph(root = defaultRoot) {
  const files = ['src', 'webview'].filter((d) => existsSync(join(root, d))).flatMap((d) => sourceFiles(join(root, d)));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const pattern of IMPORT_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const target = resolveImport(file, match[1]);
        if (target) targets.add(posix(relative(root, target)));
      }
    }
    graph.set(posix(relative(root, file)), [...targets].sort());
  }
  return graph;
}

/** The folder a file belongs to at the top level of the layers: src/<folder> or webview. */
function topFolder(file) {
  const parts = file.split('/');
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

/** Folder -> the other folders it imports, at the top level. */
export function folderArrows(graph) {
  const arrows = new Map();
  for (const [file, targets] of graph) {
    const from = topFolder(file);
    for (const target of targets) {
      const to = topFolder(target);
      if (to === from) continue;
      if (!arrows.has(from)) arrows.set(from, new Set());
      arrows.get(from).add(to);
    }
  }
  return new Map([...arrows].sort().map(([from, to]) => [from, [...to].sort()]));
}

/** The folder that holds a file: src/vscode/run for src/vscode/run/runLauncher.ts. */
export function folderOf(file) {
  return file.split('/').slice(0, -1).join('/');
}

/** Folder -> the folders its files import (every depth, every top folder), as a graph of folders. */
export function folderGraph(graph) {
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) if (folderOf(target) !== from) folders.get(from).add(folderOf(target));
  }
  return new Map([...folders].sort().map(([from, to]) => [from, [...to].sort()]));
}

/**
 * Folder -> the other folders of the same top folder it imports (src/vscode/run -> src/vscode/errors,
 * ...): the layers inside src/core, src/vscode, src/cli and the rest. Arrows that leave the top folder
 * are the top folders' (folderArrows).
 */
export function innerFolderArrows(graph) {
  return new Map([...folderGraph(graph)].map(([from, to]) => [from, to.filter((t) => topFolder(`${t}/x`) === topFolder(`${from}/x`))]));
}

/** The circles among folders: folders whose files import one another, directly or round a ring. */
export function folderCircles(graph) {
  return fileCircles(folderGraph(graph));
}

/** The circles among files: each a sorted list of the files that import one another (Tarjan's SCC). */
export function fileCircles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const low = new Map();
  const circles = [];
  const visit = (file) => {
    indices.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file), indices.get(next)));
      }
    }
    if (low.get(file) === indices.get(file)) {
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== file);
      if (members.length > 1) circles.push(members.sort());
    }
  };
  for (const file of graph.keys()) if (!indices.has(file)) visit(file);
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const invokedDirectly = process.argv[1] && existsSync(process.argv[1]) && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  const graph = importGraph();
  console.log(`${graph.size} files of src/ and webview/\n\nArrows between the top folders:`);
  for (const [from, to] of folderArrows(graph)) console.log(`  ${from} -> ${to.join(', ')}`);
  console.log('\nArrows between the folders inside each top folder:');
  for (const [from, to] of innerFolderArrows(graph)) console.log(`  ${from} -> ${to.length ? to.join(', ') : '(nothing)'}`);
  const circles = fileCircles(graph);
  console.log(`\nCircles among files: ${circles.length}`);
  for (const circle of circles) console.log(`  ${circle.length} files: ${circle.join(', ')}`);
  const folderRings = folderCircles(graph);
  console.log(`\nCircles among folders: ${folderRings.length}`);
  for (const circle of folderRings) console.log(`  ${circle.length} folders: ${circle.join(', ')}`);
}
