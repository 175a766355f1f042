// Host search over planned files: ripgrep and the RegExp scan give Python's hits (path, line, start in
// code points, the clipped line) in the plan's order; only planned files are searched; Python syntax is
// carried over or handed back to the REPL with the reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostSearch } from '../../../../src/core/context/hostSearch';
import { translatePythonRegex } from '../../../../src/core/context/pythonRegex';
import type { PlannedFile } from '../../../../src/core/context/contextTypes';

const RG = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : undefined;

describe('host search', () => {
  let dir: string;
  let files: PlannedFile[];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-hostsearch-'));
    mkdirSync(join(dir, 'a'));
    const texts: Record<string, string> = {
      'a/one.txt': 'first line\nsecond TODO here\nthird\n',
      'a/two.txt': '💡é TODO after astral\nnothing\nTODO twice TODO\n',
      'a/long.txt': `${'x'.repeat(1000)} TODO ${'y'.repeat(1000)}\n`,
      'a/skip.txt': 'TODO in a file that is not planned\n',
    };
    for (const [path, text] of Object.entries(texts)) writeFileSync(join(dir, path), text);
    files = ['a/one.txt', 'a/two.txt', 'a/long.txt'].map((path) => ({ path, abs: join(dir, path), bytes: Buffer.byteLength(texts[path]!) }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const expected = [
    { path: 'a/one.txt', line: 2, start: 18, text: 'second TODO here' },
    { path: 'a/two.txt', line: 1, start: 3, text: '💡é TODO after astral' },
    { path: 'a/two.txt', line: 3, start: 29, text: 'TODO twice TODO' },
    { path: 'a/two.txt', line: 3, start: 40, text: 'TODO twice TODO' },
  ];

  for (const engine of RG ? ['ripgrep', 'javascript'] : ['javascript']) {
    it(`${engine}: Python's hit shape, in plan order, planned files only, clipped long lines`, async () => {
      const out = await hostSearch({ pattern: 'TODO', flags: '', maxHits: 100 }, files, { ...(engine === 'ripgrep' ? { ripgrepPath: RG! } : {}), maxFileBytes: 1 << 20 });
      assert.ok(!('fallback' in out));
      assert.equal(out.engine, engine);
      assert.deepEqual(out.hits.slice(0, 4), expected);
      const long = out.hits[4]!;
      assert.equal(long.path, 'a/long.txt');
      assert.equal(long.start, 1001);
      assert.equal(long.text.length, 300);
      assert.equal(long.text.slice(100, 104), 'TODO');
      assert.equal(out.hits.length, 5);
      const two = await hostSearch({ pattern: 'todo', flags: 'i', maxHits: 2 }, files, { ...(engine === 'ripgrep' ? { ripgrepPath: RG! } : {}), maxFileBytes: 1 << 20 });
      assert.ok(!('fallback' in two));
      assert.deepEqual(two.hits, expected.slice(0, 2));
      assert.equal(two.truncated, true);
    });
  }

  it('look-behind and back-references go to the RegExp scan even with ripgrep', async () => {
    const out = await hostSearch({ pattern: '(?<=twice )(?P<w>TODO)', flags: '', maxHits: 10 }, files, { ...(RG ? { ripgrepPath: RG } : {}), maxFileBytes: 1 << 20 });
    assert.ok(!('fallback' in out));
    assert.equal(out.engine, 'javascript');
    assert.deepEqual(out.hits, [expected[3]]);
  });

  it('a pattern only Python runs is handed back with the reason', async () => {
    for (const pattern of ['(?>TODO)', 'TO(?i:do)', 'TODO++', '\\N{BULLET}']) {
      const out = await hostSearch({ pattern, flags: '', maxHits: 10 }, files, { maxFileBytes: 1 << 20 });
      assert.ok('fallback' in out, pattern);
    }
    assert.ok('fallback' in (await hostSearch({ pattern: 'a b', flags: 'x', maxHits: 10 }, files, { maxFileBytes: 1 << 20 })));
  });

  it('translates Python syntax the other engines spell differently', () => {
    const t = translatePythonRegex({ pattern: '(?i)(?P<k>ab){,2}(?P=k)\\Z', flags: '' });
    assert.deepEqual(t.js, { source: '(?<k>ab){0,2}\\k<k>(?![\\s\\S])', flags: 'gmiu' });
    assert.deepEqual(t.rg, { unsupported: 'back-references' });
    const plain = translatePythonRegex({ pattern: 'def\\s+(?P<name>\\w+)', flags: 's' });
    assert.deepEqual(plain.rg, { pattern: 'def\\s+(?<name>\\w+)', ignoreCase: false, dotAll: true, multiline: true });
  });
});
