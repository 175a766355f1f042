// Needle in a haystack (S-NIAH style): one unique fact at a chosen depth in filler. Exact match.
import { fillerText } from './fillerText';
import { SeededRandom } from './seededRandom';
import { textTask } from './textTask';
import { CHARS_PER_TOKEN } from './taskTypes';
import type { BenchTask, TaskRequest } from './taskTypes';

const NIAH_QUESTION = 'What is the secret key stated in the text? Answer with the number only.';

export function generateNiah(request: TaskRequest, depth?: number): BenchTask {
  const rng = new SeededRandom(request.seed);
  const key = String(rng.int(10_000_000, 99_999_999));
  const needle = ` The secret key is ${key}. `;
  const totalChars = request.lengthTokens * CHARS_PER_TOKEN;
  const hayChars = Math.max(0, totalChars - needle.length);
  const hay = fillerText(rng, hayChars);
  // Depth in [0.05, 0.95] unless given: never at the very edges, where a peek would find it by luck.
  const at = Math.floor(hay.length * (depth ?? 0.05 + rng.next() * 0.9));
  const text = hay.slice(0, at) + needle + hay.slice(at);
  return textTask(request, 'niah', text, 'niah haystack', { question: NIAH_QUESTION, answer: key, scorer: 'exact' });
}
