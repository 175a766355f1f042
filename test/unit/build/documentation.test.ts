// The README stays a quick start and a tour a newcomer reads in minutes (at most 2,000 words, no
// paragraph over about 1,000 characters), the reference moved to docs/ stays complete and reachable
// (every relative link of README.md and docs/*.md resolves, docs/settings.md names every setting),
// and the README still gives the test command CI runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');
const README_MAX_WORDS = 2000;
const PARAGRAPH_MAX_CHARS = 1000;

function read(path: string): string {
  return readFileSync(join(repoRoot, path), 'utf8');
}

/** Markdown without its fenced code blocks (commands are not prose). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

/** Paragraphs as a reader meets them: blocks between blank lines, each list item and heading apart. */
function paragraphs(markdown: string): string[] {
  return prose(markdown)
    .split(/\n\s*\n/)
    .flatMap((block) => block.split(/\n(?=\s*(?:[-*] |\d+\. |#|\|))/))
    .map((p) => p.trim())
    .filter(Boolean);
}

function words(markdown: string): number {
  return markdown.split(/\s+/).filter(Boolean).length;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function markdownFiles(): string[] {
  return ['README.md', 'CHANGELOG.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

test(`README.md is at most ${README_MAX_WORDS} words, and no paragraph is over ${PARAGRAPH_MAX_CHARS} characters`, () => {
  const readme = read('README.md');
  const count = words(readme);
  assert.ok(count <= README_MAX_WORDS, `README.md has ${count} words; move reference material to docs/ and link it`);
  const long = paragraphs(readme).filter((p) => p.length > PARAGRAPH_MAX_CHARS);
  assert.deepEqual(long.map((p) => `${p.length} chars: ${p.slice(0, 80)}...`), [], 'split these paragraphs, or move them to docs/');
});

test('the paragraph splitter sees list items and headings as paragraphs of their own', () => {
  assert.deepEqual(paragraphs('# Title\nintro line\n\n- one\n- two\n\n```\ncode\n```\nafter'), ['# Title\nintro line', '- one', '- two', 'after']);
  assert.equal(words('two  words\n'), 2);
});

test('every relative link of README.md, CHANGELOG.md and docs/*.md leads to a file, and its #anchor to a heading', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    const text = prose(read(file));
    for (const match of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, command:
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? join(repoRoot, file) : resolve(dirname(join(repoRoot, file)), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target} (no ${relative(repoRoot, resolved)})`);
        continue;
      }
      if (fragment && statSync(resolved).isFile() && resolved.endsWith('.md')) {
        const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((h) => anchor(h[1]!));
        if (!headings.includes(fragment)) broken.push(`${file}: ${target} (no heading #${fragment})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('docs/settings.md names every setting the extension declares, and README.md links it', () => {
  const manifest = JSON.parse(read('package.json')) as { contributes: { configuration: { properties: Record<string, unknown> } } };
  const page = read('docs/settings.md');
  const missing = Object.keys(manifest.contributes.configuration.properties).filter((name) => !page.includes(`\`${name}\``));
  assert.deepEqual(missing, [], 'docs/settings.md lacks these settings');
  assert.match(read('README.md'), /\]\(docs\/settings\.md\)/);
});

test('README.md gives the test command CI runs, and .ci/run runs exactly that command', () => {
  const readme = read('README.md');
  assert.match(readme, /^npm test\b/m, 'README.md shows `npm test` in its quick start');
  assert.match(readme, /`bash \.ci\/run` is what CI runs[^\n]*then `npm test`/);
  const ci = read('.ci/run').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  assert.equal(ci.at(-1), 'npm test', '.ci/run ends by running the README\'s test command');
});
