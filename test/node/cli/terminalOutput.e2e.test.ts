// Model and file text printed by the CLI is inert in a terminal: no clear-screen, retitling, hyperlink,
// clipboard write or cursor move reaches it from `rlm ask` (answer, -v cell errors, partial findings),
// `rlm show`, `rlm eval`'s progress and report, or the live progress line. --json stays exact JSON.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgressLine } from '../../../src/cli/support/progressLine';
import { ProgressBar } from '../../../src/cli/eval/progressBar';
import { markdownReport } from '../../../src/cli/eval/evalResults';
import type { EvalResultsFile } from '../../../src/cli/eval/evalTypes';
import { inertJson } from '../../../src/shared/text/untrustedText';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';
import { TERMINAL_ATTACKS, TERMINAL_HOSTILE, firstRawControl } from '../../fixtures/hostile/terminalAttacks';

/** A command-line argument cannot hold NUL; everything else goes into the question. */
const QUESTION = `What? ${TERMINAL_HOSTILE.replace('\u0000', '')}`;
/** JSON string escapes are valid Python string escapes, so this is the hostile text as a Python literal. */
const PY_HOSTILE = JSON.stringify(TERMINAL_HOSTILE);

function assertInert(text: string, where: string): void {
  const raw = firstRawControl(text);
  assert.equal(raw, undefined, `${where} printed a raw control character ${raw?.code} near ${raw?.around}`);
}


/** Turn 1 prints the hostile text and raises an error carrying it; turn 2 answers with it. */
function hostileScript(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return `\`\`\`repl\nprint(${PY_HOSTILE})\nraise ValueError(${PY_HOSTILE})\n\`\`\``;
  return `\`\`\`repl\nFINAL(${PY_HOSTILE})\n\`\`\``;
}

describe('rlm ask and rlm show print hostile text inert (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-term-'));
    // A file with NUL is refused as binary; the rest of the attacks go into it.
    writeFileSync(join(dir, 'log.txt'), `${TERMINAL_HOSTILE.replace('\u0000', '')}\n`);
    server = await startFakeModelServer({ protocol: 'openai', respond: hostileScript });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the answer and the -v cell error with their control characters made visible; newlines and tabs stay', async () => {
    const out = await runCli(['ask', 'log.txt', '-q', QUESTION, ...model(), '-v', '--trajectory', 'a.rlm.jsonl'], dir);
    assert.equal(out.code, 0, out.stderr);
    assertInert(out.stdout, 'the answer on stdout');
    assertInert(out.stderr, 'the -v notes on stderr');
    assert.ok(out.stdout.includes('\\x1b[2J\\x1b[H'), out.stdout);
    assert.ok(out.stdout.includes('\\x1b]0;owned by the model\\x07'));
    assert.ok(out.stdout.includes('all good\\rrm -rf ~'));
    assert.ok(out.stdout.includes('\\u202eexe.txt'));
    assert.ok(out.stdout.includes('second line\tafter a tab\n'), 'newlines and tabs are kept');
    assert.match(out.stderr, /cell error: ValueError: .*\\x1b\[2J/);
  });

  it('--json carries the exact answer and question as JSON with no raw control character', async () => {
    const out = await runCli(['ask', 'log.txt', '-q', QUESTION, ...model(), '--json', '--trajectory', 'b.rlm.jsonl'], dir);
    assert.equal(out.code, 0, out.stderr);
    assertInert(out.stdout, 'ask --json');
    const json = JSON.parse(out.stdout) as { answer: string };
    assert.equal(json.answer, TERMINAL_HOSTILE);
  });

  it('rlm show prints the question and answer inert, and --json gives them exactly', async () => {
    const shown = await runCli(['show', 'b.rlm.jsonl'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assertInert(shown.stdout, 'rlm show');
    assert.match(shown.stdout, /Question: {3}What\? .*\\x1b\[2J/);
    assert.match(shown.stdout, /Answer: {5}.*\\x1b\]8;;https:\/\/evil\.example/);
    const json = await runCli(['show', 'b.rlm.jsonl', '--json'], dir);
    assertInert(json.stdout, 'rlm show --json');
    const summary = JSON.parse(json.stdout) as { question: string; answer: string };
    assert.equal(summary.answer, TERMINAL_HOSTILE);
    assert.equal(summary.question, QUESTION);
  });

  it('partial findings after a limit are printed inert on stderr', async () => {
    // A model that only ever prints: the run ends at the limit with its last output as partial findings.
    const printer = await startFakeModelServer({ protocol: 'openai', respond: () => `\`\`\`repl\nprint(${PY_HOSTILE})\n\`\`\`` });
    const out = await runCli(['ask', 'log.txt', '-q', 'q', '--provider', 'openai', '--base-url', printer.baseUrl, '--model', 'fake', '--max-iterations', '1', '--trajectory', 'c.rlm.jsonl'], dir);
    await printer.close();
    assert.equal(out.code, 3, out.stderr);
    assert.match(out.stderr, /partial findings/);
    assertInert(out.stderr, 'partial findings');
    assert.ok(out.stderr.includes('\\x1b]52;c;'), out.stderr);
  });
});

test('the live progress line writes only its own redraw sequences; notes are inert', () => {
  let written = '';
  const line = new ProgressLine({ write: (t: string) => (written += t), isTTY: true }, 0, () => 1000);
  line.update({ type: 'run.started', runId: 'r' } as never);
  line.note(`rlm: turn 1: ${TERMINAL_HOSTILE}`);
  line.stop();
  const withoutOwn = written.split('\r\u001b[2K').join('');
  assertInert(withoutOwn, 'the progress line');
  assert.ok(written.includes('\r\u001b[2K'), 'the line still redraws itself on a terminal');
});

test("rlm eval's progress bar and Markdown report keep model text inert", () => {
  let written = '';
  const bar = new ProgressBar({ write: (t: string) => (written += t), isTTY: true }, 1, 0, () => 0);
  bar.finished(1, 'niah-32k-0 rlm', `error: ${TERMINAL_HOSTILE}`);
  bar.stop();
  assertInert(written.split('\r').join(''), 'the eval progress bar');
  const data = {
    version: 1, label: 'm', startedAt: 's', updatedAt: 'u', complete: true,
    plan: { suites: ['niah'], lengths: [32_000], modes: ['rlm'], tasksPerLength: 1, seed: 1, scripted: false, root: { provider: 'openai', model: 'r' }, sub: { provider: 'openai', model: 's' } },
    results: [{ id: 'niah-32k-0', suite: 'niah', lengthTokens: 32_000, mode: 'rlm', score: 0, status: 'error', error: `<script>x</script> ${TERMINAL_HOSTILE}`, answer: '', expected: 'x', inputTokens: 0, outputTokens: 0, costUsd: 0, wallTimeMs: 0, subCalls: 0, iterations: 0, contextChars: 0, trajectory: 't', scripted: false }],
  } as EvalResultsFile;
  const md = markdownReport(data);
  assertInert(md, 'results.md');
  assert.ok(md.includes('&lt;script&gt;'));
  assert.equal(md.split('\n').filter((l) => l.startsWith('| niah-32k-0')).length, 1, 'the error stays on its table row');
});

test('inertJson parses back to the same value for every control character, and prints none raw', () => {
  let all = '';
  for (let c = 0; c <= 0xa0; c++) all += String.fromCharCode(c);
  all += '\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
  const value = { all, nested: [all, { k: all }], ...TERMINAL_ATTACKS };
  const text = inertJson(value, 2);
  assertInert(text, 'inertJson');
  assert.deepEqual(JSON.parse(text), value);
});
