// Files of a lazy folder that change after the walk listed them, searched and read through the lazy
// context host (a real ripgrep, and the scan without it): a file swapped for a link to a file outside
// the folder never yields the outside file's line, also while it is swapped back and forth during many
// searches; a FIFO swapped in is refused and said, for reads and for search, and never blocks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import type { ContextPlan } from '../../../../src/core/context/contextTypes';
import { hostSearch } from '../../../../src/core/context/hostSearch';
import { LazyContextHost } from '../../../../src/core/repl/lazyContextHost';
import type { ContextCall } from '../../../../src/core/repl/replTypes';

const RG = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : undefined;
const ENGINES: Array<{ name: string; ripgrepPath?: string }> = [...(RG ? [{ name: 'ripgrep', ripgrepPath: RG }] : []), { name: 'scan' }];

const search = (pattern: string): ContextCall => ({ kind: 'context_search', pattern, flags: '', maxHits: 100, paths: null });
const read = (paths: string[]): ContextCall => ({ kind: 'context_read', paths });

describe('lazy folder files changed after the walk', { skip: process.platform === 'win32' ? 'symlinks and FIFOs as on POSIX' : false }, () => {
  let dir: string;
  let plan: ContextPlan;
  const target = (): string => join(dir, 'proj', 'code.txt');
  const inside = 'the code is 1111-INSIDE\n';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-swaps-'));
    mkdirSync(join(dir, 'proj'));
    // Over the 4 KB eager limit: bound lazily, with the real path of proj as its root.
    for (let i = 0; i < 8; i++) writeFileSync(join(dir, 'proj', `pad${i}.txt`), `pad ${i}\n${'x'.repeat(1024)}\n`);
    writeFileSync(target(), inside);
    writeFileSync(join(dir, 'outside.txt'), 'the code is 0000-OUTSIDE\n');
    plan = await planPaths(['proj'], { cwd: dir, maxTotalBytes: 4096 });
    assert.ok(plan.lazy, 'the folder is bound lazily');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const restore = (): void => {
    rmSync(target(), { force: true });
    writeFileSync(target(), inside);
  };

  for (const engine of ENGINES) {
    const host = (): LazyContextHost => new LazyContextHost(plan, engine.ripgrepPath ? { ripgrepPath: engine.ripgrepPath } : {});

    it(`${engine.name}: control, the listed file is found`, async () => {
      restore();
      const out = JSON.parse(await host().answer(search('code is \\d+-[A-Z]+'), new AbortController().signal)) as { hits: Array<{ text: string }> };
      assert.deepEqual(
        out.hits.map((h) => h.text),
        ['the code is 1111-INSIDE'],
      );
    });

    it(`${engine.name}: a listed file swapped for a link out never yields the outside line`, async () => {
      restore();
      const lazy = host();
      unlinkSync(target());
      symlinkSync(join(dir, 'outside.txt'), target());
      try {
        await assert.rejects(lazy.answer(search('code is \\d+-[A-Z]+'), new AbortController().signal), (error: Error) => {
          assert.doesNotMatch(error.message, /OUTSIDE/);
          assert.match(error.message, /code\.txt became a link/);
          return true;
        });
        const texts = JSON.parse(await lazy.answer(read(['proj/code.txt']), new AbortController().signal)) as { texts: Array<string | null>; errors: Array<string | null> };
        assert.deepEqual(texts.texts, [null]);
        assert.match(texts.errors[0]!, /link/);
      } finally {
        restore();
      }
    });

    it(`${engine.name}: swapped back and forth during 100 searches, never a hit from the outside file`, async () => {
      restore();
      const lazy = host();
      // Another process swaps the file for a link out and back, as fast as it can, by atomic renames.
      const swapper = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('fs'); const [t, out] = process.argv.slice(1);
           for (;;) { try { fs.symlinkSync(out, t + '.l'); fs.renameSync(t + '.l', t); fs.writeFileSync(t + '.f', ${JSON.stringify(inside)}); fs.renameSync(t + '.f', t); } catch {} }`,
          target(),
          join(dir, 'outside.txt'),
        ],
        { stdio: 'ignore' },
      );
      // Each search either finds the inside line, is refused (the file was a link when read back), or
      // leaves the file out as changed (ripgrep read the outside file through the link, and the host's
      // read-back found the inside bytes again): never the outside line.
      const seen = { inside: 0, refused: 0, leftOut: 0 };
      try {
        for (let i = 0; i < 100; i++) {
          try {
            const out = JSON.parse(await lazy.answer(search('code is \\d+-[A-Z]+'), new AbortController().signal)) as { hits: Array<{ text: string }>; changed: string[] };
            for (const hit of out.hits) assert.equal(hit.text, 'the code is 1111-INSIDE', `search ${i} returned a line from outside the folder`);
            if (out.hits.length) seen.inside++;
            else if (out.changed.includes('proj/code.txt')) seen.leftOut++;
          } catch (error) {
            assert.doesNotMatch((error as Error).message, /OUTSIDE/);
            assert.match((error as Error).message, /code\.txt (became a link|changed while searched|was replaced or removed while read)/);
            seen.refused++;
          }
        }
      } finally {
        swapper.kill('SIGKILL');
        await new Promise((resolve) => swapper.once('exit', resolve));
        rmSync(`${target()}.l`, { force: true });
        rmSync(`${target()}.f`, { force: true });
        restore();
      }
      assert.ok(seen.inside + seen.refused + seen.leftOut === 100, JSON.stringify(seen));
    });

    it(`${engine.name}: a FIFO swapped in is refused for search and for reads, without blocking`, { timeout: 20_000 }, async () => {
      restore();
      const lazy = host();
      rmSync(target());
      assert.equal(spawnSync('mkfifo', [target()]).status, 0);
      try {
        const started = performance.now();
        await assert.rejects(lazy.answer(search('code is'), new AbortController().signal), /code\.txt became a FIFO/);
        const out = JSON.parse(await lazy.answer(read(['proj/code.txt', 'proj/pad0.txt']), new AbortController().signal)) as { texts: Array<string | null>; errors: Array<string | null> };
        assert.equal(out.texts[0], null, 'never read as an empty text');
        assert.match(out.errors[0]!, /special \(became a FIFO/);
        assert.match(out.texts[1]!, /^pad 0/, 'control: the other file is read');
        assert.ok(performance.now() - started < 5000, `ended in ${Math.round(performance.now() - started)} ms`);
      } finally {
        restore();
      }
    });
  }

  // The sweep on its own: ripgrep never ends on this file, so no hit is ever read back and checked.
  it('ripgrep: a listed file swapped for a link to an endless device ends at the sweep', { skip: RG && existsSync('/dev/zero') ? false : 'needs rg and /dev/zero', timeout: 20_000 }, async () => {
    restore();
    unlinkSync(target());
    symlinkSync('/dev/zero', target());
    try {
      const started = performance.now();
      await assert.rejects(hostSearch({ pattern: 'code is', flags: '', maxHits: 10 }, plan.files, { ripgrepPath: RG!, maxFileBytes: plan.maxFileBytes, sweepMs: 200 }), /code\.txt became a link while searched/);
      assert.ok(performance.now() - started < 3000, `ended in ${Math.round(performance.now() - started)} ms`);
    } finally {
      restore();
    }
  });

  it('a folder on the way swapped for a link out is refused on the descriptor, for reads and for search', async () => {
    const sub = join(dir, 'proj', 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, 'deep.txt'), 'the code is 2222-DEEP\n');
    const plan2 = await planPaths(['proj'], { cwd: dir, maxTotalBytes: 4096 });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'deep.txt'), 'the code is 3333-ELSEWHERE\n');
    renameSync(sub, join(dir, 'moved'));
    symlinkSync(join(dir, 'elsewhere'), sub);
    try {
      for (const engine of ENGINES) {
        const lazy = new LazyContextHost(plan2, engine.ripgrepPath ? { ripgrepPath: engine.ripgrepPath } : {});
        await assert.rejects(lazy.answer(search('3333|2222'), new AbortController().signal), /sub\/deep\.txt now lies at .*elsewhere/, engine.name);
        const out = JSON.parse(await lazy.answer(read(['proj/sub/deep.txt']), new AbortController().signal)) as { texts: Array<string | null>; errors: Array<string | null> };
        assert.deepEqual(out.texts, [null]);
        assert.match(out.errors[0]!, /link-outside/);
      }
    } finally {
      rmSync(sub);
      renameSync(join(dir, 'moved'), sub);
      rmSync(sub, { recursive: true });
    }
  });
});
