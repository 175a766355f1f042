// What the reference log's namespaces say about the REPL a run used. The reference records, after each
// code block, every name in the REPL (`locals`), not what the block added; and it does not record
// whether a run kept the REPL of the run before (its `persistent` option). Both can be read off the
// namespaces: a variable of the previous question that the next question finds without defining it
// means the REPL was kept; the previous question's variables all gone means it was a new one.
import type { RunSessionInfo } from './events';

/** Names the reference binds itself: the input (`context`, `context_0`, `completion_context`, `session_context_N`) and histories. */
const BINDING = /^(context(_\d+)?|completion_context|session_context_\d+|context_history|session_history|history(_\d+)?)$/;

function isBinding(name: string): boolean {
  return BINDING.test(name);
}

/**
 * True when the code gives `name` a value (assignment, import, def, class, for, with … as) before it
 * reads it: a block that first prints a variable and then changes it found it already there.
 */
function definesName(code: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [
    new RegExp(`(^|[\\s,(;])${n}\\s*(,[^=\\n]*)?(=(?!=)|[-+*/%&|^@]=|:[^=\\n]*=)`, 'm'),
    new RegExp(`\\bimport\\s+([\\w.]+\\s*,\\s*)*${n}\\b`),
    new RegExp(`\\bas\\s+${n}\\b`),
    new RegExp(`\\b(def|class)\\s+${n}\\b`),
    new RegExp(`\\bfor\\s+([\\w\\s,]*\\b)?${n}\\b[\\w\\s,]*\\bin\\b`),
    new RegExp(`\\bglobal\\s+([\\w\\s,]*\\b)?${n}\\b`),
  ];
  const firstUse = new RegExp(`\\b${n}\\b`).exec(code)?.index;
  if (firstUse === undefined) return false;
  return patterns.some((p) => {
    const match = p.exec(code);
    return match !== null && match.index <= firstUse;
  });
}

/** The variable the run's input was bound to, from the names its first block saw. */
function contextVariable(names: string[]): string | undefined {
  const sessions = names.map((n) => /^session_context_(\d+)$/.exec(n)).filter((m) => m !== null).map((m) => Number(m[1]));
  if (sessions.length) return `session_context_${Math.max(...sessions)}`;
  if (names.includes('completion_context')) return 'completion_context';
  if (names.includes('context')) return 'context';
  return undefined;
}

/** Follows the namespace across the top-level runs of one log. */
export class NamespaceTracker {
  /** Names after the latest block of any top-level run. */
  private latest: Set<string> = new Set();
  /** Names after the latest block of the run before the current one. */
  private beforeRun: Set<string> = new Set();
  private runIndex = 0;

  /** A new top-level run begins. */
  startRun(): void {
    this.beforeRun = this.latest;
    this.runIndex++;
  }

  /** What the run's first code block tells about its REPL; `locals` are the names after that block. */
  sessionOf(names: string[] | undefined, code: string, sessionMode: boolean | undefined): RunSessionInfo {
    const info: RunSessionInfo = {};
    if (sessionMode !== undefined) info.chat = sessionMode;
    if (names === undefined) {
      if (this.runIndex > 1) info.repl = 'unknown';
      return info;
    }
    const bound = contextVariable(names);
    if (bound) info.contextVariable = bound;
    if (this.runIndex <= 1) return info;
    const carried = names.filter((n) => !isBinding(n) && this.beforeRun.has(n) && !definesName(code, n));
    const earlierSession = names.some((n) => /^session_context_([1-9]\d*)$/.test(n));
    const earlierOwn = [...this.beforeRun].some((n) => !isBinding(n));
    if (carried.length) info.carriedOver = carried;
    info.repl = carried.length || earlierSession ? 'shared' : earlierOwn ? 'new' : 'unknown';
    return info;
  }

  /** Names after a block of a top-level run. */
  observe(names: string[]): void {
    this.latest = new Set(names);
  }
}
