// The sub-call prompts the scripted root writes, and the reply formats it parses. A real sub-model gets
// exactly these prompts too; the scripted sub-model recognises them by their opening words.
import { SCRIPTED_LABELS } from './ruleClassifier';

const LABEL_LIST = SCRIPTED_LABELS.map((l) => `'${l}'`).join(', ');

export const SEPARATOR = '\n---\n';

export const NEEDLE_PROMPT = 'Find the secret key stated in this text. Reply with only its digits, or NONE if there is none.';

export const COUNT_PROMPT =
  `Classify the Instance of every record below into exactly one of these labels: ${LABEL_LIST}. ` +
  'Reply with one line per label in the form `label: count`, giving how many records below have that label.';

/** Asks only for the users of two labels, so the reply stays short however many users a slice holds. */
export const USERS_PROMPT_HEAD = `Classify the Instance of every record below into exactly one of these labels: ${LABEL_LIST}. For each of the labels`;
export function usersPrompt(a: string, b: string): string {
  return (
    `${USERS_PROMPT_HEAD} '${a}' and '${b}', list the user ids that have at least one record below with that label. ` +
    `Reply with exactly two lines: \`${a}: id, id, ...\` and \`${b}: id, id, ...\` (an empty list when there are none).`
  );
}

export const DEFINES_PROMPT = 'Does the code below define a function named';
