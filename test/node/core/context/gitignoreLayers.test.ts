// The one .gitignore implementation (src/core/context/gitignoreLayers.ts), used by `rlm ask` on a folder
// and by the extension's folder and workspace runs. Each rule of gitignore(5) is checked by name, and a
// tree holding all of them is checked against git itself (`git ls-files --others --exclude-standard`).
import { after, test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GitignoreLayers } from '../../../../src/core/context/gitignoreLayers';
import { hasBinaryExtension } from '../../../../src/core/context/binaryDetection';
import { planPaths } from '../../../../src/core/context/contextPlan';

function layers(files: Record<string, string>, ignoreCase = false): GitignoreLayers {
  let result = GitignoreLayers.empty({ ignoreCase });
  for (const [dir, text] of Object.entries(files)) result = result.with(dir, text);
  return result;
}

test('a file applies below its own folder only', () => {
  const l = layers({ '': 'node_modules/\n', pkg: 'build/\n' });
  assert.equal(l.ignores('node_modules/x/index.js'), true);
  assert.equal(l.ignores('pkg/build/out.js'), true);
  assert.equal(l.ignores('build/out.js'), false, "pkg's rule does not reach the root");
  assert.equal(l.ignores('src/app.ts'), false);
  assert.equal(l.ignores('pkg', true), false, 'a folder is not matched by its own .gitignore');
});

test('within one file the last matching rule decides', () => {
  const l = layers({ '': '*.log\n!keep.log\n' });
  assert.equal(l.ignores('debug.log'), true);
  assert.equal(l.ignores('keep.log'), false);
  assert.equal(l.ignores('src/keep.log'), false, 'a name-only rule matches at any depth');
  assert.equal(layers({ '': '!keep.log\n*.log\n' }).ignores('keep.log'), true, 'a negation before the rule it would undo is overruled');
});

test("a deeper file's negation re-includes what a shallower file ignores", () => {
  const l = layers({ '': '*.log\n', sub: '!keep.log\n' });
  assert.equal(l.ignores('sub/keep.log'), false);
  assert.equal(l.ignores('sub/other.log'), true);
  assert.equal(l.ignores('keep.log'), true, 'the negation holds only below sub/');
  assert.equal(l.ignores('sub/deeper/keep.log'), false);
});

test('a deeper negation of a folder re-includes the folder and what is in it', () => {
  const l = layers({ '': 'build/\n', sub: '!build/\n' });
  assert.equal(l.ignores('build/out.js'), true);
  assert.equal(l.ignores('sub/build', true), false);
  assert.equal(l.ignores('sub/build/out.js'), false);
});

test('nothing inside an ignored folder can be re-included, by the same file or a deeper one', () => {
  const l = layers({ '': 'logs/\n!logs/keep.txt\n', logs: '!keep.txt\n' });
  assert.equal(l.ignores('logs/keep.txt'), true);
  assert.equal(l.ignores('logs/x.txt'), true);
  assert.equal(l.ignores('nested/logs/keep.txt'), true, '`logs/` is a name-only rule: any folder so named');
  const contents = layers({ '': 'cache/*\n!cache/keep.txt\n' });
  assert.equal(contents.ignores('cache/keep.txt'), false, 'ignoring the contents (cache/*) leaves the folder open to a negation');
  assert.equal(contents.ignores('cache/x.txt'), true);
});

test('ignoresEntry gives the verdict on the entry alone, for a walk that never enters an ignored folder', () => {
  const l = layers({ '': 'logs/\n!keep.txt\n' });
  assert.equal(l.ignoresEntry('logs', true), true);
  assert.equal(l.ignoresEntry('logs/keep.txt', false), false, 'the walk has already stopped at logs/');
  assert.equal(l.ignores('logs/keep.txt'), true);
});

test('a trailing slash matches folders only', () => {
  const l = layers({ '': 'tmp/\n' });
  assert.equal(l.ignores('tmp'), false, 'a file named tmp');
  assert.equal(l.ignores('tmp', true), true);
  assert.equal(l.ignores('a/tmp/x.txt'), true);
});

test('a slash at the start or in the middle anchors the pattern to its file', () => {
  const root = layers({ '': '/todo.txt\ndoc/frotz/\n' });
  assert.equal(root.ignores('todo.txt'), true);
  assert.equal(root.ignores('sub/todo.txt'), false);
  assert.equal(root.ignores('doc/frotz/a.txt'), true);
  assert.equal(root.ignores('a/doc/frotz/a.txt'), false);
  const nested = layers({ pkg: '/dist\n' });
  assert.equal(nested.ignores('pkg/dist/x.js'), true);
  assert.equal(nested.ignores('pkg/lib/dist/x.js'), false);
});

