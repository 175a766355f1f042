// The VS Code side of a lazy folder: the files findFiles listed become a lazy plan with the eager
// gathering's per-file checks (a link out, a binary name, over the per-file limit), sorted, with the
// roots the host confines reads to; a target past rlm.workspaceLimitGb is refused; VS Code's own ripgrep
// is found under its appRoot.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextTooLargeError } from '../../../src/core/context/contextErrors';
import { admissibleBytes, checkCandidates, planLazyWorkspace } from '../../../src/vscode/context/lazyWorkspacePlan';
import { vscodeRipgrepPath } from '../../../src/vscode/context/vscodeRipgrep';

describe('lazy workspace plan', () => {
  let dir: string;
  let root: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-lazyws-'));
    root = join(dir, 'ws');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src', 'b.ts'), 'b'.repeat(100));
    writeFileSync(join(root, 'src', 'a.ts'), 'a'.repeat(50));
    writeFileSync(join(root, 'big.log'), 'x'.repeat(5000));
    writeFileSync(join(root, 'logo.png'), 'png');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'src', 'link.ts'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const candidates = (): Array<{ path: string; fsPath: string; root: string; rootReal: string }> =>
    ['src/b.ts', 'src/a.ts', 'big.log', 'logo.png', 'src/link.ts'].map((path) => ({ path, fsPath: join(root, path), root, rootReal: realpathSync(root) }));

  it('lists the files that pass the checks, sorted, with their sizes and the roots', async () => {
    const plan = await planLazyWorkspace(candidates(), { maxFileBytes: 1000, contextLimitBytes: 100, workspaceLimitBytes: 10_000 }, 'folder', ['ws'], () => false);
    assert.deepEqual(plan.files.map((f) => [f.path, f.bytes]), [['src/a.ts', 50], ['src/b.ts', 100]]);
    assert.deepEqual(plan.lazy, { listLimitBytes: 10_000, roots: [realpathSync(root)] });
    assert.equal(plan.maxTotalBytes, 100);
    assert.equal(plan.totalBytes, 150);
    assert.equal(new TextDecoder().decode(plan.head), 'a'.repeat(50));
    assert.deepEqual(plan.target.skipped.map((s) => [s.path, s.reason]).sort(), [['big.log', 'too-large'], ['logo.png', 'binary'], ['src/link.ts', 'link-outside']]);
  });

  it('looks at every file without reading it: the bytes an eager gathering would bind decide the mode before anything is read', async () => {
    const list = candidates();
    const checked = await checkCandidates(list, () => false);
    assert.deepEqual(checked.map((c) => (c.kind === 'file' ? c.size : c.reason)), [100, 50, 5000, 3, 'link-outside']);
    // The binary name and the file over the per-file limit do not count; the link out is never looked through.
    assert.equal(admissibleBytes(list, checked, 1000), 150);
    assert.equal(admissibleBytes(list, checked, 10_000), 5150);
    const limits = { maxFileBytes: 1000, contextLimitBytes: 100, workspaceLimitBytes: 10_000 };
    assert.deepEqual(await planLazyWorkspace(list, limits, 'folder', ['ws'], () => false, checked), await planLazyWorkspace(list, limits, 'folder', ['ws'], () => false));
    await assert.rejects(checkCandidates(list, () => true), /cancelled/);
  });

  it('refuses a target past the workspace limit', async () => {
    await assert.rejects(planLazyWorkspace(candidates(), { maxFileBytes: 10_000, contextLimitBytes: 100, workspaceLimitBytes: 1000 }, 'folder', ['ws'], () => false), ContextTooLargeError);
  });

  it("finds VS Code's own ripgrep under its appRoot", () => {
    const app = join(dir, 'app');
    const bin = join(app, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(bin, { recursive: true });
    assert.equal(vscodeRipgrepPath(app, 'linux'), undefined);
    writeFileSync(join(bin, 'rg'), '#!/bin/sh\n');
    chmodSync(join(bin, 'rg'), 0o755);
    assert.equal(vscodeRipgrepPath(app, 'linux'), join(bin, 'rg'));
  });
});
