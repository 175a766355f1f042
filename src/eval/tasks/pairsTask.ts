// Pairs (OOLONG-Pairs style): every pair of user ids where both users satisfy a condition on the labels
// of their instances. F1 over the pairs. Quadratic work.
import { RECORD_LABELS } from './recordLabels';
import type { RecordLabel } from './recordLabels';
import { generateRecords, recordsText, RECORDS_PREAMBLE, userIds } from './recordSet';
import type { LabelledRecord } from './recordSet';
import { SeededRandom } from './seededRandom';
import { textTask } from './textTask';
import { CHARS_PER_TOKEN } from './taskTypes';
import type { BenchTask, TaskRequest } from './taskTypes';

type PairsCondition = 'both' | 'without';

export function generatePairs(request: TaskRequest, condition?: PairsCondition): BenchTask {
  const rng = new SeededRandom(request.seed);
  const chars = request.lengthTokens * CHARS_PER_TOKEN;
  const users = userIds(rng, Math.min(3_000, Math.max(30, Math.floor(chars / 600))));
  // The qualifying set grows slowly with length so the answer stays listable (at most ~1,000 pairs).
  const target = Math.min(users.length - 5, 8 + Math.floor(Math.log2(chars / 10_000 + 1) * 4));
  const kind = condition ?? (request.index % 2 === 0 ? 'both' : 'without');
  const [a, b] = rng.shuffle(RECORD_LABELS) as [RecordLabel, RecordLabel];
  const chosen = new Set(rng.shuffle(users).slice(0, target));
  const weights = Object.fromEntries(RECORD_LABELS.map((l) => [l, 1])) as Record<RecordLabel, number>;
  const withoutA = RECORD_LABELS.filter((l) => l !== a);
  const withoutB = RECORD_LABELS.filter((l) => l !== b);
  // Chosen users may take every label except (for 'without') b; the others are kept off the condition.
  const plan = (u: number): readonly RecordLabel[] =>
    chosen.has(u) ? (kind === 'both' ? RECORD_LABELS : withoutB) : kind === 'both' ? (u % 2 ? withoutA : withoutB) : withoutA;
  const forced = [...chosen].flatMap((user) => (kind === 'both' ? [{ user, label: a }, { user, label: b }] : [{ user, label: a }]));
  const records = generateRecords(rng, chars, users, weights, plan, forced);
  const pairs = qualifyingPairs(records, kind, a, b);
  const condText =
    kind === 'both'
      ? `has at least one instance with the label '${a}' and at least one instance with the label '${b}'`
      : `has at least one instance with the label '${a}' and no instance with the label '${b}'`;
  const question =
    `${RECORDS_PREAMBLE}List every pair of user ids where both users satisfy this condition: the user ${condText}. ` +
    'Give one pair per line as `id1, id2` with the smaller id first, sorted, and nothing else.';
  const text = recordsText(records);
  return textTask(request, 'pairs', text, 'pairs records', { question, answer: pairs.map(([x, y]) => `${x}, ${y}`).join('\n'), scorer: 'pairsF1' });
}

/** Computed from the records themselves, not from the generation plan. */
function qualifyingPairs(records: readonly LabelledRecord[], kind: PairsCondition, a: RecordLabel, b: RecordLabel): Array<[number, number]> {
  const labels = new Map<number, Set<RecordLabel>>();
  for (const r of records) {
    const set = labels.get(r.user) ?? new Set<RecordLabel>();
    set.add(r.label);
    labels.set(r.user, set);
  }
  const ok = [...labels]
    .filter(([, s]) => (kind === 'both' ? s.has(a) && s.has(b) : s.has(a) && !s.has(b)))
    .map(([u]) => u)
    .sort((x, y) => x - y);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < ok.length; i++) for (let j = i + 1; j < ok.length; j++) out.push([ok[i]!, ok[j]!]);
  return out;
}
