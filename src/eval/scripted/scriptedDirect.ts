// The scripted policy in `direct` mode: a perfect reader of whatever part of the context fits in the
// prompt. It applies the sub-model's rules to the visible text, so any loss comes from truncation alone.
import { callingFileCounts, functionDefinitions, packageManifests } from '../tasks/codeFacts';
import { CONTEXT_BEGIN, CONTEXT_END, FILE_HEADER } from '../modePrompts';
import type { ContextFile } from '../../core/context/contextTypes';
import { parseQuestion } from './questionParse';
import { classifyInstance, parseRecordLine } from './ruleClassifier';

function visibleContext(prompt: string): string {
  const start = prompt.indexOf(CONTEXT_BEGIN);
  const end = prompt.lastIndexOf(CONTEXT_END);
  return start < 0 || end < start ? '' : prompt.slice(start + CONTEXT_BEGIN.length + 1, end);
}

function visibleFiles(text: string): ContextFile[] {
  const marker = FILE_HEADER('PATH').split('PATH');
  const re = new RegExp(`^${escape(marker[0]!)}(.+)${escape(marker[1]!)}$`, 'gm');
  const heads = [...text.matchAll(re)];
  return heads.map((h, i) => ({ path: h[1]!, content: text.slice(h.index + h[0].length + 1, heads[i + 1]?.index ?? text.length) }));
}

function escape(s: string): string {
  return s.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
}

export function scriptedDirectReply(prompt: string): string {
  const q = parseQuestion(prompt);
  const text = visibleContext(prompt);
  if (!q) return 'UNRECOGNISED QUESTION';
  if (q.suite === 'niah') return /secret key is (\d+)/.exec(text)?.[1] ?? 'NONE';
  if (q.suite === 'oolong' || q.suite === 'pairs') {
    const counts = new Map<string, number>();
    const users = new Map<number, Set<string>>();
    for (const line of text.split('\n')) {
      const rec = parseRecordLine(line);
      if (!rec) continue;
      const label = classifyInstance(rec.instance) ?? 'unclassified';
      counts.set(label, (counts.get(label) ?? 0) + 1);
      users.set(rec.user, (users.get(rec.user) ?? new Set<string>()).add(label));
    }
    const n = (l: string): number => counts.get(l) ?? 0;
    if (q.suite === 'pairs') {
      const ok = [...users].filter(([, s]) => s.has(q.a) && (q.condition === 'both' ? s.has(q.b) : !s.has(q.b))).map(([u]) => u).sort((x, y) => x - y);
      return ok.flatMap((a, i) => ok.slice(i + 1).map((b) => `${a}, ${b}`)).join('\n');
    }
    if (q.kind === 'count') return String(n(q.label));
    if (q.kind === 'compare') return n(q.a) > n(q.b) ? 'more common than' : n(q.a) < n(q.b) ? 'less common than' : 'same frequency as';
    return [...counts].filter(([l]) => l !== 'unclassified').sort((x, y) => y[1] - x[1])[0]?.[0] ?? 'NONE';
  }
  const files = visibleFiles(text);
  let found: string[];
  if (q.kind === 'defines') found = [...(functionDefinitions(files).get(q.name) ?? [])];
  else if (q.kind === 'callers') found = [String(callingFileCounts(files).get(q.name) ?? 0)];
  else found = packageManifests(files).filter((p) => p.dependencies.includes(q.name)).map((p) => p.name);
  return Object.entries(q.choices).find(([, v]) => found.includes(v))?.[0] ?? 'NONE';
}
