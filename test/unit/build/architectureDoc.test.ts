// docs/architecture.md states which top folder may import which (the `imports` block) and, inside
// each top folder, which folder may import which (the `folders` block): the layers. The page is held
// against the import graph of the code (scripts/importGraph.mjs), so it stays true: an arrow the page
// does not allow fails here, so does a folder the page leaves out or names but the code no longer has,
// and so does any circle, of files or of folders, since a circle is an arrow that points both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileCircles, folderArrows, folderCircles, folderGraph, folderOf, importGraph, innerFolderArrows } from '../../../scripts/importGraph.mjs';

const repoRoot = join(__dirname, '..', '..', '..');
const page = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');
const graph = importGraph(repoRoot);


function fencedBlock(info: string): string[] {
  const match = new RegExp('```' + info + '\\n([\\s\\S]*?)\\n```').exec(page);
  assert.ok(match, `docs/architecture.md has no \`\`\`${info} block`);
  return match[1]!.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** A block of `folder -> a, b` lines: folder -> the folders it may import. */
function allowedArrows(block: string): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const line of fencedBlock(block)) {
    const m = /^(\S+) -> (.+)$/.exec(line);
    assert.ok(m, `docs/architecture.md, ${block} block: "${line}" is not "folder -> a, b"`);
    assert.ok(!allowed.has(m[1]!), `docs/architecture.md, ${block} block: ${m[1]} is listed twice`);
    allowed.set(m[1]!, new Set(m[2] === '(nothing)' ? [] : m[2]!.split(',').map((s) => s.trim())));
  }
  return allowed;
}

/** The files behind an arrow, for a message that says where to look. */
function filesBehind(from: string, to: string, folderOfFile: (file: string) => string): string {
  return [...graph].filter(([f, t]) => folderOfFile(f) === from && t.some((x) => folderOfFile(x) === to)).map(([f]) => f).join(', ');
}

const topFolderOf = (f: string): string => (f.startsWith('src/') ? f.split('/').slice(0, 2).join('/') : f.split('/')[0]!);

test('every arrow between top folders is one docs/architecture.md allows, and every top folder is on the page', () => {
  const allowed = allowedArrows('imports');
  const folders = new Set([...graph.keys()].map(topFolderOf));
  for (const folder of folders) assert.ok(allowed.has(folder), `${folder} holds shipped code but docs/architecture.md's imports block does not mention it`);
  for (const folder of allowed.keys()) assert.ok(folders.has(folder), `docs/architecture.md's imports block names ${folder}, which holds no shipped code`);
  for (const [from, targets] of folderArrows(graph)) {
    for (const to of targets) {
      assert.ok(allowed.get(from)?.has(to), `${from} imports ${to}, which docs/architecture.md does not allow (${filesBehind(from, to, topFolderOf)})`);
    }
  }
});

test('inside each top folder, every arrow between folders is one the folders block allows, and every folder is on the page', () => {
  const allowed = allowedArrows('folders');
  const arrows = innerFolderArrows(graph);
  for (const folder of arrows.keys()) assert.ok(allowed.has(folder), `${folder} holds shipped code but docs/architecture.md's folders block does not mention it`);
  for (const folder of allowed.keys()) assert.ok(arrows.has(folder), `docs/architecture.md's folders block names ${folder}, which holds no shipped code`);
  for (const [from, targets] of arrows) {
    for (const to of targets) {
      assert.ok(allowed.get(from)?.has(to), `${from} imports ${to}, which docs/architecture.md's folders block does not allow (${filesBehind(from, to, folderOf)})`);
    }
  }
});

test('the import graph has no circle of files', () => {
  for (const circle of fileCircles(graph)) {
    assert.fail(`an import circle: ${circle.join(' ↔ ')}. Break it: move what both sides need below them (docs/architecture.md, "Layers and folders")`);
  }
});

test('no two folders import each other, directly or round a ring', () => {
  const graphOfFolders = folderGraph(graph);
  for (const circle of folderCircles(graph)) {
    const arrows = circle.flatMap((from) => (graphOfFolders.get(from) ?? []).filter((to) => circle.includes(to)).map((to) => `${from} -> ${to} (${filesBehind(from, to, folderOf)})`));
    assert.fail(`folders that import each other: ${arrows.join('; ')}. Make the arrow point one way (docs/architecture.md, "Layers and folders")`);
  }
});

test('the graph reader finds a circle, and only a circle, of files and of folders', () => {
  const files = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
    ['e.ts', ['d.ts']],
  ]);
  assert.deepEqual(fileCircles(files), [['a.ts', 'b.ts', 'c.ts']]);
  assert.deepEqual(fileCircles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
  // No file circle, but two folders that import each other: x/1 -> y/1 and y/2 -> x/2.
  const folders = new Map([
    ['x/1.ts', ['y/1.ts']],
    ['x/2.ts', []],
    ['y/1.ts', []],
    ['y/2.ts', ['x/2.ts']],
    ['z/1.ts', ['x/1.ts']],
  ]);
  assert.deepEqual(fileCircles(folders), []);
  assert.deepEqual(folderCircles(folders), [['x', 'y']]);
  assert.deepEqual(folderCircles(new Map([['x/1.ts', ['y/1.ts']], ['y/1.ts', []]])), []);
});

test('the graph reader sees multi-line, type-only and export-from imports of this repository', () => {
  // Known edges of the code, each written in a different form.
  assert.ok(graph.get('src/core/citations/coverage.ts')?.includes('src/core/trajectory/events.ts'), 'a type-only import');
  assert.ok(graph.get('src/vscode/engine/engineEntry.ts')?.includes('src/core/loop/rlmRun.ts'), 'a named import');
  assert.ok([...graph.values()].every((targets) => targets.every((t) => graph.has(t))), 'every target is a file of the graph');
});
