// `rlm eval --scripted` end to end, in process: the scripted policy on fake servers through the real
// SDKs, the real loop and the real REPL (run `npm run build` first). It must score 100% on every
// suite; then an interrupted evaluation resumes without redoing finished tasks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runEval } from '../../../src/cli/commands/evalCommand';
import type { EvalResultsFile } from '../../../src/cli/eval/evalTypes';

const repo = resolve(__dirname, '../../../');
const distDir = join(repo, 'dist');
let out: string;

function sink(): { write(text: string): boolean; text: () => string } {
  let buf = '';
  return { write: (t: string) => ((buf += t), true), text: () => buf };
}

function io(stdout: { write(text: string): boolean } = sink(), stderr: { write(text: string): boolean } = sink()) {
  return { stdout, stderr, cwd: repo, distDir, env: {}, snapshotCacheDir: join(tmpdir(), 'rlm-repl-test-snapshots') };
}

before(() => {
  if (!existsSync(join(distDir, 'replProcess.js'))) throw new Error('dist/ is missing: run `npm run build` before this test');
  out = mkdtempSync(join(tmpdir(), 'rlm-eval-'));
});
after(() => rmSync(out, { recursive: true, force: true }));

test('the scripted policy scores 100% on all suites in all three modes, with results, table and trajectories', async () => {
  const stdout = sink();
  const stderr = sink();
  const dir = join(out, 'all');
  const code = await runEval(['--scripted', '--lengths', '8k', '--modes', 'rlm,direct,rlm-no-sub', '--out', dir], io(stdout, stderr));
  assert.equal(code, 0, stderr.text());
  const data = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as EvalResultsFile;
  assert.equal(data.label, 'scripted reference policy (not a model)');
  assert.equal(data.complete, true);
  assert.equal(data.results.length, 12);
  for (const r of data.results) {
    assert.equal(r.score, 1, `${r.id} ${r.mode}: ${r.answer} vs ${r.expected} (${r.error ?? r.status})`);
    assert.equal(r.scripted, true);
    assert.ok(existsSync(r.trajectory), r.trajectory);
    if (r.mode === 'rlm') assert.ok(r.subCalls >= 1 && r.iterations === 3, `${r.id}: ${r.subCalls} sub-calls, ${r.iterations} iterations`);
    if (r.mode === 'rlm-no-sub') assert.equal(r.subCalls, 0);
    assert.ok(r.inputTokens > 0 && r.outputTokens > 0);
  }
  assert.match(stdout.text(), /niah\s+rlm\s+100\.0%/);
  assert.match(stdout.text(), /scripted reference policy/);
  const table = readFileSync(join(dir, 'results.md'), 'utf8');
  assert.match(table, /\| code-8k-0 \| 8k \| rlm \| 1\.000 \|/);
  assert.match(table, /scripted reference policy/);
});

test('an interrupted evaluation resumes: only the missing results are run', async () => {
  const dir = join(out, 'resume');
  const args = ['--scripted', '--suite', 'niah,oolong', '--lengths', '8k', '--out', dir];
  assert.equal(await runEval(args, io()), 0);
  const file = join(dir, 'results.json');
  const first = JSON.parse(readFileSync(file, 'utf8')) as EvalResultsFile;
  // Simulate an interruption after the first task.
  writeFileSync(file, JSON.stringify({ ...first, complete: false, results: first.results.slice(0, 1) }));
  const stderr = sink();
  assert.equal(await runEval(args, io(sink(), stderr)), 1, 'without --resume an existing folder is refused');
  assert.match(stderr.text(), /--resume/);
  assert.equal(await runEval([...args, '--resume'], io()), 0);
  const second = JSON.parse(readFileSync(file, 'utf8')) as EvalResultsFile;
  assert.equal(second.complete, true);
  assert.deepEqual(second.results.map((r) => r.id), ['niah-8k-0', 'oolong-8k-0']);
  assert.deepEqual(second.results[0], first.results[0], 'the kept result is untouched');
  assert.equal(readdirSync(join(dir, 'trajectories')).length, 3, 'one trajectory per run, never overwritten');
  const mismatch = sink();
  assert.equal(await runEval(['--scripted', '--suite', 'niah', '--lengths', '8k', '--out', dir, '--resume'], io(sink(), mismatch)), 1);
  assert.match(mismatch.text(), /cannot resume .*suites differs/);
});

test('direct mode cuts an over-window context, records it as truncated, and scores what the model saw', async () => {
  const dir = join(out, 'direct');
  assert.equal(await runEval(['--scripted', '--suite', 'niah,oolong', '--lengths', '200k', '--tasks', '2', '--modes', 'direct', '--out', dir], io()), 0);
  const data = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as EvalResultsFile;
  assert.equal(data.results.length, 4);
  for (const r of data.results) {
    assert.ok(r.truncated, `${r.id} not marked truncated`);
    assert.ok(r.truncated.totalChars >= 790_000 && r.truncated.shownChars < 128_000 * 4, JSON.stringify(r.truncated));
    const record = JSON.parse(readFileSync(r.trajectory, 'utf8')) as { truncated: boolean; shownChars: number; response: string };
    assert.equal(record.truncated, true);
    assert.equal(record.shownChars, r.truncated.shownChars);
  }
  // The scripted reader counts only the visible records, so the counting task loses points.
  assert.ok(data.results.some((r) => r.score < 1), 'truncation should cost something');
  assert.match(readFileSync(join(dir, 'results.md'), 'utf8'), /truncated to [\d,]+ of [\d,]+ chars/);
});

test('Ctrl-C stops after the task in flight, keeps what finished, and --resume completes the rest', async () => {
  const dir = join(out, 'interrupt');
  const args = ['--scripted', '--suite', 'niah,pairs', '--lengths', '8k', '--out', dir];
  let interrupt: (() => void) | undefined;
  const stderr = {
    text: '',
    write(t: string) {
      this.text += t;
      if (t.includes('1/2')) interrupt?.();
      return true;
    },
  };
  const code = await runEval(args, { ...io(sink(), stderr), onInterrupt: (handler) => ((interrupt = handler), () => (interrupt = undefined)) });
  assert.equal(code, 130, stderr.text);
  assert.match(stderr.text, /continue with: rlm eval --resume --out/);
  const partial = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as EvalResultsFile;
  assert.equal(partial.complete, false);
  assert.deepEqual(partial.results.map((r) => r.id), ['niah-8k-0']);
  assert.equal(await runEval([...args, '--resume'], io()), 0);
  const full = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as EvalResultsFile;
  assert.deepEqual(full.results.map((r) => [r.id, r.score]), [['niah-8k-0', 1], ['pairs-8k-0', 1]]);
});