test('* ? and [...] never match a slash; ** matches whole folders only', () => {
  const l = layers({ '': 'doc/*.txt\nfile?.dat\n[ab].md\n[!xy].cfg\n**/deep/target\nabc/**\na/**/b\nx**y\n' });
  assert.equal(l.ignores('doc/notes.txt'), true);
  assert.equal(l.ignores('doc/server/arch.txt'), false);
  assert.equal(l.ignores('file1.dat'), true);
  assert.equal(l.ignores('file12.dat'), false);
  assert.equal(l.ignores('a.md'), true);
  assert.equal(l.ignores('c.md'), false);
  assert.equal(l.ignores('z.cfg'), true);
  assert.equal(l.ignores('x.cfg'), false);
  assert.equal(l.ignores('deep/target'), true);
  assert.equal(l.ignores('x/y/deep/target'), true);
  assert.equal(l.ignores('abc/x/y'), true);
  assert.equal(l.ignores('abc', true), false, 'abc/** matches inside abc, not abc itself');
  for (const path of ['a/b', 'a/x/b', 'a/x/y/b']) assert.equal(l.ignores(path), true, path);
  assert.equal(l.ignores('xzy'), true);
  assert.equal(l.ignores('x/y'), false, '** inside a name is a plain *');
});

test('comments, blank lines, escapes and trailing spaces read as git reads them', () => {
  const l = layers({ '': '# comment\n\n\\#hash.txt\n\\!bang.txt\ntrail.txt   \nspace\\ \r\ncrlf.txt\r\n' });
  assert.equal(l.ignores('# comment'), false);
  assert.equal(l.ignores('#hash.txt'), true);
  assert.equal(l.ignores('!bang.txt'), true);
  assert.equal(l.ignores('trail.txt'), true);
  assert.equal(l.ignores('space '), true);
  assert.equal(l.ignores('space'), false);
  assert.equal(l.ignores('crlf.txt'), true);
});

test('case matters unless ignoreCase is set (core.ignoreCase)', () => {
  assert.equal(layers({ '': '*.LOG\n' }).ignores('a.log'), false);
  assert.equal(layers({ '': '*.LOG\n' }, true).ignores('a.log'), true);
});

test('a pattern git cannot match is left out, never an error; odd brackets read as git reads them', () => {
  const l = layers({ '': 'unclosed[.txt\n[[:nope:]].txt\nend\\\nok.txt\n[z-a].cfg\n[[:digit:]_].dat\n[]x].md\n[a-].ini\n' });
  assert.equal(l.ignores('ok.txt'), true);
  assert.equal(l.ignores('unclosed[.txt'), false);
  assert.equal(l.ignores('end\\'), false);
  assert.equal(l.ignores('z.cfg'), true, 'a range out of order keeps its first character');
  assert.equal(l.ignores('a.cfg'), false);
  assert.equal(l.ignores('7.dat'), true);
  assert.equal(l.ignores('_.dat'), true);
  assert.equal(l.ignores('a.dat'), false);
  assert.equal(l.ignores('].md'), true, 'a ] first in the brackets is a member');
  assert.equal(l.ignores('-.ini'), true, 'a - last in the brackets is a member');
});

// One tree with every rule above, and git's own answer for it.
const GITIGNORES: Record<string, string> = {
  '': [
    '*.log', '/todo.txt', 'logs/', '!logs/keep.txt', 'build/', 'cache/*', '!cache/keep.txt', 'tmp/', '\\#hash.txt', '\\!bang.txt',
    'trail.txt   ', 'space\\ ', '# comment', '', 'doc/*.txt', '**/deep/target', 'abc/**', 'a/**/b', 'file?.dat', '[ab].md', '[!xy].cfg',
    '*.LOG2', 'same/', '!same/keep.js', 'x**y', 'unclosed[.txt', '[[:nope:]].txt', 'end\\', '[z-a].cfg', '[[:digit:]_].num', '[]x].md', '[a-].ini',
    '[[:x].bad', '',
  ].join('\n'),
  sub: '!keep.log\n!build/\n',
  logs: '!keep.txt\n',
  'pkg/inner': '/anchored.txt\n*.tmp\n!important.tmp\n',
};
const FILES = [
  'a.log', 'keep.log', 'todo.txt', 'sub/todo.txt', 'logs/keep.txt', 'logs/x.txt', 'cache/keep.txt', 'cache/x.txt', 'tmp', 'tmpd/tmp/x.txt',
  '#hash.txt', '!bang.txt', 'trail.txt', 'space ', 'doc/notes.txt', 'doc/server/arch.txt', 'x/deep/target', 'y/deep/target/z.txt',
  'abc/x', 'abc/y/z', 'a/b', 'a/x/b', 'a/x/y/b', 'file1.dat', 'file12.dat', 'a.md', 'c.md', 'x.cfg', 'z.cfg', 'q.log2', 'q.LOG2',
  'same/keep.js', 'same/other.js', 'build/out.js', 'sub/build/out.js', 'sub/keep.log', 'sub/other.log', 'nested/logs/keep.txt',
  'xzy', 'unclosed[.txt', 'end\\', 'z.cfg', '7.num', '_.num', 'q.num', '].md', '-.ini', ':.bad', 'x.bad', 'pkg/inner/anchored.txt', 'pkg/inner/deeper/anchored.txt', 'pkg/inner/a.tmp', 'pkg/inner/important.tmp', 'pkg/anchored.txt',
];

