// A recorded run's input paths are re-bound only inside the user's folders, checked on real paths:
// absolute paths out, `..`, links leading out (to a file or a folder), malformed values from a hostile
// JSON file. The controls: paths inside, a link that stays inside, a folder reached through a link.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebindRecordedInput, RecordedInputMissingError, RecordedInputOutsideError, RecordedInputUnnamedError } from '../../../../src/core/continuation/recordedInput';
import { describeRecordedModels, replayNoticeLine } from '../../../../src/core/continuation/recordedModels';

describe('rebindRecordedInput', () => {
  let base: string;
  let project: string;
  let other: string;
  let secret: string;

  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'rlm-recorded-input-')));
    project = join(base, 'project');
    other = join(base, 'other');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(other);
    mkdirSync(join(base, 'home', '.ssh'), { recursive: true });
    secret = join(base, 'home', '.ssh', 'id_rsa');
    writeFileSync(secret, 'PRIVATE KEY\n');
    writeFileSync(join(project, 'notes.txt'), 'alpha beta\n');
    writeFileSync(join(project, 'src', 'a.ts'), 'export {};\n');
    writeFileSync(join(other, 'only-here.txt'), 'x\n');
    symlinkSync(secret, join(project, 'innocent.txt'));
    symlinkSync(join(base, 'home'), join(project, 'docs'));
    symlinkSync(join(project, 'notes.txt'), join(project, 'alias.txt'));
    symlinkSync(project, join(base, 'project-link'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const refused = (paths: unknown[], why: RecordedInputOutsideError['why'], folders = [project]): RecordedInputOutsideError => {
    let caught: unknown;
    try {
      rebindRecordedInput(paths, folders);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof RecordedInputOutsideError, `expected a refusal for ${JSON.stringify(paths)}, got ${String(caught)}`);
    assert.equal(caught.why, why);
    return caught;
  };

  it('control: paths inside the folder are re-bound, relative to its real path, with file sizes', () => {
    const bound = rebindRecordedInput(['notes.txt', 'src'], [project]);
    assert.equal(bound.folder, project);
    assert.deepEqual(bound.entries.map((e) => [e.path, e.kind, e.bytes]), [['notes.txt', 'file', 11], ['src', 'folder', undefined]]);
    assert.deepEqual(rebindRecordedInput(['.'], [project]).entries.map((e) => [e.path, e.kind]), [['.', 'folder']]);
    // An absolute path inside is accepted, and bound relative to the folder.
    assert.deepEqual(rebindRecordedInput([join(project, 'notes.txt')], [project]).entries.map((e) => e.path), ['notes.txt']);
  });

  it('control: a link that stays inside is bound at its real path; a folder reached through a link is its real one', () => {
    assert.deepEqual(rebindRecordedInput(['alias.txt'], [project]).entries.map((e) => e.path), ['notes.txt']);
    const bound = rebindRecordedInput(['notes.txt'], [join(base, 'project-link')]);
    assert.equal(bound.folder, project);
    assert.deepEqual(bound.entries.map((e) => e.path), ['notes.txt']);
  });

  it('refuses an absolute path outside the folder, naming it', () => {
    const error = refused([secret], 'outside');
    assert.equal(error.path, secret);
    assert.equal(error.real, secret);
    assert.match(error.message, new RegExp(`^the recorded input ${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} lies outside `));
  });

  it('refuses `..` as written, even when it would land inside', () => {
    refused(['../home/.ssh/id_rsa'], 'climbs');
    refused(['src/../notes.txt'], 'climbs');
    refused(['src\\..\\..\\home'], 'climbs');
  });

  it('refuses a link inside the folder that leads out, to a file or through a folder', () => {
    assert.equal(refused(['innocent.txt'], 'outside').real, secret);
    assert.equal(refused(['docs/.ssh/id_rsa'], 'outside').real, secret);
    refused(['docs'], 'outside');
  });

  it('refuses the whole record when one of its paths is outside', () => {
    refused(['notes.txt', secret], 'outside');
  });

  it('refuses what a hostile JSON file can put there instead of a path', () => {
    refused([42], 'malformed');
    refused([{ path: 'notes.txt' }], 'malformed');
    refused([''], 'malformed');
    refused(['notes.txt\0'], 'malformed');
    assert.throws(() => rebindRecordedInput([], [project]), RecordedInputUnnamedError);
    assert.throws(() => rebindRecordedInput(undefined, [project]), RecordedInputUnnamedError);
  });

  it('tries the folders in order and says when none holds the paths', () => {
    const bound = rebindRecordedInput(['only-here.txt'], [project, other]);
    assert.equal(bound.folder, other);
    assert.throws(() => rebindRecordedInput(['nowhere.txt'], [project, other]), (e: unknown) => e instanceof RecordedInputMissingError && e.paths[0] === 'nowhere.txt');
    // Outside in one folder is a refusal even when another folder lacks the path.
    refused(['innocent.txt'], 'outside', [other, project]);
    assert.throws(() => rebindRecordedInput(['notes.txt'], []), RecordedInputMissingError);
  });

  it('uses only realpath and stat: nothing is opened', () => {
    const calls: string[] = [];
    const fs = {
      realpath: (p: string) => (calls.push(`realpath ${p}`), realpathSync.native(p)),
      stat: (p: string) => (calls.push(`stat ${p}`), { size: 1, isFile: () => true, isDirectory: () => false }),
    };
    rebindRecordedInput(['notes.txt'], [project], fs);
    assert.deepEqual(calls, [`realpath ${project}`, `realpath ${join(project, 'notes.txt')}`, `stat ${join(project, 'notes.txt')}`]);
  });
});

describe('the record\'s models, only shown', () => {
  it('describes them clipped and inert, whatever the record holds', () => {
    assert.equal(describeRecordedModels({ root: { provider: 'openai', model: 'evil', baseUrl: 'http://evil.example/v1' }, sub: { provider: 'openai', model: 'evil', baseUrl: 'http://evil.example/v1' } }), 'openai evil at http://evil.example/v1');
    assert.equal(describeRecordedModels({ root: { model: 'a' }, sub: { model: 'b' } }), 'a, sub model b');
    assert.equal(describeRecordedModels({ root: { model: { toString: 'x' } } }), undefined);
    assert.equal(describeRecordedModels('config'), undefined);
    assert.equal(describeRecordedModels(undefined), undefined);
    const shown = describeRecordedModels({ root: { model: `\u001b]8;;http://x\u0007click\u001b]8;;\u0007${'m'.repeat(500)}` } })!;
    assert.ok(!shown.includes('\u001b'));
    assert.ok(shown.length <= 80);
  });

  it('says what is replayed and whose models go on', () => {
    assert.equal(replayNoticeLine(1, 1, 'gpt-4.1-mini', 'openai evil'), 'replaying 1 recorded cell of 1 turn in the sandbox (sub-calls answered from the record) · models from your configuration (gpt-4.1-mini), not the record\'s (openai evil)');
    assert.match(replayNoticeLine(2, 3, 'm', undefined), /models from your configuration \(m\)$/);
  });
});
