// scripts/deadExports.mjs, lint's dead-export check, on a small project made for the test: every way
// of using an export counts (named, type-only, namespace, re-export, import() and import types), an
// export used only in its own file does not, and host-loaded entry points are exempt. The whole
// repository is checked by `npm run lint` (eslint . && node scripts/deadExports.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface DeadExport {
  path: string;
  line: number;
  name: string;
  kind: 'value' | 'type';
}
interface CheckerModule {
  findDeadExports(options: { root: string; entryPoints?: Array<{ file: RegExp; names: string[]; why: string }> }): DeadExport[];
  compareWithKnown(dead: DeadExport[], known: Record<string, string[]>): { fresh: DeadExport[]; known: DeadExport[]; stale: string[] };
}

const PROJECT: Record<string, string> = {
  // No standard library: the checker reads imports and exports only, and the DOM's declarations alone
  // cost the type checker more than a second per program.
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', target: 'ES2022', noEmit: true, noLib: true, types: [] }, include: ['src'] }),
  'src/lib.ts': 'export const used = 1;\nexport const unused = 2;\nexport type UsedType = { a: number };\nexport interface UnusedType { b: number }\n',
  'src/namespaced.ts': 'export const a = 1;\nexport const b = 2;\n',
  'src/loadedLater.ts': 'export const late = 1;\n',
  'src/original.ts': 'export const passedOn = 1;\nexport const leftBehind = 2;\n',
  'src/passOn.ts': "export { passedOn } from './original';\n",
  'src/typesOnly.ts': 'export type ViaImportType = { c: number };\nexport type NeverNamed = string;\n',
  'src/selfish.ts': 'export const usedAtHome = 1;\nconsole.log(usedAtHome);\n',
  'src/entry.ts': 'export function activate(): void {}\nexport function helper(): void {}\n',
  'src/main.ts': [
    "import { used } from './lib';",
    "import type { UsedType } from './lib';",
    "import * as ns from './namespaced';",
    "import { passedOn } from './passOn';",
    "type Late = typeof import('./loadedLater');",
    "type Typed = import('./typesOnly').ViaImportType;",
    'const value: UsedType = { a: used };',
    "const typed: Typed = { c: 1 };",
    "void import('./loadedLater');",
    'console.log(value, typed, ns.a, passedOn, {} as Late);',
    '',
  ].join('\n'),
};

let root = '';
let checker: CheckerModule;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'rlm-dead-exports-'));
  for (const [path, text] of Object.entries(PROJECT)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  checker = (await import('../../../scripts/deadExports.mjs')) as CheckerModule;
});
after(() => rmSync(root, { recursive: true, force: true }));

test('flags exports no other file imports, with their kind and line, and nothing that is used', () => {
  const dead = checker.findDeadExports({ root, entryPoints: [{ file: /^src\/entry\.ts$/, names: ['activate'], why: 'a host calls it' }] });
  assert.deepEqual(
    dead.map((d) => `${d.path}:${d.line} ${d.name} ${d.kind}`),
    [
      'src/entry.ts:2 helper value',
      'src/lib.ts:2 unused value',
      'src/lib.ts:4 UnusedType type',
      'src/original.ts:2 leftBehind value',
      'src/selfish.ts:1 usedAtHome value',
      'src/typesOnly.ts:2 NeverNamed type',
    ],
  );
});

test('known dead exports pass while they stay dead; an entry that is no longer dead is reported stale', () => {
  const dead = checker.findDeadExports({ root });
  const result = checker.compareWithKnown(dead, { 'src/lib.ts': ['unused', 'used'], 'src/entry.ts': ['activate', 'helper'] });
  assert.deepEqual(result.known.map((d) => d.name).sort(), ['activate', 'helper', 'unused']);
  assert.ok(result.fresh.some((d) => d.name === 'UnusedType'));
  assert.deepEqual(result.stale, ['src/lib.ts used']);
});