function git(t: TestContext, cwd: string, args: string[]): string | undefined {
  // No user or system configuration: their excludes files would change the answer.
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: cwd };
  const result = spawnSync('git', ['-c', 'core.excludesFile=', '-c', 'core.ignoreCase=false', ...args], { cwd, encoding: 'utf8', env });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    if (process.env.CI) assert.fail('git is not installed; CI must run every check');
    t.skip('git is not installed: the comparison with git needs it');
    return undefined;
  }
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** Writes GITIGNORES and FILES under `root`; returns the writer for more files. */
function writeTree(root: string): (path: string, text: string) => void {
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [dir, text] of Object.entries(GITIGNORES)) write(dir ? `${dir}/.gitignore` : '.gitignore', text);
  for (const file of FILES) write(file, 'x');
  return write;
}

const scratch = mkdtempSync(join(tmpdir(), 'rlm-gitignore-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('over a tree with every rule, the files kept are exactly the ones git keeps', (t) => {
  if (git(t, scratch, ['init', '-q']) === undefined) return;
  writeTree(scratch);
  const kept = git(t, scratch, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (kept === undefined) return;
  const byGit = kept.split('\0').filter(Boolean).sort();
  const l = layers(GITIGNORES);
  const all = [...FILES, ...Object.keys(GITIGNORES).map((dir) => (dir ? `${dir}/.gitignore` : '.gitignore'))];
  const byUs = all.filter((file) => !l.ignores(file)).sort();
  assert.deepEqual(byUs, byGit);
  assert.ok(byGit.includes('sub/build/out.js') && byGit.includes('cache/keep.txt') && !byGit.includes('logs/keep.txt'), 'the tree exercises re-inclusion both ways');
});

test('`rlm ask` on a sub-folder of a repository applies the .gitignore files above it, as git does; outside a repository none', async (t) => {
  const repo = mkdtempSync(join(tmpdir(), 'rlm-gitignore-sub-'));
  t.after(() => rmSync(repo, { recursive: true, force: true }));
  if (git(t, repo, ['init', '-q']) === undefined) return;
  const write = writeTree(repo);
  write('pkg/.gitignore', 'secret/\n*.key\n');
  for (const file of ['pkg/inner/deeper/app.ts', 'pkg/inner/deeper/x.log', 'pkg/inner/secret/token.txt', 'pkg/inner/id.key', 'sub/deep/notes.log', 'sub/deep/keep.log']) write(file, 'x');
  for (const folder of ['sub', 'pkg/inner', 'cache', 'doc', 'pkg/inner/deeper', 'sub/deep']) {
    const kept = git(t, repo, ['ls-files', '--others', '--exclude-standard', '-z', '--', folder]);
    if (kept === undefined) return;
    const byGit = kept.split('\0').filter(Boolean).filter((p) => !hasBinaryExtension(p)).sort();
    const plan = await planPaths([folder], { cwd: repo });
    assert.deepEqual(plan.files.map((f) => f.path).sort(), byGit, `rlm ask ${folder}`);
  }
  // A folder the repository ignores (`logs/`) is still read when named: git lists nothing there, the user asked for it.
  assert.deepEqual((await planPaths(['logs'], { cwd: repo })).files.map((f) => f.path).sort(), ['logs/.gitignore', 'logs/keep.txt', 'logs/x.txt']);
  // The same sub-folder outside any repository: the .gitignore files above it are not git's business.
  rmSync(join(repo, '.git'), { recursive: true, force: true });
  const plan = await planPaths(['pkg/inner/deeper'], { cwd: repo });
  assert.deepEqual(plan.files.map((f) => f.path).sort(), ['pkg/inner/deeper/anchored.txt', 'pkg/inner/deeper/app.ts', 'pkg/inner/deeper/x.log']);
});
