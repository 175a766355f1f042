// Globs are hostile on both sides: a repository ships its .gitignore files and names its own files, an
// agent's globs are steered by what it read, and a workspace's settings list exclude patterns. On the
// old code a .gitignore line `*a*a*a*a*a*a*a*a*a*a*b` and a file named with 40 "a"s kept the gathering
// thread (the extension host's) busy for over a minute per name, and `{a,b}` written 25 times expanded
// to 33 million patterns. The hang cases below carry a generous timeout only so that a regression fails
// instead of hanging the suite; they assert no speed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitignoreLayers } from '../../../../src/core/context/gitignoreLayers';
import { BraceExpansionError, expandBraces, MAX_BRACE_EXPANSIONS } from '../../../../src/core/context/globBraces';
import { compileWildmatch } from '../../../../src/core/context/wildmatch';
import { planAgentPaths } from '../../../../src/core/agentAsk/agentPaths';
import { AgentAskError } from '../../../../src/core/agentAsk/agentAskErrors';
import { combineGlobs } from '../../../../src/vscode/context/globPatterns';

const HANG_GUARD = { timeout: 60_000 };
const EXPLOSIVE = '*a*a*a*a*a*a*a*a*a*a*a*a*b';

describe('wildmatch is linear in the path', () => {
  it('a .gitignore rule built to backtrack answers for a long name', HANG_GUARD, () => {
    const layers = GitignoreLayers.empty({ ignoreCase: false }).with('', `${EXPLOSIVE}\n`);
    assert.equal(layers.ignores('a'.repeat(200)), false);
    assert.equal(layers.ignores(`src/${'a'.repeat(200)}`), false);
    // Control: the same rule still matches what it says, so the answer above is not a shortcut.
    assert.equal(layers.ignores(`${'a'.repeat(200)}b`), true);
    assert.equal(layers.ignores(`x${'a'.repeat(12)}yb`), true);
    assert.equal(layers.ignores(`${'a'.repeat(11)}b`), false, 'twelve "a"s are needed');
  });

  it('case-insensitive and `**` patterns built to backtrack answer too', HANG_GUARD, () => {
    const name = `${'a/'.repeat(100)}c`;
    assert.equal(compileWildmatch('**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b')!.test(name), false);
    assert.equal(compileWildmatch('**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/c')!.test(name), true);
    assert.equal(compileWildmatch(EXPLOSIVE.toUpperCase(), true)!.test('a'.repeat(200)), false);
    assert.equal(compileWildmatch(EXPLOSIVE.toUpperCase(), true)!.test(`${'a'.repeat(30)}B`), true);
  });

  it('keeps wildmatch semantics: `*`, `?` and classes stop at `/`; `**` crosses whole folders only', () => {
    const m = (pattern: string, path: string, ignoreCase = false): boolean | undefined => compileWildmatch(pattern, ignoreCase)?.test(path);
    assert.equal(m('*.log', 'x.log'), true);
    assert.equal(m('*.log', 'a/x.log'), false);
    assert.equal(m('a?c', 'abc'), true);
    assert.equal(m('a?c', 'a/c'), false);
    assert.equal(m('[!x]b', '/b'), false);
    assert.equal(m('[a-c]z', 'bz'), true);
    assert.equal(m('[[:digit:]]x', '7x'), true);
    assert.equal(m('[[:nope:]]x', '7x'), undefined, 'an unknown class matches nothing, as in git');
    assert.equal(m('a\\', 'a'), undefined, 'a trailing backslash matches nothing');
    assert.equal(m('\\*x', '*x'), true);
    assert.equal(m('\\*x', 'ax'), false);
    assert.equal(m('**/b', 'b'), true);
    assert.equal(m('**/b', 'x/y/b'), true);
    assert.equal(m('a/**/b', 'a/b'), true);
    assert.equal(m('a/**/b', 'a/x/y/b'), true);
    assert.equal(m('a/**/b', 'ax/b'), false);
    assert.equal(m('a/**', 'a/x/y'), true);
    assert.equal(m('a**b', 'a/b'), false, '`**` inside a segment is `*`');
    assert.equal(m('ABC', 'abc', true), true);
    assert.equal(m('ABC', 'abc'), false);
    assert.equal(m('[A-C]', 'b', true), true);
  });
});

describe('brace expansion is bounded', () => {
  it('25 groups of two are refused with a typed error, after at most the limit built', HANG_GUARD, () => {
    const bomb = '{a,b}'.repeat(25);
    assert.throws(() => expandBraces(bomb), (error: unknown) => {
      assert.ok(error instanceof BraceExpansionError);
      assert.equal(error.limit, MAX_BRACE_EXPANSIONS);
      assert.match(error.message, /more than 1024 patterns/);
      return true;
    });
    // A workspace's exclude settings go through the same expansion.
    assert.throws(() => combineGlobs([bomb]), BraceExpansionError);
  });

  it('up to the limit expands as before (control)', () => {
    assert.equal(expandBraces('{a,b}'.repeat(10)).length, 1024);
    assert.deepEqual(expandBraces('{a,b{c,d}}/x'), ['a/x', 'bc/x', 'bd/x']);
  });
});

describe('an agent glob', () => {
  it('built to backtrack over a file name of the repository gets its answer', HANG_GUARD, async () => {
    const root = mkdtempSync(join(tmpdir(), 'rlm-hostile-glob-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'a'.repeat(120)), 'x\n');
      writeFileSync(join(root, 'src', `${'a'.repeat(20)}b`), 'y\n');
      const plan = await planAgentPaths([`src/${EXPLOSIVE}`], { root });
      assert.deepEqual(plan.files.map((f) => f.path.split('/').pop()), [`${'a'.repeat(20)}b`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('with a brace bomb is refused as bad input, naming the limit', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rlm-hostile-glob-'));
    try {
      writeFileSync(join(root, 'a.txt'), 'a\n');
      await assert.rejects(planAgentPaths([`${'{a,b}'.repeat(30)}*.txt`], { root }), (error: unknown) => {
        assert.ok(error instanceof AgentAskError, String(error));
        assert.equal(error.reason, 'bad-input');
        assert.match(error.message, /expands to more than 1024 patterns/);
        return true;
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
