// A recorded run's references are hostile: clicking one opens only a file inside the folders it is
// looked for in (workspace folders, the folder the run was asked in). On the old code the opener
// took an absolute path or a `..` path as it was, and a link in the folder that leads out, so a
// record shipped in .rlm/runs could open (and, for notebooks and PDFs, parse) any file of the user's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceTarget } from '../../../../src/core/citations/referenceContainment';

describe('referenceTarget', () => {
  let dir: string;
  let workspace: string;
  let project: string;
  let secret: string;
  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'rlm-ref-containment-')));
    workspace = join(dir, 'workspace');
    project = join(dir, 'project');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    mkdirSync(project);
    mkdirSync(join(dir, 'home', '.ssh'), { recursive: true });
    secret = join(dir, 'home', '.ssh', 'id_rsa');
    writeFileSync(secret, 'PRIVATE KEY\n');
    writeFileSync(join(workspace, 'src', 'a.ts'), 'a\n');
    writeFileSync(join(project, 'log.txt'), 'l\n');
    symlinkSync(secret, join(workspace, 'key-link.txt'));
    symlinkSync(join(dir, 'home'), join(workspace, 'home-link'));
    symlinkSync(join(workspace, 'src', 'a.ts'), join(workspace, 'inner-link.ts'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const exists = async (abs: string): Promise<boolean> => {
    try {
      return statSync(abs).isFile();
    } catch {
      return false;
    }
  };
  const target = (path: string) => referenceTarget(path, [workspace, project], exists);

  it('opens a file inside a root, under whichever root holds it (control)', async () => {
    assert.deepEqual(await target('src/a.ts'), { kind: 'inside', abs: join(workspace, 'src', 'a.ts'), real: join(workspace, 'src', 'a.ts') });
    assert.equal((await target('log.txt')).kind, 'inside');
    assert.equal((await target(join(workspace, 'src', 'a.ts'))).kind, 'inside', 'an absolute path inside is fine');
    assert.equal((await target('inner-link.ts')).kind, 'inside', 'a link that stays inside is fine');
  });

  it('refuses an absolute path, a `..` path and a link that lead outside, naming where they lead', async () => {
    for (const path of [secret, '../home/.ssh/id_rsa', 'src/../../home/.ssh/id_rsa', 'key-link.txt', 'home-link/.ssh/id_rsa']) {
      assert.deepEqual(await target(path), { kind: 'outside', real: secret }, path);
    }
  });

  it('says missing for a file that is nowhere', async () => {
    assert.deepEqual(await target('nope.ts'), { kind: 'missing' });
    assert.deepEqual(await target(join(dir, 'nope')), { kind: 'missing' });
  });
});
