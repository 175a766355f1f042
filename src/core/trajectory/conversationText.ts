// The words every surface (rlm show, the exports, the view) uses for a run's place in a conversation:
// whether its root saw the earlier turns, and whether its REPL was the one the question before used.
import type { RunSessionInfo } from './events';

/** "chat turn (session_mode on) · REPL kept from question 1 (found words) · input in completion_context" */
export function describeSession(session: RunSessionInfo | undefined, index: number): string | undefined {
  if (!session) return undefined;
  const parts: string[] = [];
  if (session.chat === true) parts.push('chat turn (session_mode on): the root saw the earlier turns of its session');
  if (session.chat === false) parts.push('completion (session_mode off): the root saw no earlier turn');
  const before = index > 0 ? `question ${index}` : 'an earlier question';
  if (session.repl === 'shared') {
    parts.push(session.carriedOver?.length ? `REPL kept from ${before} (found ${session.carriedOver.join(', ')})` : 'REPL kept from earlier questions');
  } else if (session.repl === 'new') {
    parts.push(`a new REPL (the variables of ${before} were gone)`);
  } else if (session.repl === 'unknown') {
    parts.push('whether the REPL was kept is not recorded');
  }
  if (session.contextVariable) parts.push(`input bound as ${session.contextVariable}`);
  return parts.length ? parts.join(' · ') : undefined;
}
