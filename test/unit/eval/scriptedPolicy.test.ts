// The scripted reference policy's parts, without a REPL: the rule classifier against the generator's
// hidden labels, the sub-model's rule answers, the root's turn plan, and the direct-mode reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECORD_LABELS } from '../../../src/eval/tasks/recordLabels';
import type { RecordLabel } from '../../../src/eval/tasks/recordLabels';
import { generateRecords, userIds } from '../../../src/eval/tasks/recordSet';
import { SeededRandom } from '../../../src/eval/tasks/seededRandom';
import { generateNiah } from '../../../src/eval/tasks/niahTask';
import { generateOolong } from '../../../src/eval/tasks/oolongTask';
import { classifyInstance, parseRecordLine } from '../../../src/eval/scripted/ruleClassifier';
import { answerSubPrompt, UNRECOGNISED_REPLY } from '../../../src/eval/scripted/scriptedSubModel';
import { COUNT_PROMPT, DEFINES_PROMPT, NEEDLE_PROMPT, SEPARATOR, usersPrompt } from '../../../src/eval/scripted/subPrompts';
import { scriptedRootReply, UNRECOGNISED_QUESTION } from '../../../src/eval/scripted/scriptedRoot';
import { scriptedDirectReply } from '../../../src/eval/scripted/scriptedDirect';
import { parseQuestion } from '../../../src/eval/scripted/questionParse';
import { buildDirectPrompt, NO_SUB_CALLS_NOTE } from '../../../src/eval/modePrompts';
import type { ChatMessage } from '../../../src/core/models/modelTypes';

test('the rule classifier recovers every hidden label the generator assigns', () => {
  const rng = new SeededRandom(42);
  const weights = Object.fromEntries(RECORD_LABELS.map((l) => [l, 1])) as Record<RecordLabel, number>;
  const records = generateRecords(rng, 400_000, userIds(rng, 50), weights);
  assert.ok(records.length > 4_000);
  for (const r of records) assert.equal(classifyInstance(parseRecordLine(r.line)!.instance), r.label, r.line);
});

test('the sub-model answers the needle, count, users and defines prompts from the slice alone', () => {
  assert.equal(answerSubPrompt(`${NEEDLE_PROMPT}${SEPARATOR}blah. The secret key is 12345678. more`), '12345678');
  assert.equal(answerSubPrompt(`${NEEDLE_PROMPT}${SEPARATOR}nothing here`), 'NONE');
  const slice = [
    'Date: Jan 01, 2020 || User: 11111 || Instance: Who invented the violin?',
    'Date: Jan 01, 2020 || User: 22222 || Instance: Where was Marie Curie born?',
    'Date: Jan 02, 2020 || User: 11111 || Instance: Where is the oldest market in Porto?',
  ].join('\n');
  const counts = answerSubPrompt(`${COUNT_PROMPT}${SEPARATOR}${slice}`);
  assert.match(counts, /^location: 2$/m);
  assert.match(counts, /^human being: 1$/m);
  assert.match(counts, /^abbreviation: 0$/m);
  assert.equal(answerSubPrompt(`${usersPrompt('location', 'human being')}${SEPARATOR}${slice}`), 'location: 22222, 11111\nhuman being: 11111');
  assert.equal(answerSubPrompt(`${DEFINES_PROMPT} \`foo\`? Reply YES or NO.${SEPARATOR}const x = 1; function foo(a) {}`), 'YES');
  assert.equal(answerSubPrompt(`${DEFINES_PROMPT} \`foo\`? Reply YES or NO.${SEPARATOR}foo(1)`), 'NO');
  assert.equal(answerSubPrompt('Summarise this text please'), UNRECOGNISED_REPLY);
});

function conversation(question: string, turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: `Question: ${question}\n\n\`context\` is a str with 100 characters.` }];
  for (let i = 0; i < turns; i++) messages.push({ role: 'assistant', content: '```repl\npass\n```' }, { role: 'user', content: 'Output: ok' });
  return messages;
}

test('the scripted root looks first, then works with sub-calls, then answers from a variable', () => {
  const question = generateOolong({ lengthTokens: 8_000, seed: 1, index: 0 }, 'count').question;
  const look = scriptedRootReply(conversation(question, 0));
  const work = scriptedRootReply(conversation(question, 1));
  const answer = scriptedRootReply(conversation(question, 2));
  assert.match(look, /```repl\n[\s\S]*len\(context\)[\s\S]*```/);
  assert.doesNotMatch(look, /FINAL/);
  assert.match(work, /llm_query_batched/);
  assert.match(answer, /FINAL_VAR\("result"\)/);
  const noSub = scriptedRootReply(conversation(`${question}\n\n${NO_SUB_CALLS_NOTE}`, 1));
  assert.doesNotMatch(noSub, /llm_query/);
  assert.match(noSub, /def classify/);
  assert.match(scriptedRootReply(conversation('What colour is the sky?', 0)), new RegExp(UNRECOGNISED_QUESTION));
});

test('parseQuestion recognises every generated question kind', () => {
  assert.deepEqual(parseQuestion(generateNiah({ lengthTokens: 8_000, seed: 1, index: 0 }).question), { suite: 'niah' });
  const compare = parseQuestion(generateOolong({ lengthTokens: 8_000, seed: 1, index: 0 }, 'compare').question);
  assert.equal(compare?.suite, 'oolong');
  assert.equal(compare?.suite === 'oolong' && compare.kind, 'compare');
});

test('direct mode records truncation, and the scripted reader sees only what fits', () => {
  const task = generateNiah({ lengthTokens: 200_000, seed: 4, index: 0 }, 0.9);
  const prompt = buildDirectPrompt(task.question, task.context, 32_000, 1_000);
  assert.equal(prompt.truncated, true);
  assert.equal(prompt.totalChars, 800_000);
  assert.ok(prompt.shownChars < 32_000 * 4 && prompt.shownChars > 100_000);
  assert.equal(scriptedDirectReply(prompt.messages[0]!.content), 'NONE');
  const whole = buildDirectPrompt(task.question, task.context, 300_000, 1_000);
  assert.equal(whole.truncated, false);
  assert.equal(scriptedDirectReply(whole.messages[0]!.content), task.answer);
});
