// A lazy folder's file rewritten, deleted or grown while a search runs (a `git checkout`, a log being
// rotated) is an ordinary change, not an attack: its hits are left out and it is named in `changed`,
// and the search goes on with the other files. (A file that stops being a regular file inside the
// folder still refuses the whole search: searchSwaps.test.ts.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeContextFs, planPaths } from '../../../../src/core/context/contextPlan';
import type { ContextFs } from '../../../../src/core/context/contextPlan';
import type { ContextPlan } from '../../../../src/core/context/contextTypes';
import { hostSearch } from '../../../../src/core/context/hostSearch';
import type { SearchOutcome } from '../../../../src/core/context/searchTypes';

const RG = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : undefined;
const ENGINES: Array<{ name: string; ripgrepPath?: string }> = [...(RG ? [{ name: 'ripgrep', ripgrepPath: RG }] : []), { name: 'scan' }];
const PATTERN = { pattern: 'code is \\d+', flags: '', maxHits: 100 };

function found(outcome: SearchOutcome): { texts: string[]; changed: string[] } {
  assert.ok(!('fallback' in outcome), 'searched on the host');
  return { texts: outcome.hits.map((h) => `${h.path}: ${h.text}`), changed: outcome.changed };
}

describe('search over a lazy folder whose files change while searched', () => {
  let dir: string;
  let plan: ContextPlan;
  const file = (name: string): string => join(dir, 'proj', name);
  const write = (): void => {
    writeFileSync(file('a.txt'), 'the code is 1111\n');
    writeFileSync(file('b.txt'), 'nothing here\nthe code is 2222\n');
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-changed-'));
    mkdirSync(join(dir, 'proj'));
    for (let i = 0; i < 8; i++) writeFileSync(file(`pad${i}.txt`), `pad ${i}\n${'x'.repeat(1024)}\n`);
    write();
    plan = await planPaths(['proj'], { cwd: dir, maxTotalBytes: 4096 });
    assert.ok(plan.lazy);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const engine of ENGINES) {
    const options = (fs?: ContextFs) => ({ maxFileBytes: plan.maxFileBytes, ...(engine.ripgrepPath ? { ripgrepPath: engine.ripgrepPath } : {}), ...(fs ? { fs } : {}) });

    it(`${engine.name}: a listed file deleted is named in changed; the other files' hits are kept`, async () => {
      write();
      unlinkSync(file('a.txt'));
      try {
        const out = found(await hostSearch(PATTERN, plan.files, options()));
        assert.deepEqual(out.texts, ['proj/b.txt: the code is 2222']);
        // ripgrep cannot open it either and reports nothing of it; the scan sees it gone.
        if (engine.name === 'scan') assert.deepEqual(out.changed, ['proj/a.txt']);
      } finally {
        write();
      }
    });

    it(`${engine.name}: a listed file grown past the per-file limit is named in changed`, async () => {
      write();
      writeFileSync(file('a.txt'), `the code is 1111\n${'y'.repeat(plan.maxFileBytes + 10)}\n`);
      try {
        const out = found(await hostSearch(PATTERN, plan.files, options()));
        assert.deepEqual(out.texts, ['proj/b.txt: the code is 2222']);
        assert.deepEqual(out.changed, ['proj/a.txt']);
      } finally {
        write();
      }
    });

    it(`${engine.name}: with nothing changed, changed is empty`, async () => {
      write();
      const out = found(await hostSearch(PATTERN, plan.files, options()));
      assert.deepEqual(out.texts, ['proj/a.txt: the code is 1111', 'proj/b.txt: the code is 2222']);
      assert.deepEqual(out.changed, []);
    });
  }

  it('ripgrep: a file rewritten between ripgrep reading it and the host reading it back has all its hits left out', { skip: RG ? false : 'needs rg' }, async () => {
    write();
    // The host's read-back sees other bytes than ripgrep saw, as after a rewrite in between.
    const rewritten: ContextFs = {
      ...nodeContextFs,
      readInto(path, into, opts) {
        const result = nodeContextFs.readInto(path, into, opts);
        if (path.endsWith('b.txt') && result.kind === 'read') into.set(Buffer.from('the code is 9999'), 'nothing here\n'.length);
        return result;
      },
    };
    const out = found(await hostSearch(PATTERN, plan.files, { maxFileBytes: plan.maxFileBytes, ripgrepPath: RG!, fs: rewritten }));
    assert.deepEqual(out.texts, ['proj/a.txt: the code is 1111']);
    assert.deepEqual(out.changed, ['proj/b.txt']);
  });
});
