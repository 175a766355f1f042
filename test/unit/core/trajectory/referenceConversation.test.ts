// A reference log whose logger served several questions imports as a conversation: one top-level run
// per question, with what each run's namespace says about the REPL it used; the other shapes of the
// reference's logs import, and what is not understood is reported, never dropped silently.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { toNotebook } from '../../../../src/core/trajectory/exportIpynb';
import { toMarkdown } from '../../../../src/core/trajectory/exportMarkdown';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { summarizeTrajectory } from '../../../../src/core/trajectory/trajectorySummary';
import { SESSION_ANSWERS, SESSION_QUESTIONS, referenceCall, referenceSessionLog } from '../../../fixtures/trajectories/referenceSession';
import type { Question } from '../../../fixtures/trajectories/referenceSession';
import { nbformatViolations } from './nbformatCheck';
import { tempDir } from './tempDir';

const dir = tempDir('ref-conversation');
let n = 0;
function logFile(text: string): string {
  const path = join(dir, `log-${++n}.jsonl`);
  writeFileSync(path, text);
  return path;
}
const lines = (...entries: Array<Record<string, unknown> | string>): string => `${entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n')}\n`;
const questionText = (q: Question): string => q.prompt as string;

const session = logFile(referenceSessionLog());

test('six questions in one log become six runs, each with its question, turns, answer, status and totals', async () => {
  const read = await readTrajectory(session);
  assert.deepEqual(read.problems, []);
  assert.equal(read.runs.length, 6);
  assert.equal(read.tree, read.runs[0]);
  assert.deepEqual(read.runs.map((r) => r.question), SESSION_QUESTIONS.map(questionText));
  assert.deepEqual(read.runs.map((r) => r.answer), SESSION_ANSWERS);
  assert.deepEqual(read.runs.map((r) => r.status), Array(6).fill('completed'));
  // Each run counts its own turns from 1, although the log's iteration numbers run on.
  assert.deepEqual(read.runs.map((r) => r.turns.map((t) => t.turn)), [[1, 2, 3], [1, 2], [1, 2, 3], [1], [1, 2], [1, 2]]);
  assert.ok(read.runs.every((r) => r.depth === 0 && r.parentRunId === undefined));
  // Only the second question made a sub-call: its figures are its own.
  assert.deepEqual(read.runs.map((r) => r.totals.subCalls), [0, 1, 0, 0, 0, 0]);
  assert.equal(read.runs[1]!.totals.inputTokens, 120);
  assert.ok(read.runs.every((r) => r.totals.wallTimeMs > 0));
  // Runs follow one another in time.
  for (let i = 1; i < 6; i++) assert.ok(read.runs[i]!.startedAt >= read.runs[i - 1]!.finishedAt!);
  const header = read.header!;
  assert.ok(header.format === 'rlm-python-jsonl');
  assert.equal(header.question, questionText(SESSION_QUESTIONS[0]!));
  assert.equal((header.metadata.backend_kwargs as Record<string, unknown>).api_key, '[REDACTED]');
});

test('each run says how it stood to the one before: chat turn or not, REPL kept or new, where its input was bound', async () => {
  const { runs } = await readTrajectory(session);
  const [q1, q2, q3, q4, q5, q6] = runs;
  assert.deepEqual(q1!.session, { chat: false, contextVariable: 'completion_context' });
  // The second question reads `words` without defining it: the REPL of the first was kept.
  assert.deepEqual(q2!.session, { chat: false, contextVariable: 'completion_context', carriedOver: ['words'], repl: 'shared' });
  // The chat session started in a new REPL: the earlier variables were gone.
  assert.deepEqual(q3!.session, { chat: true, contextVariable: 'session_context_0', repl: 'new' });
  // A run with no code shows nothing of its REPL.
  assert.deepEqual(q4!.session, { chat: true, repl: 'unknown' });
  // The sixth prints y before changing it: found, not defined.
  assert.deepEqual(q6!.session?.carriedOver, ['y']);
  assert.equal(q6!.session?.repl, 'shared');
  assert.equal(q5!.session?.chat, false);
  // A chat turn's root saw the session's earlier turns; a completion's saw none.
  assert.deepEqual(q4!.priorTurns, [{ question: 'Name a fruit.', answer: '"Mango"' }]);
  assert.equal(q2!.priorTurns, undefined);
  // A cell shows what its block added, not the whole namespace the reference records.
  assert.deepEqual(q2!.turns[0]!.cells[0]!.newVariables, ['completion_context', 'long']);
  assert.deepEqual(q1!.turns[1]!.cells[0]!.newVariables, ['words']);
  assert.equal(q1!.context?.type, 'str');
  assert.equal(q1!.context?.totalChars, questionText(SESSION_QUESTIONS[0]!).length);
});

