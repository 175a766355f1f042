// Continue… / Fork… planning with injected workspace folders, modal and planner: a hostile record's
// input outside the workspace (absolute, `..`, a link leading out) is refused in one sentence before
// any prompt; inside, the paths, their size and the user's models (not the record's) are shown in the
// modal, and nothing is planned (read) unless the user accepts. The control: a well-formed record's
// input is planned from the workspace folder under the user's limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { planPaths } from '../../../src/core/context/contextPlan';
import type { RunNode } from '../../../src/core/trajectory/treeTypes';
import { confirmRecordedInput, locateRecordedInput } from '../../../src/vscode/commands/continuePlan';
import { TargetRefusedError } from '../../../src/vscode/errors/extensionErrors';
import { readRlmSettings } from '../../../src/vscode/settings/rlmSettings';

const EVIL = { provider: 'openai' as const, model: 'attacker-model', baseUrl: 'http://attacker.example/v1' };

function recordNaming(paths: string[], kind: 'file' | 'files' | 'folder' | 'workspace' | 'text' = 'files'): RunNode {
  return {
    runId: 'r1',
    depth: 0,
    question: 'q',
    target: { kind, paths, totalBytes: 0, fileCount: paths.length, skipped: [] },
    config: { root: EVIL, sub: { ...EVIL, model: 'attacker-sub' }, maxIterations: 999, maxDepth: 9, maxSubCalls: 999_999, maxConsecutiveErrors: 3, cellTimeoutMs: 1, subCallTimeoutMs: 1, subCallMaxTokens: 1, subCallConcurrency: 512, observationMaxChars: 1, outputCaptureMaxChars: 1 },
    startedAt: 0,
    status: 'completed',
    forced: false,
    turns: [{ turn: 1, cells: [{ code: 'print(1)', subCalls: [] }, { code: 'print(2)', subCalls: [] }] }],
    limitWarnings: [],
    fallbacks: [],
    totals: {},
  } as unknown as RunNode;
}

const settings = readRlmSettings((key) => ({ 'root.provider': 'openai', 'root.baseUrl': 'http://127.0.0.1:9/v1', 'root.model': 'user-model', contextLimitMb: 3, maxFileSizeKb: 7 })[key]);
const words = { action: 'Continue this run', accept: 'Read and continue' };

