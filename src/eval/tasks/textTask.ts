// The part every single-text task (niah, oolong, pairs) builds the same way: id, sizes and context.
import { formatLength } from './taskLength';
import type { BenchTask, SuiteName, TaskRequest } from './taskTypes';

export function textTask(
  request: TaskRequest,
  suite: SuiteName,
  text: string,
  label: string,
  graded: Pick<BenchTask, 'question' | 'answer' | 'scorer'>,
): BenchTask {
  return {
    id: `${suite}-${formatLength(request.lengthTokens)}-${request.index}`,
    suite,
    lengthTokens: request.lengthTokens,
    seed: request.seed,
    context: { kind: 'text', text, label },
    contextChars: text.length,
    ...graded,
  };
}