test('the summary lists every question with its own figures, and the totals cover them all', async () => {
  const s = await summarizeTrajectory(session);
  assert.equal(s.runs.length, 6);
  assert.deepEqual(s.runs.map((r) => r.answer), SESSION_ANSWERS);
  assert.deepEqual(s.runs.map((r) => r.turns), [3, 2, 3, 1, 2, 2]);
  assert.equal(s.turns, 13);
  assert.equal(s.subCalls, 1);
  assert.equal(s.inputTokens, 120);
  assert.equal(s.runs[1]!.inputTokens, 120);
  assert.equal(s.status, 'completed');
  assert.equal(s.question, questionText(SESSION_QUESTIONS[0]!));
  assert.equal(s.runs[5]!.session?.repl, 'shared');
  assert.ok(s.wallTimeMs >= s.runs.reduce((n, r) => n + r.wallTimeMs, 0));
});

test('both exports show every question and answer, each run\'s figures and the total', async () => {
  const { runs } = await readTrajectory(session);
  const md = toMarkdown(runs);
  assert.match(md, /^# RLM conversation report/);
  for (const [i, q] of SESSION_QUESTIONS.entries()) {
    assert.ok(md.includes(`## Question ${i + 1} of 6`), `section ${i + 1}`);
    assert.ok(md.includes(questionText(q).slice(0, 30)), `question ${i + 1}`);
  }
  for (const a of SESSION_ANSWERS) assert.ok(md.includes(a.replace(/"/g, '')), `answer ${a}`);
  assert.match(md, /## Totals of the conversation[\s\S]*\| Turns \| 13 \|[\s\S]*\| Sub-calls \| 1 \|/);
  assert.match(md, /REPL kept from question 1 \(found words\)/);
  const nb = toNotebook(runs);
  assert.deepEqual(nbformatViolations(JSON.parse(JSON.stringify(nb))), []);
  const text = nb.cells.map((c) => c.source.join('')).join('\n');
  for (const [i, q] of SESSION_QUESTIONS.entries()) assert.ok(text.includes(`Question ${i + 1} of 6: ${questionText(q).slice(0, 20)}`), `notebook question ${i + 1}`);
  for (const a of SESSION_ANSWERS) assert.ok(text.includes(a.replace(/"/g, '')), `notebook answer ${a}`);
  const meta = nb.metadata.rlm as { conversation: Array<{ answer: string; turns: number }>; totals: { subCalls: number } };
  assert.deepEqual(meta.conversation.map((r) => r.answer), SESSION_ANSWERS);
  assert.deepEqual(meta.conversation.map((r) => r.turns), [3, 2, 3, 1, 2, 2]);
  assert.equal(meta.totals.subCalls, 1);
  // One run exports as before: no conversation parts.
  assert.doesNotMatch(toMarkdown(runs[0]!), /conversation/);
});

test('logs of the newer logger (no run_context, the count starting again at 1) split into runs too', async () => {
  const questions = SESSION_QUESTIONS.map((q, i) => (i === 1 ? { ...q, rootPrompt: 'How many long words?' } : q));
  const read = await readTrajectory(logFile(referenceSessionLog(questions, { withRunContext: false })));
  assert.deepEqual(read.problems, []);
  assert.equal(read.runs.length, 6);
  assert.deepEqual(read.runs.map((r) => r.answer), SESSION_ANSWERS);
  // The question comes from the root's "Answer the following: …" when a root_prompt was given.
  assert.equal(read.runs[1]!.question, 'How many long words?');
  assert.equal(read.runs[0]!.question, '');
});

test('root_prompt is the question and the prompt payload is the input, whatever its shape', async () => {
  const read = await readTrajectory(
    logFile(
      lines(
        { type: 'metadata', root_model: 'm', max_iterations: 5 },
        { type: 'run_context', prompt: { doc: 'alpha beta', notes: ['x'] }, root_prompt: 'Which word comes first?', session_mode: false },
        { type: 'iteration', iteration: 1, prompt: [], response: 'FINAL(alpha)', code_blocks: [], final_answer: 'alpha' },
      ),
    ),
  );
  const run = read.runs[0]!;
  assert.equal(run.question, 'Which word comes first?');
  assert.equal(run.context?.type, 'dict');
  assert.equal(run.context?.totalChars, JSON.stringify({ doc: 'alpha beta', notes: ['x'] }).length);
  assert.equal(run.answer, 'alpha');
});

test('a compacted root history shows as a compaction on the run, with its summary', async () => {
  const history = (count: number) => Array.from({ length: count }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: i === 2 && count === 4 ? 'Summary: found 3 of 5 parts.' : `m${i}` }));
  const read = await readTrajectory(
    logFile(
      lines(
        { type: 'run_context', prompt: 'p', root_prompt: 'q', session_mode: false },
        { type: 'iteration', iteration: 1, prompt: history(3), response: 'a', code_blocks: [] },
        { type: 'iteration', iteration: 2, prompt: history(9), response: 'b', code_blocks: [] },
        { type: 'iteration', iteration: 3, prompt: history(4), response: 'FINAL(5)', code_blocks: [], final_answer: '5' },
      ),
    ),
  );
  const run = read.runs[0]!;
  assert.equal(run.fallbacks.length, 1);
  assert.equal(run.fallbacks[0]!.kind, 'compaction');
  assert.match(run.fallbacks[0]!.detail, /before turn 3 .*compacted \(9 messages to 4\): Summary: found 3 of 5 parts\./);
});

test('depth metadata on a call becomes a child run with its own turns and the model its run_metadata names', async () => {
  const child = { run_metadata: { root_model: 'child-model', max_depth: 2 }, iterations: [{ type: 'iteration', iteration: 1, response: 'FINAL(2, 3, 5)', code_blocks: [], final_answer: '2, 3, 5' }] };
  const read = await readTrajectory(
    logFile(
      lines(
        { type: 'metadata', root_model: 'root-model', max_depth: 2 },
        { type: 'run_context', prompt: 'p', root_prompt: 'primes?', session_mode: false },
        {
          type: 'iteration',
          iteration: 1,
          response: '```repl\nprimes = rlm_query("first primes")\n```',
          code_blocks: [{ code: 'primes = rlm_query("first primes")', result: { stdout: '', stderr: '', locals: { primes: '2, 3, 5' }, rlm_calls: [{ ...referenceCall('first primes', '2, 3, 5', 50, 5, 0.0001), root_model: undefined, metadata: child }] } }],
          final_answer: '2, 3, 5',
        },
      ),
    ),
  );
  assert.deepEqual(read.problems, []);
  const call = read.runs[0]!.turns[0]!.cells[0]!.subCalls[0]!;
  assert.equal(call.kind, 'rlm_query');
  assert.equal(call.model.model, 'child-model');
  assert.equal(call.child?.depth, 1);
  assert.equal(call.child?.answer, '2, 3, 5');
  assert.equal(call.child?.turns.length, 1);
});

test('what is not understood is reported with its line, never dropped silently', async () => {
  const path = logFile(
    lines(
      { type: 'metadata', root_model: 'm1' },
      { type: 'run_context', prompt: 'first', session_mode: false },
      { type: 'iteration', iteration: 1, response: 'thinking', code_blocks: 'print(1)' },
      { type: 'run_context', prompt: 'second', session_mode: 'yes' },
      { type: 'iteration', iteration: 2, response: 'x', code_blocks: ['not a block', { code: 'print(2)', result: { stdout: '2\n', locals: {} } }], final_answer: '2' },
      { type: 'checkpoint', note: 'a line type the importer does not know' },
      { type: 'metadata', root_model: 'm2' },
      '[1, 2, 3]',
      { no_type: true },
    ),
  );
  const read = await readTrajectory(path);
  const byLine = read.problems.map((p) => `${p.line}:${p.kind}`);
  assert.ok(byLine.includes('3:invalid-record'), `code_blocks not a list: ${byLine}`);
  assert.ok(read.problems.some((p) => p.line === 4 && /question 1 has no final answer/.test(p.message)), 'an unanswered question is reported');
  assert.ok(read.problems.some((p) => p.line === 4 && /session_mode "yes"/.test(p.message)));
  assert.ok(read.problems.some((p) => p.line === 5 && /code block 1 of turn 1 is not an object/.test(p.message)));
  assert.ok(read.problems.some((p) => p.line === 6 && p.kind === 'unknown-event' && /"checkpoint"/.test(p.message)));
  assert.ok(read.problems.some((p) => p.line === 7 && /second metadata line \(root model m2\)/.test(p.message)));
  assert.ok(read.problems.some((p) => p.line === 8 && p.kind === 'invalid-record'));
  assert.ok(read.problems.some((p) => p.line === 9 && p.kind === 'unknown-event'));
  assert.deepEqual(read.unknownEvents.map((u) => u.line), [6, 9]);
  // What was understood is kept: the first question is there, unanswered; the second answered.
  assert.equal(read.runs.length, 2);
  assert.equal(read.runs[0]!.status, 'incomplete');
  assert.equal(read.runs[0]!.turns.length, 1);
  assert.equal(read.runs[1]!.answer, '2');
  assert.equal(read.runs[1]!.turns[0]!.cells.length, 1);
  const summary = await summarizeTrajectory(path);
  assert.equal(summary.problemCount, read.problems.length);
  assert.equal(summary.unknownEvents, 2);
  assert.equal(summary.status, 'incomplete');
});

test('an answer given after max_iterations turns (the reference\'s last "give a final answer" turn) is marked forced', async () => {
  const turn = (i: number, final?: string) => ({ type: 'iteration', iteration: i, response: final ? 'the answer' : 'more', code_blocks: [], final_answer: final ?? null });
  const read = await readTrajectory(logFile(lines({ type: 'metadata', root_model: 'm', max_iterations: 2 }, { type: 'run_context', prompt: 'p', session_mode: false }, turn(1), turn(2), turn(3, 'best guess'))));
  const run = read.runs[0]!;
  assert.equal(run.status, 'forced');
  assert.equal(run.forced, true);
  assert.equal(run.answer, 'best guess');
  const within = await readTrajectory(logFile(lines({ type: 'metadata', root_model: 'm', max_iterations: 2 }, { type: 'run_context', prompt: 'p', session_mode: false }, turn(1), turn(2, 'on time'))));
  assert.equal(within.runs[0]!.status, 'completed');
});