describe('Continue… / Fork… planning (continuePlan.ts)', () => {
  let base: string;
  let workspace: string;
  let secret: string;

  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'rlm-continue-plan-')));
    workspace = join(base, 'ws');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    mkdirSync(join(base, 'home', '.ssh'), { recursive: true });
    secret = join(base, 'home', '.ssh', 'id_rsa');
    writeFileSync(secret, 'PRIVATE KEY\n');
    writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\n');
    writeFileSync(join(workspace, 'src', 'a.ts'), 'export {};\n');
    symlinkSync(secret, join(workspace, 'innocent.txt'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  /** Deps that record every modal and every planning, so a test sees what was shown and what was read. */
  const spy = (answer: boolean) => {
    const shown: Array<{ message: string; detail: string; accept: string }> = [];
    const planned: Array<{ paths: string[]; options: Parameters<typeof planPaths>[1] }> = [];
    return {
      shown,
      planned,
      deps: {
        folders: [join(base, 'elsewhere'), workspace],
        confirm: (message: string, detail: string, accept: string) => (shown.push({ message, detail, accept }), Promise.resolve(answer)),
        plan: ((paths: string[], options: Parameters<typeof planPaths>[1]) => (planned.push({ paths, options }), Promise.reject(new Error('not read in this test')))) as typeof planPaths,
      },
    };
  };

  for (const [route, paths] of [
    ['an absolute path outside', (): string[] => [secret]],
    ['a path climbing with ..', (): string[] => ['../home/.ssh/id_rsa']],
    ['a link in the workspace leading out', (): string[] => ['innocent.txt']],
    ['one path of several outside', (): string[] => ['notes.txt', secret]],
  ] as const) {
    it(`refuses ${route} in one sentence, before any modal, and reads nothing`, async () => {
      const named = paths();
      const { deps, shown, planned } = spy(true);
      const run = recordNaming(named);
      assert.throws(() => locateRecordedInput(run, deps), (e: unknown) => e instanceof TargetRefusedError && e.reason === 'outside-workspace');
      await assert.rejects(confirmRecordedInput(run, settings, words, deps), (e: unknown) => {
        assert.ok(e instanceof TargetRefusedError);
        const outside = named.find((p) => p !== 'notes.txt')!;
        assert.ok(e.message.startsWith(`This run's recorded input ${outside} `), e.message);
        assert.match(e.message, /so it is not read: open the folder that holds it as a workspace folder, or continue from a terminal with rlm continue FILE --context PATH\.$/);
        assert.equal(e.message.split(/\.\s/).length, 1, 'one sentence');
        return true;
      });
      assert.equal(shown.length, 0);
      assert.equal(planned.length, 0);
    });
  }

  it('refuses a record with no workspace open, and an input that was text', () => {
    assert.throws(() => locateRecordedInput(recordNaming(['notes.txt']), { folders: [] }), /read again only from an open workspace folder/);
    assert.throws(() => locateRecordedInput(recordNaming(['notes.txt'], 'text'), { folders: [workspace] }), /not a file or folder on disk/);
  });

  it('shows the paths, their size and the user\'s models (not the record\'s), and reads nothing when declined', async () => {
    const { deps, shown, planned } = spy(false);
    const gather = await confirmRecordedInput(recordNaming(['notes.txt', 'src']), settings, words, deps);
    assert.equal(gather, undefined);
    assert.equal(planned.length, 0);
    assert.equal(shown.length, 1);
    const [modal] = shown;
    assert.equal(modal!.message, `Continue this run: read these 2 paths again from ${workspace}?`);
    assert.equal(modal!.accept, 'Read and continue');
    assert.match(modal!.detail, /^ {2}notes\.txt \(11 B\)\n {2}src\/\n/);
    assert.match(modal!.detail, /Total: 11 B in 1 file and 1 folder \(not measured before you agree\)\./);
    assert.match(modal!.detail, /replayed in the sandbox/);
    assert.match(modal!.detail, /Models from your settings \(user-model\), not the record's \(openai attacker-model at http:\/\/attacker\.example\/v1, sub model openai attacker-sub at http:\/\/attacker\.example\/v1\)\./);
  });

  it('control: accepted, only the confirmed paths are planned, from the workspace folder, under the user\'s limits', async () => {
    const { deps, planned } = spy(true);
    const gather = await confirmRecordedInput(recordNaming(['notes.txt', 'src']), settings, words, deps);
    assert.ok(gather);
    assert.equal(planned.length, 0, 'nothing is planned before the run gathers');
    await assert.rejects(gather(), /not read in this test/);
    assert.deepEqual(planned.map((p) => p.paths), [['notes.txt', 'src']]);
    assert.equal(planned[0]!.options?.cwd, workspace);
    assert.equal(planned[0]!.options?.maxTotalBytes, settings.contextLimitBytes);
    assert.equal(planned[0]!.options?.maxFileBytes, settings.maxFileBytes);
    assert.equal(planned[0]!.options?.maxListedBytes, settings.workspaceLimitBytes);
  });

  it('a workspace run, recorded under its folder\'s name, continues over that folder; a multi-root folder run over name/path', async () => {
    const named = (answer: boolean) => {
      const s = spy(answer);
      return { ...s, deps: { ...s.deps, folderNames: ['elsewhere', 'ws'] } };
    };
    const whole = named(true);
    const gather = await confirmRecordedInput(recordNaming(['ws'], 'workspace'), settings, words, whole.deps);
    assert.ok(gather);
    await assert.rejects(gather(), /not read in this test/);
    assert.deepEqual(whole.planned.map((p) => p.paths), [['.']]);
    assert.equal(whole.planned[0]!.options?.cwd, workspace);
    assert.match(whole.shown[0]!.message, /read this path again from /);

    const sub = named(true);
    const gatherSub = await confirmRecordedInput(recordNaming(['ws/src'], 'folder'), settings, words, sub.deps);
    assert.ok(gatherSub);
    await assert.rejects(gatherSub(), /not read in this test/);
    assert.deepEqual(sub.planned.map((p) => p.paths), [['src']]);

    // Control: the name means the folder only for a workspace run; a folder run's "ws" in one root is a path under it.
    assert.throws(() => locateRecordedInput(recordNaming(['ws'], 'folder'), { folders: [workspace], folderNames: ['ws'] }), /is not in this workspace/);
    // And without the names (as before) the label names nothing.
    assert.throws(() => locateRecordedInput(recordNaming(['ws'], 'workspace'), { folders: [workspace] }), /is not in this workspace/);
  });

  it('refuses at read time a confirmed path that was swapped for a link leading out after the modal', async () => {
    const swapped = join(workspace, 'swapped.txt');
    writeFileSync(swapped, 'harmless\n');
    const { deps, planned } = spy(true);
    const gather = await confirmRecordedInput(recordNaming(['swapped.txt']), settings, words, deps);
    assert.ok(gather);
    rmSync(swapped);
    symlinkSync(secret, swapped);
    await assert.rejects(gather(), (e: unknown) => e instanceof TargetRefusedError && /swapped\.txt .*lies outside the workspace folders/.test(e.message));
    assert.equal(planned.length, 0);
  });

  it('control: the real planner binds a well-formed record\'s input', async () => {
    const gather = await confirmRecordedInput(recordNaming(['notes.txt']), settings, words, { folders: [workspace], confirm: () => Promise.resolve(true) });
    const plan = await gather!();
    assert.deepEqual(plan.target.paths, ['notes.txt']);
    assert.equal(plan.totalBytes, 11);
  });
});
