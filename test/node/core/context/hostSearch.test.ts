// Host search over planned files: ripgrep and the RegExp scan give Python's hits (path, line, start in
// code points, the clipped line) in the plan's order; only planned files are searched; Python syntax is
// carried over or handed back to the REPL with the reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  describe('ripgrep in batches', { skip: RG ? false : 'no ripgrep at /usr/bin/rg' }, () => {
    let many: PlannedFile[];
    let log: string;
    let wrapper: string;
    before(() => {
      // 12 files; TODO in files 0, 5 and 11 (twice in 5).
      mkdirSync(join(dir, 'many'));
      many = Array.from({ length: 12 }, (_, i) => {
        const path = `many/f${String(i).padStart(2, '0')}.txt`;
        const text = i === 0 ? 'TODO zero\n' : i === 5 ? 'a TODO b TODO\n' : i === 11 ? 'last TODO\n' : 'nothing here\n';
        writeFileSync(join(dir, path), text);
        return { path, abs: join(dir, path), bytes: Buffer.byteLength(text) };
      });
      // A ripgrep that notes when each process starts and ends, and is slow enough that overlap shows.
      log = join(dir, 'rg.log');
      wrapper = join(dir, 'rg-logged.sh');
      writeFileSync(wrapper, `#!/bin/sh\necho start >> '${log}'\nsleep 0.2\n'${RG}' "$@"\ncode=$?\necho end >> '${log}'\nexit $code\n`);
      chmodSync(wrapper, 0o755);
    });
    const runs = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
    const search = (maxHits: number, batching: { argBytes?: number; concurrency?: number; splitFiles?: number }, signal?: AbortSignal) => {
      rmSync(log, { force: true });
      return hostSearch({ pattern: 'TODO', flags: '', maxHits }, many, { ripgrepPath: wrapper, maxFileBytes: 1 << 20, ripgrepBatches: batching, ...(signal ? { signal } : {}) });
    };

    it('gives the same hits, in plan order, however the files are cut and however many run at once', async () => {
      const whole = await search(100, { argBytes: 1 << 20, splitFiles: 1000 });
      assert.ok(!('fallback' in whole));
      assert.deepEqual(whole.hits.map((h) => `${h.path}:${h.start}`), ['many/f00.txt:0', 'many/f05.txt:2', 'many/f05.txt:9', 'many/f11.txt:5']);
      assert.equal(whole.truncated, false);
      assert.equal(runs().length, 2, 'one process for a small plan');
      for (const concurrency of [1, 2, 3]) {
        // 13 bytes of arguments per file: one file per batch.
        const cut = await search(100, { argBytes: 13, concurrency, splitFiles: 1000 });
        assert.deepEqual(cut, whole, `concurrency ${concurrency}`);
        assert.equal(runs().filter((r) => r === 'start').length, 12);
      }
    });

    it('runs batches side by side, and splits a large plan across them even under the argument limit', async () => {
      await search(100, { argBytes: 1 << 20, concurrency: 2, splitFiles: 10 });
      assert.deepEqual(runs(), ['start', 'start', 'end', 'end'], 'two processes for a plan of 10 files or more, at the same time');
    });

    it('stops once the first batches hold maxHits hits, and says more may exist', async () => {
      const two = await search(2, { argBytes: 13, concurrency: 2, splitFiles: 1000 });
      assert.ok(!('fallback' in two));
      assert.deepEqual(two.hits.map((h) => `${h.path}:${h.start}`), ['many/f00.txt:0', 'many/f05.txt:2']);
      assert.equal(two.truncated, true);
      assert.ok(runs().filter((r) => r === 'start').length < 12, `later batches are not searched (${runs().filter((r) => r === 'start').length} processes)`);
      const exact = await search(4, { argBytes: 13, concurrency: 2, splitFiles: 1000 });
      assert.ok(!('fallback' in exact));
      assert.equal(exact.hits.length, 4);
      assert.equal(exact.truncated, false, 'every batch searched and no more hits than asked for');
    });

    it('a stopped search ends every ripgrep it started', async () => {
      const controller = new AbortController();
      const pending = search(100, { argBytes: 13, concurrency: 3, splitFiles: 1000 }, controller.signal);
      setTimeout(() => controller.abort(new Error('stopped by the test')), 50);
      await assert.rejects(pending, /stopped by the test/);
      await new Promise((r) => setTimeout(r, 400));
      const log = runs();
      assert.ok(log.filter((r) => r === 'start').length <= 3, `no batch starts after the stop (${log.join(' ')})`);
    });
  });
});
