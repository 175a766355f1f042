// The code suite's default corpus: a JavaScript monorepo written from the task's seed, so a task is the
// same on every machine and does not change with whatever happens to be installed in node_modules.
// It has what the questions need: package.json files whose dependencies overlap only in part,
// functions defined once (and a few defined twice), and calls whose spread over files varies from
// one file to hundreds. The answers are still computed from the text (codeFacts.ts), never from
// what this generator meant to write.
import type { ContextFile } from '../../core/context/contextTypes';
import type { SeededRandom } from './seededRandom';

const VERBS = ['parse', 'format', 'merge', 'resolve', 'collect', 'render', 'validate', 'encode', 'decode', 'compute', 'select', 'normalize', 'build', 'update', 'remove', 'insert', 'measure', 'compare', 'schedule', 'flush', 'rebuild', 'expand', 'reduce', 'convert'];
const NOUNS = ['Token', 'Record', 'Header', 'Cache', 'Buffer', 'Entry', 'Range', 'Option', 'Request', 'Reply', 'Stream', 'Column', 'Matrix', 'Vector', 'Schema', 'Route', 'Session', 'Window', 'Segment', 'Cursor', 'Frame', 'Label', 'Index', 'Query', 'Batch', 'Ledger', 'Packet', 'Signal', 'Marker', 'Layout', 'Widget', 'Channel'];
const QUALIFIERS = ['', 'List', 'Map', 'Set', 'Tree', 'Pair', 'Chunk', 'Group', 'State', 'Table', 'Queue', 'Slice', 'Block', 'Patch', 'Delta', 'Count', 'Limit'];
const PACKAGE_WORDS = ['atlas', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen', 'meadow', 'nimbus', 'onyx', 'prairie', 'quartz', 'raven', 'summit', 'tundra', 'umber', 'vertex', 'willow', 'xenon', 'yarrow', 'zephyr'];
const EXTERNAL_PACKAGES = ['tiny-emitter', 'fast-queue', 'plain-date', 'word-wrap-lite', 'mini-glob', 'safe-json', 'hash-ring', 'color-tone', 'path-walker', 'text-table', 'retry-loop', 'byte-size', 'slug-maker', 'deep-freeze', 'lru-lite', 'semver-lite', 'url-join-lite', 'char-width', 'quick-sort', 'event-bus'];
const ARGUMENTS = ['input', 'options', 'value', 'items', 'state', 'context', 'limit', 'source'];

/** One function name per call, in a seeded order; past the pool's end, names get a number. */
class NamePool {
  private readonly names: string[];
  private next = 0;

  constructor(rng: SeededRandom) {
    const all: string[] = [];
    for (const verb of VERBS) for (const noun of NOUNS) for (const qualifier of QUALIFIERS) all.push(`${verb}${noun}${qualifier}`);
    this.names = rng.shuffle(all);
  }

  take(): string {
    const name = this.names[this.next % this.names.length]!;
    const round = Math.floor(this.next / this.names.length);
    this.next += 1;
    return round === 0 ? name : `${name}${round + 1}`;
  }
}

/**
 * Calls go mostly to a few busy functions and otherwise to recent ones, so that the number of files
 * calling a function ranges widely, as it does in real code.
 */
class CallTargets {
  private readonly all: string[] = [];
  private readonly busy: string[] = [];

  constructor(private readonly rng: SeededRandom) {}

  add(name: string): void {
    this.all.push(name);
    if (this.rng.next() < 0.04) this.busy.push(name);
  }

  pick(): string | undefined {
    if (this.all.length === 0) return undefined;
    if (this.busy.length > 0 && this.rng.next() < 0.3) return this.rng.pick(this.busy);
    const recent = Math.min(this.all.length, 400);
    return this.all[this.all.length - 1 - this.rng.int(0, recent - 1)];
  }
}

function functionSource(name: string, targets: CallTargets, rng: SeededRandom): string {
  const [a, b] = rng.shuffle(ARGUMENTS);
  const lines = [`function ${name}(${a}, ${b}) {`];
  const calls = rng.int(1, 3);
  for (let i = 0; i < calls; i++) {
    const target = targets.pick();
    if (!target) break;
    const shape = rng.int(0, 3);
    if (shape === 0) lines.push(`  const step${i} = ${target}(${a}, ${b});`);
    else if (shape === 1) lines.push(`  if (${b} && ${b}.strict) ${a} = ${target}(${a});`);
    else if (shape === 2) lines.push(`  const part${i} = ${a}.map((item) => item.${target}(${b}));`);
    else lines.push(`  // ${target} is not called here, only named in a comment`);
  }
  lines.push(`  return { ${a}, ${b}, size: ${rng.int(1, 4096)} };`, '}', '');
  return lines.join('\n');
}

function moduleSource(pkg: string, moduleName: string, names: string[], targets: CallTargets, rng: SeededRandom): string {
  const parts = [`// ${pkg}/${moduleName}: generated for the code suite.`, `'use strict';`, ''];
  const defined: string[] = [];
  for (const name of names) {
    parts.push(functionSource(name, targets, rng));
    defined.push(name);
    targets.add(name);
  }
  parts.push(`module.exports = { ${defined.join(', ')} };`, '');
  return parts.join('\n');
}

function manifest(name: string, dependencies: string[], rng: SeededRandom): string {
  const deps = Object.fromEntries(dependencies.map((d) => [d, `^${rng.int(0, 4)}.${rng.int(0, 20)}.0`]));
  return `${JSON.stringify({ name, version: `1.${rng.int(0, 30)}.${rng.int(0, 9)}`, main: 'src/index.js', dependencies: deps }, null, 2)}\n`;
}

/**
 * A seeded source tree of about `chars` characters (it stops after the file that reaches it), as
 * files sorted by path. The same rng state gives the same tree.
 */
export function syntheticSourceTree(chars: number, rng: SeededRandom): ContextFile[] {
  const names = new NamePool(rng);
  const targets = new CallTargets(rng);
  const files: ContextFile[] = [];
  const packages: string[] = [];
  let size = 0;
  for (let p = 0; size < chars; p++) {
    const word = PACKAGE_WORDS[p % PACKAGE_WORDS.length]!;
    const pkg = p < PACKAGE_WORDS.length ? `@synth/${word}` : `@synth/${word}-${Math.floor(p / PACKAGE_WORDS.length) + 1}`;
    const internal = rng.shuffle(packages).slice(0, rng.int(0, 3));
    const external = rng.shuffle(EXTERNAL_PACKAGES).slice(0, rng.int(1, 3));
    const dir = `packages/${pkg.slice('@synth/'.length)}`;
    const json = manifest(pkg, [...internal, ...external].sort(), rng);
    files.push({ path: `${dir}/package.json`, content: json });
    size += json.length;
    packages.push(pkg);
    const modules = rng.int(4, 12);
    for (let m = 0; m < modules && size < chars; m++) {
      const count = rng.int(3, 14);
      const fnNames = Array.from({ length: count }, () => names.take());
      // Now and then a name is defined a second time elsewhere, so "which file defines" must check.
      const again = rng.next() < 0.1 ? targets.pick() : undefined;
      if (again) fnNames.push(again);
      const moduleName = `src/${NOUNS[(p * 7 + m) % NOUNS.length]!.toLowerCase()}${m}.js`;
      const text = moduleSource(pkg, moduleName, fnNames, targets, rng);
      files.push({ path: `${dir}/${moduleName}`, content: text });
      size += text.length;
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
