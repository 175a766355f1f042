// The scripted root model: plays a competent RLM. From the question alone it picks the code to write,
// one ```repl cell per turn: look at `context`, do the work over slices, then answer with FINAL_VAR.
import type { ChatMessage } from '../../core/models/modelTypes';
import { NO_SUB_CALLS_NOTE } from '../modePrompts';
import { parseQuestion } from './questionParse';
import { answerCell, LOOK_CELL, workCell } from './rootCells';

export const UNRECOGNISED_QUESTION = 'UNRECOGNISED QUESTION';

function cell(prose: string, code: string): string {
  return `${prose}\n\`\`\`repl\n${code}\n\`\`\``;
}

/** The root's reply to a conversation so far (system text excluded). */
export function scriptedRootReply(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const turn = messages.filter((m) => m.role === 'assistant').length;
  const last = messages[messages.length - 1]?.content ?? '';
  // The loop's last-chance request at the iteration limit: no code runs any more, so answer in prose.
  if (turn > 0 && /no more code will run/i.test(last)) return 'NO ANSWER: the scripted policy ran out of turns';
  const question = parseQuestion(first);
  if (!question) return cell('I do not recognise this task.', `FINAL(${JSON.stringify(UNRECOGNISED_QUESTION)})`);
  const noSub = first.includes(NO_SUB_CALLS_NOTE);
  if (turn === 0) return cell('First, a look at the shape of `context`.', LOOK_CELL);
  if (turn === 1) return cell('Now the work, over slices of the context.', workCell(question, noSub));
  if (turn === 2) return cell('Build the answer from what was gathered and finish.', answerCell(question));
  // Reaching here means the answer cell did not end the run: end it visibly rather than loop.
  return cell('The answer cell did not finish the run; giving up.', 'FINAL("NO ANSWER: the answer cell failed")');
}
