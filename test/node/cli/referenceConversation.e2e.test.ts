// `rlm show` and `rlm export`, run as a user runs them, on a reference log of six questions in one
// persistent session: every question and answer is printed and exported, with each one's figures.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { SESSION_ANSWERS, SESSION_QUESTIONS, referenceSessionLog } from '../../fixtures/trajectories/referenceSession';
import { tempDir } from '../../unit/core/trajectory/tempDir';
import { assertCliBuilt, runCli } from './cliProcess';

const dir = tempDir('cli-ref-conversation');
const log = join(dir, 'session.jsonl');
const questions = SESSION_QUESTIONS.map((q) => q.prompt as string);

before(() => {
  assertCliBuilt();
  writeFileSync(log, referenceSessionLog());
});

test('rlm show prints every question with its answer, status, figures and REPL, then the total', async () => {
  const { code, stdout, stderr } = await runCli(['show', log], dir);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /Conversation: 6 questions/);
  const blocks = stdout.split(/\n(?=Question \d of 6: )/).slice(1);
  assert.equal(blocks.length, 6, stdout);
  blocks.forEach((block, i) => {
    assert.ok(block.startsWith(`Question ${i + 1} of 6: ${questions[i]}`), block);
    assert.match(block, new RegExp(`Answer: +${SESSION_ANSWERS[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    assert.match(block, /Status: +Answered · \d turns? · \d cells? · \d sub-calls? · tokens /);
  });
  assert.match(blocks[1]!, /1 sub-call · tokens 120 in \/ 8 out · ≥ \$0\.00030 · /);
  assert.match(blocks[1]!, /Session: +completion \(session_mode off\).*REPL kept from question 1 \(found words\)/);
  assert.match(blocks[2]!, /Session: +chat turn \(session_mode on\).*a new REPL/);
  assert.match(blocks[5]!, /REPL kept from question 5 \(found y\)/);
  assert.match(stdout, /Total of the 6 questions:\nStatus: +Answered\nTurns: +13 +Cells: +6\nSub-calls: +1\nTokens: +120 in \/ 8 out/);
  assert.match(stdout, /Problems: +none/);
});

test('rlm show --json gives every run as data', async () => {
  const { code, stdout } = await runCli(['show', log, '--json'], dir);
  assert.equal(code, 0);
  const summary = JSON.parse(stdout) as { runs: Array<{ question: string; answer: string; turns: number }>; turns: number };
  assert.deepEqual(summary.runs.map((r) => r.question), questions);
  assert.deepEqual(summary.runs.map((r) => r.answer), SESSION_ANSWERS);
  assert.equal(summary.turns, 13);
});

test('rlm export writes every question and answer to Markdown and to a notebook', async () => {
  const md = join(dir, 'session.md');
  const nb = join(dir, 'session.ipynb');
  assert.equal((await runCli(['export', log, '--to', 'md', '-o', md], dir)).code, 0);
  assert.equal((await runCli(['export', log, '--to', 'ipynb', '-o', nb], dir)).code, 0);
  const report = readFileSync(md, 'utf8');
  const notebook = JSON.parse(readFileSync(nb, 'utf8')) as { cells: Array<{ source: string[] }>; metadata: { rlm: { conversation: Array<{ question: string; answer: string }> } } };
  const cells = notebook.cells.map((c) => c.source.join('')).join('\n');
  questions.forEach((q, i) => {
    assert.ok(report.includes(`## Question ${i + 1} of 6`), `md section ${i + 1}`);
    assert.ok(report.includes(q), `md question ${i + 1}`);
    assert.ok(cells.includes(`Question ${i + 1} of 6: ${q}`), `notebook question ${i + 1}`);
  });
  for (const a of SESSION_ANSWERS) {
    const plain = a.replace(/"/g, '');
    assert.ok(report.includes(plain), `md answer ${a}`);
    assert.ok(cells.includes(plain), `notebook answer ${a}`);
  }
  assert.deepEqual(notebook.metadata.rlm.conversation.map((r) => r.answer), SESSION_ANSWERS);
});
