// The rule-based sub-model of the scripted policy: answers the per-slice questions the scripted root
// asks, from the slice's own text, by rule. Prompts it does not recognise get a reply saying so, which
// the root then sees as a wrong answer: nothing is guessed.
import { classifyInstance, parseRecordLine, SCRIPTED_LABELS } from './ruleClassifier';
import { COUNT_PROMPT, DEFINES_PROMPT, NEEDLE_PROMPT, SEPARATOR, USERS_PROMPT_HEAD } from './subPrompts';

export const UNRECOGNISED_REPLY = 'UNRECOGNISED PROMPT: the scripted sub-model answers only the scripted policy\'s prompts.';

function body(prompt: string): string {
  const at = prompt.indexOf(SEPARATOR);
  return at < 0 ? '' : prompt.slice(at + SEPARATOR.length);
}

export function answerSubPrompt(prompt: string): string {
  if (prompt.startsWith(NEEDLE_PROMPT)) {
    const m = /secret key is (\d+)/.exec(body(prompt));
    return m ? m[1]! : 'NONE';
  }
  if (prompt.startsWith(COUNT_PROMPT)) {
    const counts = new Map<string, number>(SCRIPTED_LABELS.map((l) => [l, 0]));
    let unknown = 0;
    for (const line of body(prompt).split('\n')) {
      const rec = parseRecordLine(line);
      if (!rec) continue;
      const label = classifyInstance(rec.instance);
      if (label) counts.set(label, counts.get(label)! + 1);
      else unknown++;
    }
    const lines = [...counts].map(([l, n]) => `${l}: ${n}`);
    if (unknown) lines.push(`unclassified: ${unknown}`);
    return lines.join('\n');
  }
  if (prompt.startsWith(USERS_PROMPT_HEAD)) {
    const wanted = /For each of the labels '([^']+)' and '([^']+)'/.exec(prompt);
    if (!wanted) return UNRECOGNISED_REPLY;
    const users = new Map<string, Set<number>>([
      [wanted[1]!, new Set()],
      [wanted[2]!, new Set()],
    ]);
    for (const line of body(prompt).split('\n')) {
      const rec = parseRecordLine(line);
      const label = rec && classifyInstance(rec.instance);
      if (rec && label) users.get(label)?.add(rec.user);
    }
    return [...users].map(([label, ids]) => `${label}: ${[...ids].join(', ')}`).join('\n');
  }
  if (prompt.startsWith(DEFINES_PROMPT)) {
    const name = /named `([^`]+)`/.exec(prompt)?.[1];
    if (!name) return 'NO';
    const escaped = name.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
    return new RegExp(`\\bfunction\\s*\\*?\\s*${escaped}\\s*\\(`).test(body(prompt)) ? 'YES' : 'NO';
  }
  return UNRECOGNISED_REPLY;
}
