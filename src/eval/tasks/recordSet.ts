// Builds OOLONG-style records: `Date: ... || User: <id> || Instance: <text>`, one per line, each with a
// hidden label. Shared by the aggregation (oolong) and pairs suites; answers are computed from the records.
import { instanceText, RECORD_LABELS } from './recordLabels';
import type { RecordLabel } from './recordLabels';
import type { SeededRandom } from './seededRandom';

export interface LabelledRecord {
  date: string;
  user: number;
  label: RecordLabel;
  line: string;
}

/** Which labels a user's records may take (all of them unless a pairs task restricts it). */
type LabelPlan = (user: number) => readonly RecordLabel[];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Average line length, used to size the record count before generating. */
const APPROX_RECORD_CHARS = 82;

function formatDate(dayIndex: number): string {
  const year = 2019 + Math.floor(dayIndex / 336);
  const month = MONTHS[Math.floor(dayIndex / 28) % 12]!;
  const day = String((dayIndex % 28) + 1).padStart(2, '0');
  return `${month} ${day}, ${year}`;
}

export function userIds(rng: SeededRandom, count: number): number[] {
  const ids = new Set<number>();
  while (ids.size < count) ids.add(rng.int(10_000, 99_999));
  return [...ids];
}

function makeRecord(rng: SeededRandom, dayIndex: number, user: number, label: RecordLabel): LabelledRecord {
  const date = formatDate(dayIndex);
  return { date, user, label, line: `Date: ${date} || User: ${user} || Instance: ${instanceText(label, rng)}` };
}

/**
 * Records filling about `chars` characters. `forced` records come first in the plan and are spread
 * through the text; the rest draw a user uniformly and a label by `weights` among the user's allowed labels.
 */
export function generateRecords(
  rng: SeededRandom,
  chars: number,
  users: readonly number[],
  weights: Record<RecordLabel, number>,
  plan: LabelPlan = () => RECORD_LABELS,
  forced: ReadonlyArray<{ user: number; label: RecordLabel }> = [],
): LabelledRecord[] {
  const count = Math.max(forced.length + 1, Math.floor(chars / APPROX_RECORD_CHARS));
  const days = 336 * 4;
  const draws: Array<{ user: number; label: RecordLabel }> = [...forced];
  while (draws.length < count) {
    const user = rng.pick(users);
    draws.push({ user, label: weightedPick(rng, plan(user), weights) });
  }
  const shuffled = rng.shuffle(draws);
  // Chronological order, as in a log: day indices are non-decreasing across the list.
  return shuffled.map((d, i) => makeRecord(rng, Math.floor((i * days) / shuffled.length), d.user, d.label));
}

function weightedPick(rng: SeededRandom, labels: readonly RecordLabel[], weights: Record<RecordLabel, number>): RecordLabel {
  const total = labels.reduce((s, l) => s + weights[l], 0);
  let x = rng.next() * total;
  for (const l of labels) {
    x -= weights[l];
    if (x < 0) return l;
  }
  return labels[labels.length - 1]!;
}

export function recordsText(records: readonly LabelledRecord[]): string {
  return records.map((r) => r.line).join('\n') + '\n';
}

export function countLabels(records: readonly LabelledRecord[]): Record<RecordLabel, number> {
  const counts = Object.fromEntries(RECORD_LABELS.map((l) => [l, 0])) as Record<RecordLabel, number>;
  for (const r of records) counts[r.label]++;
  return counts;
}

export const RECORDS_PREAMBLE =
  'Each line below is one record: a date, a user id and an instance (a question the user asked). ' +
  'Every instance belongs to exactly one of these labels, which is not written in the text and must be inferred: ' +
  RECORD_LABELS.map((l) => `'${l}'`).join(', ') +
  '.\n';
