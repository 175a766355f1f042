// Aggregation over records (OOLONG style): counts and comparisons across inferred labels.
// Numeric answers score 0.75 ** |error|, the others exact match. Linear work.
import { RECORD_LABELS } from './recordLabels';
import type { RecordLabel } from './recordLabels';
import { countLabels, generateRecords, recordsText, RECORDS_PREAMBLE, userIds } from './recordSet';
import { SeededRandom } from './seededRandom';
import { textTask } from './textTask';
import { CHARS_PER_TOKEN } from './taskTypes';
import type { BenchTask, ScorerKind, TaskRequest } from './taskTypes';

export type OolongQuestionKind = 'count' | 'compare' | 'most-common';
const KINDS: readonly OolongQuestionKind[] = ['count', 'compare', 'most-common'];

const COMPARE_ANSWERS = ['more common than', 'less common than', 'same frequency as'] as const;

export function generateOolong(request: TaskRequest, kind?: OolongQuestionKind): BenchTask {
  const rng = new SeededRandom(request.seed);
  const chars = request.lengthTokens * CHARS_PER_TOKEN;
  const users = userIds(rng, Math.min(5_000, Math.max(20, Math.floor(chars / 800))));
  const weights = Object.fromEntries(RECORD_LABELS.map((l) => [l, 0.4 + rng.next() * 1.6])) as Record<RecordLabel, number>;
  const records = generateRecords(rng, chars, users, weights);
  const counts = countLabels(records);
  const chosen = kind ?? KINDS[request.index % KINDS.length]!;
  const [a, b] = rng.shuffle(RECORD_LABELS);
  let question: string;
  let answer: string;
  let scorer: ScorerKind = 'exact';
  if (chosen === 'count') {
    question = `How many records have an instance with the label '${a}'? Answer with a number only.`;
    answer = String(counts[a!]);
    scorer = 'numeric';
  } else if (chosen === 'compare') {
    question =
      `Is the label '${a}' more common than, less common than, or the same frequency as the label '${b}'? ` +
      `Answer with exactly one of: ${COMPARE_ANSWERS.join(', ')}.`;
    answer = counts[a!] > counts[b!] ? COMPARE_ANSWERS[0] : counts[a!] < counts[b!] ? COMPARE_ANSWERS[1] : COMPARE_ANSWERS[2];
  } else {
    question = 'Which label is the most common among all records? Answer with the label only.';
    const sorted = [...RECORD_LABELS].sort((x, y) => counts[y] - counts[x]);
    answer = sorted[0]!;
    if (counts[sorted[0]!] === counts[sorted[1]!]) {
      // A tie has no single right answer: ask for the count of the leader instead.
      question = `How many records have an instance with the label '${answer}'? Answer with a number only.`;
      answer = String(counts[sorted[0]!]);
      scorer = 'numeric';
    }
  }
  const text = recordsText(records);
  return textTask(request, 'oolong', text, 'oolong records', { question: `${RECORDS_PREAMBLE}${question}`, answer, scorer });
}
