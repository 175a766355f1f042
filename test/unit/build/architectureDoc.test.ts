// docs/architecture.md states which top folder may import which, and lists the import circles still
// owed. The page is held against the import graph of the code (scripts/importGraph.mjs), so it stays
// true: a new arrow between folders that the page does not allow fails here, and so does a circle of
// files that is not inside one the page lists as a known debt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileCircles, folderArrows, importGraph } from '../../../scripts/importGraph.mjs';

const repoRoot = join(__dirname, '..', '..', '..');
const page = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');

function fencedBlock(info: string): string[] {
  const match = new RegExp('```' + info + '\\n([\\s\\S]*?)\\n```').exec(page);
  assert.ok(match, `docs/architecture.md has no \`\`\`${info} block`);
  return match[1]!.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The `imports` block: folder -> the folders it may import. */
function allowedImports(): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const line of fencedBlock('imports')) {
    const m = /^(\S+) -> (.+)$/.exec(line);
    assert.ok(m, `docs/architecture.md, imports block: "${line}" is not "folder -> a, b"`);
    allowed.set(m[1]!, new Set(m[2] === '(nothing)' ? [] : m[2]!.split(',').map((s) => s.trim())));
  }
  return allowed;
}

test('every arrow between top folders is one docs/architecture.md allows, and every folder is on the page', () => {
  const graph = importGraph(repoRoot);
  const allowed = allowedImports();
  const folders = new Set([...graph.keys()].map((f) => (f.startsWith('src/') ? f.split('/').slice(0, 2).join('/') : f.split('/')[0]!)));
  for (const folder of folders) assert.ok(allowed.has(folder), `${folder} holds shipped code but docs/architecture.md's imports block does not mention it`);
  for (const [from, targets] of folderArrows(graph)) {
    for (const to of targets) {
      assert.ok(allowed.get(from)?.has(to), `${from} imports ${to}, which docs/architecture.md does not allow (${[...graph].filter(([f, t]) => f.startsWith(`${from}/`) && t.some((x) => x.startsWith(`${to}/`))).map(([f]) => f).join(', ')})`);
    }
  }
});

test('every circle of files lies inside a known debt that docs/architecture.md lists', () => {
  const known = fencedBlock('known-circles').map((line) => new Set(line.split(',').map((s) => s.trim())));
  for (const circle of fileCircles(importGraph(repoRoot))) {
    assert.ok(known.some((debt) => circle.every((file) => debt.has(file))), `a new import circle: ${circle.join(' ↔ ')}. Break it (docs/architecture.md, "Layers and folders")`);
  }
});

test('the graph reader finds a circle, and only a circle', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
    ['e.ts', ['d.ts']],
  ]);
  assert.deepEqual(fileCircles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  assert.deepEqual(fileCircles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
});

test('the graph reader sees multi-line, type-only and export-from imports of this repository', () => {
  const graph = importGraph(repoRoot);
  // Known edges of the code, each written in a different form.
  assert.ok(graph.get('src/core/citations/coverage.ts')?.includes('src/core/trajectory/events.ts'), 'a type-only import');
  assert.ok(graph.get('src/vscode/engine/engineEntry.ts')?.includes('src/core/loop/rlmRun.ts'), 'a named import');
  assert.ok([...graph.values()].every((targets) => targets.every((t) => graph.has(t))), 'every target is a file of the graph');
});
